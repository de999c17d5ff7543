#!/usr/bin/env python3
"""expect-exit.py CODE COMMAND...: runs COMMAND with its output passed through
and fails unless it exits with exactly CODE (lit's `not` only knows
"non-zero", and the driver's exit codes 1 and 2 mean different things)."""
import subprocess
import sys

expected = int(sys.argv[1])
code = subprocess.call(sys.argv[2:])
if code != expected:
    print("expect-exit: `{}` exited with {}, expected {}".format(
        " ".join(sys.argv[2:]), code, expected), file=sys.stderr)
    sys.exit(1)
