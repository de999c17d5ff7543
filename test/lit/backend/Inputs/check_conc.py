"""Checks back-calculated concentrations in an analysis CSV against expected
values: check_conc.py TABLE.csv NAME=VALUE... (relative tolerance 5 %) or
NAME>VALUE (strictly above, for a sample beyond the calibrant range, where a
saturating curve gives no precise value)."""
import csv
import sys

rows = {row["name"]: row for row in csv.DictReader(open(sys.argv[1]))}
failed = False
for spec in sys.argv[2:]:
    above = ">" in spec
    name, expected = spec.split(">" if above else "=")
    got = float(rows[name]["concentration"])
    if above:
        ok = got > float(expected)
    else:
        ok = abs(got - float(expected)) <= 0.05 * float(expected)
    print("{} expected {}{} got {:.4g} {}".format(name, ">" if above else "", expected, got,
                                                  "ok" if ok else "MISMATCH"))
    failed |= not ok
sys.exit(1 if failed else 0)
