#!/usr/bin/env python3
"""The reference implementation of the microgrid's external functions,
speaking the JSON Lines protocol of stg's package extfunc:

    python3 microgrid.py INTGR    {"args":[[123,96]]} -> {"result":228}
    python3 microgrid.py RISE     {"args":[228]}      -> {"result":"97/100"}

"Table lookup, else a formula", consistent with Tables 1 and 3 of the
function-summaries paper (the same as examples/microgrid/funcs in Go):
INTGR([a, b]) = Table 3's value, else 195 + ((31*a + 17*b) mod 97)
(195..291, at most 200 for 6 residues in 97: outputs <= 200 are rare);
RISE(I) = Table 3's value, else I/1000 exactly.
"""
import json
import sys
from fractions import Fraction

INTGR_ROWS = {(0, 0): 0, (12, 18): 30, (123, 96): 228, (148, 141): 300}
RISE_ROWS = {202: Fraction(7, 10), 228: Fraction(97, 100), 300: Fraction(242, 100)}


def intgr(a, b):
    if (a, b) in INTGR_ROWS:
        return INTGR_ROWS[(a, b)]
    return 195 + (31 * a + 17 * b) % 97  # Python's % is Euclidean for 97 > 0


def rise(i):
    return RISE_ROWS.get(i, Fraction(i, 1000))


def is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def answer(name, req):
    args = req.get("args") if isinstance(req, dict) else None
    if not isinstance(args, list) or len(args) != 1:
        return {"error": "bad arguments %r for %s" % (args, name)}
    if name == "INTGR":
        cells = args[0]
        if not (isinstance(cells, list) and len(cells) == 2 and all(is_int(c) for c in cells)):
            return {"error": "bad arguments %r for INTGR" % (args,)}
        return {"result": intgr(cells[0], cells[1])}
    if not is_int(args[0]):
        return {"error": "bad arguments %r for RISE" % (args,)}
    r = rise(args[0])
    if r.denominator == 1:
        return {"result": r.numerator}
    return {"result": "%d/%d" % (r.numerator, r.denominator)}


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in ("INTGR", "RISE"):
        print("usage: microgrid.py INTGR|RISE", file=sys.stderr)
        sys.exit(2)
    name = sys.argv[1]
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            reply = answer(name, json.loads(line))
        except ValueError as e:
            reply = {"error": "bad request: %s" % e}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
