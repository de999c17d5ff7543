#!/usr/bin/env python3
"""Writes a stub_llm_server.py scenario that plays scripted Parsers and a
Validator over the evaluation corpus, so `plate eval` sweeps can be recorded
without any real model. The answers are SCRIPTED, not model output: the
figures of a sweep made with them test the harness, not a model.

Parsers (OpenAI wire):
  stub-faithful  answers every protocol with its ground truth (1st pass);
  stub-sloppy    by protocol index i (corpus order): i % 4 == 0 the ground
                 truth; 1: a wrong volume, then the truth (2nd pass); 2: a
                 type error, a wrong volume, then the truth (3rd pass);
                 3: a type error and two wrong volumes (final fail).
  With --direct each Parser answers the compiled ground truth as a command
  stream (stub-sloppy: with one dispensed volume doubled).
Validator (Anthropic wire): stub-validator passes everything (a liberal
Validator).

Usage: make_stub_scenario.py --plate PLATE --corpus DIR [--only TEXT] -o OUT.json
"""
import argparse
import json
import os
import re
import subprocess

SCRIPT_MARKER = "into a .plate script"
DIRECT_MARKER = "robot's command stream"


def fenced(kind, text):
    return {"text": "```%s\n%s```\n" % (kind, text if text.endswith("\n") else text + "\n")}


def wrong_volume(script):
    """The first INSTRUMENT volume doubled (or halved above 150)."""
    start = script.find("<INSTRUMENT>")
    match = re.compile(r"(\d+(?:\.\d+)?) uL").search(script, start)
    if not match:
        return script.replace("<INSTRUMENT>", "<INSTRUMENT>\nwait 7 min", 1)
    value = float(match.group(1))
    wrong = value * 2 if value * 2 <= 300 else value / 2
    return script[:match.start(1)] + ("%g" % wrong) + script[match.end(1):]


def type_error(script):
    start = script.find("<INSTRUMENT>")
    match = re.compile(r"(\d+(?:\.\d+)?) uL").search(script, start)
    if not match:
        return script.replace("<INSTRUMENT>", "<INSTRUMENT>\nwait 7 nm", 1)
    return script[:match.end(1)] + " nm" + script[match.end(0):]


def marker_line(protocol):
    lines = [l.strip() for l in protocol.splitlines() if l.strip()]
    return max(lines, key=len)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--plate", required=True)
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--only", default="")
    parser.add_argument("-o", "--output", required=True)
    args = parser.parse_args()

    names = sorted(d for d in os.listdir(args.corpus)
                   if os.path.exists(os.path.join(args.corpus, d, "truth.plate")))
    routes = []
    index = 0
    for name in names:
        if args.only and args.only not in name:
            continue
        folder = os.path.join(args.corpus, name)
        with open(os.path.join(folder, "protocol.txt"), encoding="utf-8") as f:
            protocol = f.read()
        with open(os.path.join(folder, "truth.plate"), encoding="utf-8") as f:
            truth = f.read()
        stream = subprocess.run([args.plate, "compile", os.path.join(folder, "truth.plate"),
                                 "--emit=bf1-json"], check=True, capture_output=True,
                                text=True).stdout
        commands = [json.loads(l) for l in stream.splitlines() if l.strip() and not l.startswith("#")]
        sloppy_commands = [dict(c) for c in commands]
        for c in sloppy_commands:
            if c["op"] == "Dispense" and c["args"].get("slot") == 1:
                c["args"] = dict(c["args"], volume_ul=c["args"]["volume_ul"] * 2)
                break
        jsonl = "".join(json.dumps(c) + "\n" for c in commands)
        sloppy_jsonl = "".join(json.dumps(c) + "\n" for c in sloppy_commands)

        marker = marker_line(protocol)
        good = fenced("plate", truth)
        wrong = fenced("plate", wrong_volume(truth))
        broken = fenced("plate", type_error(truth))
        sloppy = [[good], [wrong, good], [broken, wrong, good], [broken, wrong, wrong]][index % 4]
        routes.append({"model": "stub-faithful", "contains": [marker, SCRIPT_MARKER],
                       "responses": [good]})
        routes.append({"model": "stub-sloppy", "contains": [marker, SCRIPT_MARKER],
                       "responses": sloppy})
        routes.append({"model": "stub-faithful", "contains": [marker, DIRECT_MARKER],
                       "responses": [fenced("jsonl", jsonl)], "repeat_last": True})
        routes.append({"model": "stub-sloppy", "contains": [marker, DIRECT_MARKER],
                       "responses": [fenced("jsonl", sloppy_jsonl)], "repeat_last": True})
        index += 1
    routes.append({"model": "stub-validator", "repeat_last": True,
                   "responses": [{"text": json.dumps({"verdict": "pass", "findings": []})}]})
    with open(args.output, "w", encoding="utf-8") as f:
        json.dump({"openai": [], "anthropic": [], "routes": routes}, f, indent=1)


if __name__ == "__main__":
    main()
