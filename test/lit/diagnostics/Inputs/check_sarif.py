#!/usr/bin/env python3
"""check_sarif.py LOG: validates a --diagnostics=sarif log of plate and
prints a short summary of its results for FileCheck.

The log must satisfy the published SARIF 2.1.0 schema (sarif-schema-2.1.0.json
beside this script, validated with jsonschema) and what the schema cannot
express: one run of the tool `plate` that states its columnKind, whose rules
are the rows of ir/Diagnostics.def in table order, and results whose ruleIndex
names the rule of their ruleId and whose regions are not empty.

Run by Debian's interpreter (lit's %sarif-check), which has Debian's
python3-jsonschema from tools/setup.sh; a python3 found first on PATH may not.
Exits 1 with the reasons on stderr when the log is not valid.
"""
import json
import os
import re
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(HERE))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from diagnostics_doc import read_table  # noqa: E402

try:
    import jsonschema
except ImportError:
    sys.exit("check_sarif: no jsonschema module for {}; run tools/setup.sh "
             "(Debian python3-jsonschema)".format(sys.executable))

problems = []


def expect(cond, what):
    if not cond:
        problems.append(what)
    return cond


def region_text(region):
    text = "{}".format(region.get("startLine"))
    if "startColumn" in region:
        text += ":{}".format(region["startColumn"])
    if "endColumn" in region:
        text += "-{}".format(region["endColumn"])
    return text


def location_text(physical, insertion_ok=False):
    uri = physical["artifactLocation"]["uri"]
    region = physical.get("region")
    if region is None:
        return uri
    if "endColumn" in region:
        least = region["startColumn"] if insertion_ok else region["startColumn"] + 1
        expect(region["endColumn"] >= least, "empty region {} in {}".format(region, uri))
    return "{}:{}".format(uri, region_text(region))


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        log = json.load(f)
    with open(os.path.join(HERE, "sarif-schema-2.1.0.json"), encoding="utf-8") as f:
        schema = json.load(f)
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    for error in sorted(validator_class(schema).iter_errors(log), key=lambda e: list(e.path)):
        problems.append("schema: at /{}: {}".format("/".join(str(p) for p in error.path),
                                                    error.message))
    if problems:
        return
    expect(log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json", "$schema")
    if not expect(len(log["runs"]) == 1, "{} runs, not one".format(len(log["runs"]))):
        return
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    expect(driver["name"] == "plate", "tool name " + driver["name"])
    expect(re.fullmatch(r"\d+\.\d+\.\d+", driver.get("version", "")), "tool version")
    expect("columnKind" in run, "run.columnKind missing")

    rules = driver.get("rules", [])
    table = read_table()
    expect(len(rules) == len(table),
           "{} rules for {} rows of Diagnostics.def".format(len(rules), len(table)))
    for rule, (code, name, severity, category, fmt) in zip(rules, table):
        want = {"id": code, "name": name,
                "shortDescription": {"text": re.sub(r"\\(.)", r"\1", fmt)},
                "defaultConfiguration": {"level": severity},
                "properties": {"category": category}}
        expect(rule == want, "rule {} is {}, not {}".format(code, rule, want))

    for result in run["results"]:
        index = result.get("ruleIndex")
        if not expect(isinstance(index, int) and 0 <= index < len(rules),
                      "result {} has no valid ruleIndex".format(result["ruleId"])):
            continue
        expect(rules[index]["id"] == result["ruleId"],
               "ruleIndex {} is {}, not {}".format(index, rules[index]["id"], result["ruleId"]))
        expect(result.get("level") in ("error", "warning", "note"),
               "result {} level {}".format(result["ruleId"], result.get("level")))
        locations = result.get("locations", [])
        expect(len(locations) <= 1, "more than one location")
        where = location_text(locations[0]["physicalLocation"]) if locations else "(no location)"
        props = result.get("properties", {})
        print("result {} {} {} category={} step={}".format(
            result["ruleId"], result["level"], where, props.get("category"), props.get("step", "")))
        print("  message: " + result["message"]["text"])
        for related in result.get("relatedLocations", []):
            physical = related.get("physicalLocation")
            print("  related {}: {}: {}".format(
                related.get("id"), location_text(physical) if physical else "(no location)",
                related["message"]["text"]))
        for fix in result.get("fixes", []):
            for change in fix["artifactChanges"]:
                for replacement in change["replacements"]:
                    deleted = {"artifactLocation": change["artifactLocation"],
                               "region": replacement["deletedRegion"]}
                    print("  fix: {} -> {!r}".format(location_text(deleted, insertion_ok=True),
                                                     replacement["insertedContent"]["text"]))
        if "suggestion" in props:
            print("  suggestion: " + props["suggestion"])
    print("results {} rules {} columnKind {}".format(len(run["results"]), len(rules),
                                                     run.get("columnKind")))


main()
if problems:
    for problem in problems:
        print("check_sarif: " + problem, file=sys.stderr)
    sys.exit(1)
