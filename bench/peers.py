#!/usr/bin/env python3
"""Whole-process time of one protocol on three stacks (bench/README.md,
"Against the peers"): `plate run` on the BioForge-1 simulator, PyLabRobot's
chatterbox backend and `opentrons.simulate`, each running the protocol that
../shared/peers/protocol/ wrote for it (96 wells: 100 uL reagent A, 4 washes
of 300 uL, 100 uL reagent B); and, for the OT-2 backend, `plate compile
--platform ot2` of the same script with Opentrons' simulator running what it
emitted ("ours").

Runs are interleaved (one of each per round) so that a load spike on a
shared machine hits all three alike; the medians and their ratios are
printed. A peer that cannot start (its Python packages missing) is reported
and left out rather than guessed.

    bench/peers.py [--plate build/tools/plate] [--peers ../shared/peers] [-n 10]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
parser = argparse.ArgumentParser()
parser.add_argument('--plate', default=os.path.join(root, 'build', 'tools', 'plate'))
parser.add_argument('--peers', default=os.path.join(os.path.dirname(root), 'shared', 'peers'))
parser.add_argument('-n', type=int, default=10)
args = parser.parse_args()

peers = os.path.abspath(args.peers)
protocol = os.path.join(peers, 'protocol')
# Debian's interpreter: the peers' README names the packages it needs, and
# another Python on the PATH would not have them.
python = '/usr/bin/python3'
out_dir = tempfile.mkdtemp(prefix='plate-peers-')
ot_config = tempfile.mkdtemp(prefix='plate-peers-ot-')
base_env = dict(os.environ, PYTHONDONTWRITEBYTECODE='1')

peer_script = os.path.join(protocol, 'elisa_peer.plate')
# The same script compiled for the OT-2 (issue 17): Opentrons' simulator on
# what our backend emitted, beside the protocol Opentrons' users write.
emitted = os.path.join(out_dir, 'elisa_peer_ot2.py')
subprocess.run([args.plate, 'compile', peer_script, '--platform', 'ot2', '-o', emitted],
               check=True, stdout=subprocess.DEVNULL)
opentrons_env = dict(base_env, OT_API_CONFIG_DIR=ot_config,
                     PYTHONPATH=os.path.join(peers, 'opentrons', 'api', 'src') + ':' +
                     os.path.join(peers, 'opentrons', 'shared-data', 'python'))
commands = {
    'plate run': ([args.plate, 'run', peer_script, '--out-dir', out_dir], base_env),
    'plate compile --platform ot2': ([args.plate, 'compile', peer_script, '--platform', 'ot2',
                                      '-o', os.path.join(out_dir, 'again.py')], base_env),
    'PyLabRobot chatterbox': ([python, os.path.join(protocol, 'elisa_plr.py'), 'chatterbox',
                               '--quiet'],
                              dict(base_env, PYTHONPATH=os.path.join(peers, 'pylabrobot'))),
    'opentrons.simulate': ([python, '-m', 'opentrons.simulate',
                            os.path.join(protocol, 'elisa_ot2.py')], opentrons_env),
    'opentrons.simulate (ours)': ([python, '-m', 'opentrons.simulate', emitted], opentrons_env),
}


def run_once(command, env):
    start = time.perf_counter()
    result = subprocess.run(command, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    return elapsed, result


# One warm-up round: the first start of a Python stack reads its files from
# disk; every later run finds them in the page cache, as a user's would.
usable = {}
for name, (command, env) in commands.items():
    _, result = run_once(command, env)
    if result.returncode != 0:
        tail = result.stderr.strip().splitlines()[-1:] or ['(no output)']
        print('%s: exit %d, left out: %s' % (name, result.returncode, tail[0]), file=sys.stderr)
        continue
    usable[name] = (command, env)
if 'plate run' not in usable:
    sys.exit('plate run failed; nothing to compare against')

times = {name: [] for name in usable}
for _ in range(args.n):
    for name, (command, env) in usable.items():
        elapsed, result = run_once(command, env)
        if result.returncode != 0:
            sys.exit('%s failed during the measurement (exit %d)' % (name, result.returncode))
        times[name].append(elapsed)

plate = statistics.median(times['plate run'])
print('%-30s %10s %12s' % ('whole process', 'median', 'vs plate run'))
for name, samples in times.items():
    median = statistics.median(samples)
    print('%-30s %8.1f ms %11.1fx' % (name, median * 1000, median / plate))
