"""Writes a copy of a run journal broken in one named way, for the journal
diagnostics (E908-E915, E996).

usage: journal_edit.py JOURNAL CASE OUT
"""
import json
import sys

journal, case, out = sys.argv[1:4]
entries = [json.loads(line) for line in open(journal) if line.strip()]
header, body = entries[0], entries[1:]
done = [i for i, entry in enumerate(body) if "done" in entry]

if case == "no-header":
    entries = [{"journal": "something else"}] + body
elif case == "done-malformed":
    del body[done[0]]["clock_s"]
    entries = [header] + body
elif case == "out-of-order":
    del body[done[0]]
    entries = [header] + body
elif case == "read-malformed":
    body[done[0]]["read"] = {"values": 5}
    entries = [header] + body
elif case == "read-value":
    body[done[0]]["read"] = {"wavelength_nm": 595, "values": {"Z99": 0.5}}
    entries = [header] + body
elif case == "remap-malformed":
    entries = [header] + body + [{"remap": [1], "to": [1, 2]}]
elif case == "unknown-entry":
    entries = [header] + body + [{"paused": True}]
elif case == "not-the-stream":
    pipetting = next(i for i in done if "volume_ul" in body[i]["command"].get("args", {}))
    body[pipetting]["command"]["args"]["volume_ul"] = 99
    entries = [header] + body
else:
    sys.exit("unknown case " + case)

with open(out, "w") as f:
    for entry in entries:
        f.write(json.dumps(entry) + "\n")
