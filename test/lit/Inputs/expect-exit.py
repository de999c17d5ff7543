#!/usr/bin/env python3
"""expect-exit.py CODE COMMAND...: runs COMMAND with its output passed through
and fails unless it exits with exactly CODE. The lit substitution is
%expect-exit. lit's own `not` only knows "non-zero" and takes death by a
signal for the failure it expects; the driver's exit codes 1 (input errors)
and 2 (usage) mean different things, and a crash is never the one expected."""
import signal
import subprocess
import sys

expected = int(sys.argv[1])
command = sys.argv[2:]
code = subprocess.call(command)
if code != expected:
    if code < 0:
        try:
            got = "was killed by signal {}".format(signal.Signals(-code).name)
        except ValueError:
            got = "was killed by signal {}".format(-code)
    else:
        got = "exited with {}".format(code)
    print("expect-exit: `{}` {}, expected exit {}".format(" ".join(command), got, expected),
          file=sys.stderr)
    sys.exit(1)
