#!/usr/bin/env python3
"""Whole-process start-up of `plate`, against /bin/true on the same machine
(bench/README.md, startup). Prints the median wall time of N runs of each
command, interleaved so that a load spike hits all of them alike.
    bench/startup.py [--plate build/tools/plate] [-n 200]"""
import argparse
import os
import statistics
import subprocess
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
parser = argparse.ArgumentParser()
parser.add_argument('--plate', default=os.path.join(root, 'build', 'tools', 'plate'))
parser.add_argument('-n', type=int, default=200)
args = parser.parse_args()
commands = {
    '/bin/true': ['/bin/true'],
    'plate --version': [args.plate, '--version'],
    'plate check bradford.plate': [args.plate, 'check',
                                   os.path.join(root, 'docs', 'examples', 'bradford.plate')],
}
times = {name: [] for name in commands}
for _ in range(args.n):
    for name, command in commands.items():
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times[name].append((time.perf_counter() - start) * 1000)
base = statistics.median(times['/bin/true'])
for name, samples in times.items():
    median = statistics.median(samples)
    print('%-28s %7.2f ms  %5.1fx /bin/true' % (name, median, median / base))
