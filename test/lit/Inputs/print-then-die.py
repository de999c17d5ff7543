#!/usr/bin/env python3
"""print-then-die.py HOW [LINE...]: prints each LINE on stderr, as the driver
prints a diagnostic, then ends by HOW: a signal name (ABRT, as a sanitizer
report ends; SEGV, as a crash on the way out) or a number to exit with.
The program a negative RUN line must not mistake for an expected failure."""
import os
import signal
import sys

how = sys.argv[1]
for line in sys.argv[2:]:
    print(line, file=sys.stderr)
sys.stderr.flush()
if how.isdigit():
    sys.exit(int(how))
number = getattr(signal, "SIG" + how)
signal.signal(number, signal.SIG_DFL)
os.kill(os.getpid(), number)
