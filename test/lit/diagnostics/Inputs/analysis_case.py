"""Writes a loading plan (and, for some cases, reader data) for the
Bradford stream in test/lit/backend/Inputs whose analysis step fails in one
named way; each case is one row of the standard-curve diagnostics.

usage: analysis_case.py PLAN CASE OUT_PLAN OUT_CSV
"""
import json
import sys

plan_path, case, out_plan, out_csv = sys.argv[1:5]
plan = json.load(open(plan_path))
analysis = plan["analyses"][0]
layout = plan["layout"]
# OD per well for the reader data; wells not named stay empty.
values = {}


def role(name, new_role):
    for liquid in layout:
        if liquid["name"] == name:
            liquid["role"] = new_role


if case == "no-read-at":
    analysis["wavelength_nm"] = 450
elif case == "no-read":
    del analysis["wavelength_nm"]
    analysis["after_seq"] = 5
elif case == "4pl-few":
    analysis["model"] = "4pl"
    layout[:] = [l for l in layout if l["name"] not in ("S4", "S5")]
elif case == "4pl-not-positive":
    analysis["model"] = "4pl"
    for conc, name in zip([0, -1, -2, -3, -4], ["S1", "S2", "S3", "S4", "S5"]):
        next(l for l in layout if l["name"] == name)["conc"] = conc
elif case == "no-blank":
    layout[:] = [l for l in layout if l["role"] != "blank"]
elif case == "no-b0":
    analysis["kind"] = "competitive"
    analysis["subtract_blank"] = False
elif case in ("b0-below-nsb", "b0-not-positive"):
    analysis["kind"] = "competitive"
    analysis["subtract_blank"] = False
    role("S5", "bmax")
    if case == "b0-below-nsb":
        role("B0", "nsb")
        values.update({w: 0.5 for w in ("A1", "A2", "A3")})
        values.update({w: 0.4 for w in ("F1", "F2", "F3")})
    else:
        role("B0", "sample")
        values.update({w: 0.0 for w in ("F1", "F2", "F3")})
elif case == "no-cutoff":
    analysis["kind"] = "cutoff"
    analysis["subtract_blank"] = False
elif case in ("cutoff-not-positive", "cutoff-not-positive-blanked"):
    analysis["kind"] = "cutoff"
    role("S5", "cutoff")
    values.update({w: 0.1 for w in ("A1", "A2", "A3")})
    values.update({w: 0.05 for w in ("F1", "F2", "F3")})
    analysis["subtract_blank"] = case.endswith("blanked")
    if not analysis["subtract_blank"]:
        values.update({w: 0.0 for w in ("F1", "F2", "F3")})
elif case in ("4pl-diverges", "linear-not-finite"):
    # ODs no reader reports: 1e308 and 0 in turn defeat the 4PL's solver;
    # 0 and 1e200 give a line whose R^2 is not a number.
    analysis["model"] = "4pl" if case == "4pl-diverges" else "linear"
    analysis["subtract_blank"] = False
    for k, name in enumerate(["S1", "S2", "S3", "S4", "S5"]):
        liquid = next(l for l in layout if l["name"] == name)
        if case == "4pl-diverges":
            od = 1e308 if k % 2 == 0 else 0
        else:
            od = 0 if k % 2 == 0 else 1e200
        values.update({w: od for w in liquid["wells"]})
elif case == "no-calibrant":
    for liquid in layout:
        liquid.pop("conc", None)
else:
    sys.exit("unknown case " + case)

json.dump(plan, open(out_plan, "w"))
if values:
    read = [w for liquid in layout for w in liquid["wells"]]
    with open(out_csv, "w") as csv:
        csv.write("595nm," + ",".join(str(c) for c in range(1, 13)) + "\n")
        for row in "ABCDEFGH":
            cells = []
            for col in range(1, 13):
                well = "%s%d" % (row, col)
                cells.append("%.6g" % values.get(well, 0.3) if well in read else "")
            csv.write(row + "," + ",".join(cells) + "\n")
