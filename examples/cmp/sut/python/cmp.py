#!/usr/bin/env python3
"""The cmp example (examples/cmp/spec.yaml) in Python 3, standard library only.

It reads two numbers x and y with in(p), answers ok(y-x) if y-x >= 2 and
nok(y-x) otherwise, then end, and starts again. It speaks the JSON-Lines
protocol of docs/reference.md section 4 on stdin and stdout (integers of any size,
one line per output, flushed at once) and, like the Go programs, sleeps
first for the start-up delay given in STG_EXAMPLE_DELAY ("3s", "500ms").

    stg run cmp.tc.yaml -- python3 examples/cmp/sut/python/cmp.py
"""

import json
import os
import re
import sys
import time

UNITS = {"ns": 1e-9, "us": 1e-6, "\u00b5s": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}
TERM = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|\u00b5s|ms|s|m|h)")


def parse_duration(text):
    """Seconds in a Go duration such as "3s", "1m30s" or "0"; None if bad."""
    if text == "0":
        return 0.0
    total, pos = 0.0, 0
    while pos < len(text):
        m = TERM.match(text, pos)
        if not m:
            return None
        total += float(m.group(1)) * UNITS[m.group(2)]
        pos = m.end()
    return total if text else None


def emit(action, **args):
    msg = {"action": action}
    if args:
        msg["args"] = args
    sys.stdout.write(json.dumps(msg, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)  # integers of any size
    delay = os.environ.get("STG_EXAMPLE_DELAY", "")
    if delay:
        seconds = parse_duration(delay)
        if seconds is None:
            print("cmp: bad STG_EXAMPLE_DELAY=%r: want a duration such as 3s" % delay, file=sys.stderr)
            sys.exit(2)
        time.sleep(seconds)
    x = None  # None: waiting for x (Rx); else waiting for y (Ry)
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError as e:
            print("cmp: bad input:", e, file=sys.stderr)
            continue
        args = msg.get("args") if isinstance(msg, dict) else None
        p = args.get("p") if isinstance(args, dict) else None
        if msg.get("action") != "in" or not isinstance(p, int) or isinstance(p, bool):
            print("cmp: ignoring", line, file=sys.stderr)
            continue
        if x is None:
            x = p
            continue
        d = p - x
        x = None
        emit("ok" if d >= 2 else "nok", p=d)
        emit("end")


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, KeyboardInterrupt):
        sys.exit(1)
