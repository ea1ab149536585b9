#!/usr/bin/env python3
"""Run a SUT command and slow its answers down: the first output line
passes at once, every later one after a delay (LAG seconds, default 0.3).
A conformant SUT behind it stays conformant; a tester that calibrated its
quiescence window on the fast first answer sees the later ones arrive
after the window, and must not take that latency for quiescence."""
import os
import subprocess
import sys
import threading
import time

lag = float(os.environ.get("LAG", "0.3"))
sut = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)


def forward_inputs():
    for line in sys.stdin.buffer:
        try:
            sut.stdin.write(line)
            sut.stdin.flush()
        except BrokenPipeError:
            break
    try:
        sut.stdin.close()
    except BrokenPipeError:
        pass


threading.Thread(target=forward_inputs, daemon=True).start()
first = True
for line in sut.stdout:
    if not first and b'"ready"' not in line:
        time.sleep(lag)
    first = first and b'"ready"' in line
    sys.stdout.buffer.write(line)
    sys.stdout.buffer.flush()
sys.exit(sut.wait())
