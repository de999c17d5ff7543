#!/usr/bin/env python3
"""break_sarif.py IN OUT HOW: writes a copy of a SARIF log with one defect,
so the tests show that check_sarif.py rejects it.

  no-message        the first result loses its message (a schema violation)
  bad-level         the first result's level is `fatal` (a schema violation)
  wrong-rule-index  the first result's ruleIndex names the next rule (only
                    the cross-checks of check_sarif.py see it)
"""
import json
import sys

source, target, how = sys.argv[1:4]
with open(source, encoding="utf-8") as f:
    log = json.load(f)
result = log["runs"][0]["results"][0]
if how == "no-message":
    del result["message"]
elif how == "bad-level":
    result["level"] = "fatal"
elif how == "wrong-rule-index":
    result["ruleIndex"] += 1
else:
    sys.exit("break_sarif: unknown defect " + how)
with open(target, "w", encoding="utf-8") as f:
    json.dump(log, f, indent=2)
