"""Checks back-calculated concentrations in an analysis CSV against expected
values: check_conc.py TABLE.csv NAME=VALUE... (relative tolerance 5 %)."""
import csv
import sys

rows = {row["name"]: row for row in csv.DictReader(open(sys.argv[1]))}
failed = False
for spec in sys.argv[2:]:
    name, expected = spec.split("=")
    got = float(rows[name]["concentration"])
    ok = abs(got - float(expected)) <= 0.05 * float(expected)
    print("{} expected {} got {:.4g} {}".format(name, expected, got, "ok" if ok else "MISMATCH"))
    failed |= not ok
sys.exit(1 if failed else 0)
