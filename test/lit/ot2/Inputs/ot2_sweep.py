"""Sends scripts through the OT-2 backend and Opentrons' own simulator and
compares each, well by well, with plate's BioForge-1 simulator
(compare_wells.py says how).

    ot2_sweep.py [--plate-only] PLATE_BINARY WORK_DIR SCRIPT...

For each script: `plate compile --platform ot2 --manual-fallback`, `plate
compile --emit=bf1-json` and `plate run --state-out`, then Opentrons'
simulation of the emitted protocol. Opentrons is imported once for all of
them: its start-up (about 2 s) is most of what one comparison costs, which
is what lets the whole corpus run in the test suite.

One line per script (its name is the folder of a `truth.plate`, else the
file's stem), the differing wells under it, and a total line. Exit status 1
when a protocol fails in Opentrons' simulation or a well differs; a script
plate refuses with a diagnostic is counted and named, not a failure here
(the caller decides whether the platform should have run it).

--plate-only compiles for the OT-2 and stops there: the sanitizer build's
check of the backend (eval/corpus.test runs the corpus on BioForge-1), where
Opentrons' half would only repeat the normal build's.
"""
import os
import re
import subprocess
import sys
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare_wells  # noqa: E402 found next to this file


def script_name(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    return os.path.basename(os.path.dirname(os.path.abspath(path))) if stem == "truth" else stem


def plate(binary, *args):
    return subprocess.run([binary, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


def diagnostic_codes(stderr):
    codes = sorted(set(re.findall(r"\[(E[0-9]+)\]", stderr)))
    if codes:
        return " ".join(codes)
    last = stderr.strip().splitlines()[-1:]
    return last[0] if last else "no diagnostic"


def opentrons_error(error):
    """The innermost detail of Opentrons' error (its message nests every
    wrapping error's record)."""
    text = str(error)
    details = re.findall(r"detail='([^']*)'", text)
    message = details[-1] if details else (text.strip().splitlines() or [type(error).__name__])[0]
    return message[:300]


def main():
    args = sys.argv[1:]
    plate_only = bool(args) and args[0] == "--plate-only"
    if plate_only:
        args = args[1:]
    if len(args) < 3:
        sys.exit("usage: ot2_sweep.py [--plate-only] PLATE_BINARY WORK_DIR SCRIPT...")
    binary, work, scripts = args[0], args[1], args[2:]
    os.makedirs(work, exist_ok=True)
    if not plate_only:
        simulate, labware = compare_wells.import_opentrons()
    matched = refused = failed = differing = wells = compiled_only = 0
    for script in scripts:
        name = script_name(script)
        base = os.path.join(work, name)
        with open(script) as text:
            # BioForge-1's four channels are 9 mm apart: every other column
            # of a 384-well plate.
            stride = 2 if "plate384" in text.read() else 1
        compiled = plate(binary, "compile", script, "--platform", "ot2", "--manual-fallback",
                         "-o", base + ".py")
        if compiled.returncode != 0:
            refused += 1
            print("{} refused by plate: {}".format(name, diagnostic_codes(compiled.stderr)))
            continue
        if plate_only:
            compiled_only += 1
            print("{} compiled for the OT-2".format(name))
            continue
        stream = plate(binary, "compile", script, "--emit=bf1-json", "-o", base + ".jsonl")
        ran = plate(binary, "run", script, "--out-dir", base, "--no-journal", "--progress", "none",
                    "--state-out", base + ".state.json")
        if stream.returncode != 0 or ran.returncode != 0:
            failed += 1
            print("{} fails on BioForge-1 (compile rc {}, run rc {}): {}".format(
                name, stream.returncode, ran.returncode, (stream.stderr + ran.stderr).strip()[-400:]))
            continue
        try:
            lines, differ, compared = compare_wells.compare(
                simulate, labware, base + ".py", base + ".state.json", base + ".jsonl", stride)
        except Exception as error:  # Opentrons refused the protocol: our fault, not the user's
            failed += 1
            print("{} fails in Opentrons' simulation: {}".format(name, opentrons_error(error)))
            if not type(error).__module__.startswith("opentrons"):
                traceback.print_exc(limit=3, file=sys.stdout)  # a fault of compare_wells
            continue
        if differ:
            differing += 1
            print("{} differs: {}".format(name, lines[-1]))
            for line in lines[:-1]:
                print("  " + line)
        else:
            matched += 1
            wells += compared
            print("{} matches: {}".format(name, lines[-1]))
    if plate_only:
        print("ot2 sweep: {} scripts, {} compiled for the OT-2, {} refused by plate "
              "(Opentrons' simulation not run)".format(len(scripts), compiled_only, refused))
        sys.exit(0)
    print("ot2 sweep: {} scripts, {} match BioForge-1 in every well ({} wells), {} differ, "
          "{} fail, {} refused by plate".format(len(scripts), matched, wells, differing, failed, refused))
    sys.exit(1 if failed or differing else 0)


if __name__ == "__main__":
    main()
