#!/usr/bin/env python3
"""Interrupts `plate run` and proves that run + resume equals one unbroken run.

Modes (all compare against an uninterrupted baseline run of the same input):
  power-loss SEQS   --fault SEQ:power_loss kills the process (SIGKILL) just
                    before command SEQ; then `--resume` finishes the run.
                    SEQS: `all` or a comma list.
  random-faults N   N seeded random-fault runs (--fault-rate), each resumed
                    until it completes.
  external-kill N   N runs killed with SIGKILL from outside after a seeded
                    random number of confirmed commands, then resumed.

Equal means: the same final deck state (--state-out), the same read and
analysis files byte for byte, the same robot time, and a journal in which
every command is confirmed exactly once, in order, as in the baseline.
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time


def run(cmd, timeout=600):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=timeout)


def robot_time(stdout):
    for line in stdout.splitlines():
        if line.startswith('run: ') and 'robot time' in line:
            return line.split('robot time', 1)[1].split(',')[0].strip()
    return None


def outputs(directory):
    files = {}
    for name in sorted(os.listdir(directory)):
        if name.endswith('-journal.jsonl') or name == 'state.json':
            continue
        with open(os.path.join(directory, name), 'rb') as handle:
            files[name] = handle.read()
    return files


def confirmed(journal):
    done = []
    with open(journal) as handle:
        for line in handle:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if 'done' in entry:
                done.append((entry['done'], json.dumps(entry['command'], sort_keys=True),
                             json.dumps(entry.get('read'), sort_keys=True)))
    return done


def remapped(journal):
    with open(journal) as handle:
        return any('"remap"' in line for line in handle)


def tips_used(state):
    state = dict(state)
    state['rack'] = len(state['rack']) - state['rack'].count('F')
    state['head'] = [tip and dict(tip, rack=None) for tip in state['head']]
    return state


class Checker:
    def __init__(self, args):
        self.args = args
        self.failures = 0
        self.cases = 0
        self.killed_mid_run = 0
        self.base_dir = os.path.join(args.work, 'baseline')
        self.prefix = os.path.splitext(os.path.basename(args.input))[0]
        shutil.rmtree(args.work, ignore_errors=True)
        os.makedirs(self.base_dir)
        result = run(self.command(self.base_dir) + ['--state-out', self.state(self.base_dir)])
        if result.returncode != 0:
            sys.exit('baseline run failed:\n' + result.stdout + result.stderr)
        self.base_time = robot_time(result.stdout)
        self.base_files = outputs(self.base_dir)
        self.base_done = confirmed(self.journal(self.base_dir))
        with open(self.state(self.base_dir)) as handle:
            self.base_state = json.load(handle)
        self.commands = len(self.base_done)

    def command(self, out_dir):
        return [self.args.plate, 'run', self.args.input, '--progress=none',
                '--out-dir', out_dir] + self.args.extra

    def journal(self, out_dir):
        return os.path.join(out_dir, self.prefix + '-journal.jsonl')

    def state(self, out_dir):
        return os.path.join(out_dir, 'state.json')

    def resume(self, out_dir, extra=()):
        return run([self.args.plate, 'run', self.args.input, '--progress=none',
                    '--resume', self.journal(out_dir), '--state-out', self.state(out_dir)]
                   + self.args.extra + list(extra))

    def compare(self, label, out_dir, final):
        self.cases += 1
        problems = []
        if final.returncode != 0:
            problems.append('resume exited %d: %s' % (final.returncode, final.stderr.strip()))
        if robot_time(final.stdout) != self.base_time:
            problems.append('robot time %s, baseline %s' % (robot_time(final.stdout),
                                                            self.base_time))
        if os.path.exists(self.state(out_dir)):
            with open(self.state(out_dir)) as handle:
                state = json.load(handle)
            expected = self.base_state
            if remapped(self.journal(out_dir)):
                # A retried tip pick-up took other fresh tips: the same
                # number of tips is used, from other rack positions.
                state, expected = tips_used(state), tips_used(expected)
            if state != expected:
                problems.append('final deck state differs in %s' %
                                sorted(k for k in expected if state.get(k) != expected[k]))
        else:
            problems.append('no final state written')
        files = outputs(out_dir)
        for name, data in self.base_files.items():
            if files.get(name) != data:
                problems.append('%s differs or is missing' % name)
        done = confirmed(self.journal(out_dir))
        seqs = [entry[0] for entry in done]
        if seqs != list(range(1, self.commands + 1)):
            problems.append('journal confirms seqs %s, not 1..%d once each' %
                            (seqs[:40], self.commands))
        elif [entry[2] for entry in done] != [entry[2] for entry in self.base_done]:
            problems.append('journaled reads differ')
        if problems:
            self.failures += 1
            print('FAIL %s: %s' % (label, '; '.join(problems)))

    def power_loss(self, seqs):
        for seq in seqs:
            out_dir = os.path.join(self.args.work, 'kill%d' % seq)
            os.makedirs(out_dir)
            killed = run(self.command(out_dir) + ['--fault', '%d:power_loss' % seq])
            if killed.returncode != -signal.SIGKILL:
                self.failures += 1
                print('FAIL power_loss at %d: exit %d, not SIGKILL' % (seq, killed.returncode))
                continue
            self.compare('power_loss at %d' % seq, out_dir, self.resume(out_dir))

    def random_faults(self, count):
        rng = random.Random(self.args.seed)
        for case in range(count):
            out_dir = os.path.join(self.args.work, 'random%d' % case)
            os.makedirs(out_dir)
            rate, seed = self.args.rate, rng.randrange(1 << 30)
            result = run(self.command(out_dir) + ['--fault-rate', str(rate), '--fault-seed',
                                                  str(seed), '--state-out',
                                                  self.state(out_dir)])
            attempts = 1
            while result.returncode != 0 and attempts < 50:
                attempts += 1
                result = self.resume(out_dir, ['--fault-rate', str(rate), '--fault-seed',
                                               str(seed + attempts)])
            self.compare('random faults seed %d (%d sessions)' % (seed, attempts), out_dir,
                         result)

    def external_kill(self, count):
        # The kill lands after a seeded random number of confirmed commands,
        # watched in the journal as it grows, so that it lands mid-run on a
        # fast disk as on a slow one (a delay in seconds missed the run
        # whenever fsync was cheap). A kill that still comes too late is
        # drawn again: every case is a kill mid-run.
        rng = random.Random(self.args.seed)
        for case in range(count):
            for attempt in range(10):
                out_dir = os.path.join(self.args.work, 'sigkill%d-%d' % (case, attempt))
                os.makedirs(out_dir)
                target = rng.randint(1, max(1, self.commands * 9 // 10))
                if self.kill_after(out_dir, target):
                    break
            else:
                self.failures += 1
                print('FAIL sigkill %d: 10 kills, none of them mid-run' % case)
                continue
            self.killed_mid_run += 1
            self.compare('sigkill %d after command %d' % (case, target), out_dir,
                         self.resume(out_dir))

    def kill_after(self, out_dir, target):
        """Runs until the journal confirms `target` commands, then SIGKILL.
        True when the kill left the journal of an unfinished run."""
        process = subprocess.Popen(self.command(out_dir), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        journal, seen, offset = self.journal(out_dir), 0, 0
        while process.poll() is None and seen < target:
            try:
                with open(journal, 'rb') as handle:
                    handle.seek(offset)
                    chunk = handle.read()
            except FileNotFoundError:
                chunk = b''
            # Count whole lines only; a line being written is read again.
            chunk = chunk[:chunk.rfind(b'\n') + 1]
            offset += len(chunk)
            seen += chunk.count(b'"done"')
            time.sleep(0.0005)
        process.send_signal(signal.SIGKILL)
        process.wait()
        if process.returncode != -signal.SIGKILL:
            return False
        return 0 < len(confirmed(self.journal(out_dir))) < self.commands


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--plate', required=True)
    parser.add_argument('--input', required=True)
    parser.add_argument('--work', required=True)
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--rate', type=float, default=0.05)
    parser.add_argument('mode', choices=['power-loss', 'random-faults', 'external-kill'])
    parser.add_argument('what')
    parser.add_argument('extra', nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if args.extra and args.extra[0] == '--':
        args.extra = args.extra[1:]
    checker = Checker(args)
    if args.mode == 'power-loss':
        seqs = (range(1, checker.commands + 1) if args.what == 'all'
                else [int(seq) for seq in args.what.split(',')])
        checker.power_loss(seqs)
    elif args.mode == 'random-faults':
        checker.random_faults(int(args.what))
    else:
        checker.external_kill(int(args.what))
    killed = (', %d killed mid-run' % checker.killed_mid_run
              if args.mode == 'external-kill' else '')
    print('%s: %d commands, %d case(s)%s, %d failed' % (args.mode, checker.commands,
                                                       checker.cases, killed, checker.failures))
    sys.exit(1 if checker.failures else 0)


if __name__ == '__main__':
    main()
