"""Heated and room-temperature steps in every order must run.

Writes small scripts around the heating plate, asks `plate check` to accept
each (so the sweep only holds scripts a user could hand in) and then
`plate run`s it: translation validation compares the stream with the
script, so a plate left on the heating plate during a room-temperature step
is an internal error (exit 3) here. Every script must exit 0.

Sweep A: every sequence of three incubations at RT, 37 and 65 °C, each gap
with or without a dispense. Sweep B: two heated incubations (equal or
different set points, lid on or off) around each kind of step that keeps
the plate in place or moves it elsewhere, including a MANUAL section, a
repeat block and a procedure call.

usage: heater_sweep.py PLATE WORKDIR
"""
import itertools
import os
import subprocess
import sys

HEAD = """<LAYOUT>
plate plate96
sample X1..X8 at A1..H1
</LAYOUT>
<REAGENTS>
buf
</REAGENTS>
<INSTRUMENT>
proc rest(t: Time) {
  incubate t at RT
}
dispense 20 uL of buf to all
"""
TAIL = """read absorbance at 405 nm
</INSTRUMENT>
"""
TEMPS = {"RT": "incubate 5 min at RT", "37": "incubate 5 min at 37 °C",
         "65": "incubate 5 min at 65 °C"}
DISPENSE = "dispense 20 uL of buf to all"
HEATED = ["incubate 5 min at 37 °C", "incubate 5 min at 65 °C",
          "incubate 5 min at 37 °C lid off"]
BETWEEN = {
    "rt": "incubate 5 min at RT",
    "default": "incubate 5 min",
    "rt-lid-off": "incubate 5 min at RT lid off",
    "rt-dark": "incubate 5 min at RT dark",
    "rt-shaking": "incubate 5 min shaking 300 rpm",
    "wait": "wait 2 min",
    "pause": 'pause "check the plate"',
    "shake": "shake 1 min at 300 rpm",
    "magnet": "magnet 1 min",
    "read": "read absorbance at 450 nm",
    "manual": "</INSTRUMENT>\n<MANUAL>\nincubate 5 min at RT\n</MANUAL>\n<INSTRUMENT>",
    "manual-note": '</INSTRUMENT>\n<MANUAL>\nnote "look at the plate"\n</MANUAL>\n<INSTRUMENT>',
    "repeat": "repeat 2 {\n  incubate 5 min at RT\n  incubate 5 min at 37 °C\n}",
    "procedure": "rest(5 min)",
}


def scripts():
    for temps in itertools.product(TEMPS, repeat=3):
        for gaps in itertools.product([False, True], repeat=2):
            body = [TEMPS[temps[0]]]
            for gap, temp in zip(gaps, temps[1:]):
                if gap:
                    body.append(DISPENSE)
                body.append(TEMPS[temp])
            name = "a-" + "-".join(t + ("-d" if g else "") for t, g in
                                   zip(temps, list(gaps) + [False]))
            yield name, body
    for (i, first), (j, second) in itertools.product(enumerate(HEATED), repeat=2):
        for kind, step in BETWEEN.items():
            yield f"b-{i}-{kind}-{j}", [first, step, second]


def main():
    plate, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    count = failures = 0
    for name, body in scripts():
        count += 1
        path = os.path.join(work, name + ".plate")
        with open(path, "w", encoding="utf-8") as f:
            f.write(HEAD + "\n".join(body) + "\n" + TAIL)
        for args in (["check", path], ["run", path, "--out-dir", path + ".out"]):
            done = subprocess.run([plate] + args, capture_output=True, text=True)
            if done.returncode != 0:
                failures += 1
                print(f"FAIL {name}: plate {args[0]} exit {done.returncode}\n"
                      f"{done.stdout}{done.stderr}")
                break
    print(f"{count} scripts, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
