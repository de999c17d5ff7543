"""Prints what the named wells hold in a `plate run --state-out` file:
one line per well, `WELL LIQUID UL ...` in liquid-name order."""
import json
import sys

state = json.load(open(sys.argv[1]))
for well in sys.argv[2:]:
    contents = state["wells"].get(well, {})
    print(well, " ".join(f"{name} {contents[name]}" for name in sorted(contents)))
