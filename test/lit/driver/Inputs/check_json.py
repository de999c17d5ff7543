#!/usr/bin/env python3
"""check_json.py KIND FILE: validates the shape of a JSON output of plate and
prints a short summary for FileCheck.

  plan         the loading plan (language spec §11): reservoir entries with
               row, col, liquid, volume_ml; tips, tip_racks, robot_time_s;
               then the set of liquids loaded
  diagnostics  the --diagnostics=json document (docs/diagnostics.md)
"""
import json
import sys

kind, path = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as f:
    doc = json.load(f)


def expect(cond, what):
    if not cond:
        print("check_json: " + what, file=sys.stderr)
        sys.exit(1)


if kind == "plan":
    for key, typ in (("reservoir", list), ("tips", int), ("tip_racks", int),
                     ("robot_time_s", (int, float))):
        expect(isinstance(doc.get(key), typ), "plan: `{}` missing or of the wrong type".format(key))
    positions = set()
    for entry in doc["reservoir"]:
        expect(isinstance(entry.get("row"), int) and isinstance(entry.get("col"), int),
               "plan: reservoir entry without integer row/col: {}".format(entry))
        expect(isinstance(entry.get("liquid"), str) and entry["liquid"],
               "plan: reservoir entry without liquid: {}".format(entry))
        expect(isinstance(entry.get("volume_ml"), (int, float)) and entry["volume_ml"] > 0,
               "plan: reservoir entry without a positive volume_ml: {}".format(entry))
        expect(abs(entry["volume_ml"] * 10 - round(entry["volume_ml"] * 10)) < 1e-9,
               "plan: volume_ml not rounded to 0.1 mL: {}".format(entry))
        expect((entry["row"], entry["col"]) not in positions, "plan: position used twice")
        positions.add((entry["row"], entry["col"]))
    for entry in doc["reservoir"]:
        print("position ({},{}) {} {} mL".format(entry["row"], entry["col"], entry["liquid"],
                                                entry["volume_ml"]))
    print("tips {} racks {} time {}".format(doc["tips"], doc["tip_racks"], doc["robot_time_s"]))
    print("liquids: " + " ".join(sorted({entry["liquid"] for entry in doc["reservoir"]})))
elif kind == "diagnostics":
    expect(set(doc) == {"diagnostics", "errors", "warnings"},
           "diagnostics: top-level keys are {}".format(sorted(doc)))
    keys = {"code", "name", "severity", "category", "file", "line", "column", "step",
            "message", "suggestion", "notes"}
    for d in doc["diagnostics"]:
        expect(set(d) >= keys - {"suggestion"} and set(d) <= keys,
               "diagnostics: entry keys are {}".format(sorted(d)))
        expect(isinstance(d["line"], int) and isinstance(d["column"], int), "line/column not integers")
        expect(d["severity"] in ("error", "warning", "note"), "bad severity " + d["severity"])
        for note in d["notes"]:
            expect({"file", "line", "column", "message"} <= set(note),
                   "note keys are {}".format(sorted(note)))
        print("{} {}:{}:{} {} {} step={!r} suggestion={!r} notes={}".format(
            d["code"], d["file"].rsplit("/", 1)[-1], d["line"], d["column"], d["severity"],
            d["category"], d["step"], d.get("suggestion"), len(d["notes"])))
    expect(doc["errors"] == sum(d["severity"] == "error" for d in doc["diagnostics"]),
           "errors count")
    expect(doc["warnings"] == sum(d["severity"] == "warning" for d in doc["diagnostics"]),
           "warnings count")
    print("errors {} warnings {}".format(doc["errors"], doc["warnings"]))
else:
    expect(False, "unknown kind " + kind)
