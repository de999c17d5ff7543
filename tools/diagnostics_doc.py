#!/usr/bin/env python3
"""Keeps docs/diagnostics.md and the tests in step with ir/Diagnostics.def.

  diagnostics_doc.py generate   rewrite the generated table in docs/diagnostics.md
  diagnostics_doc.py check      fail unless every code (1) is documented with
                                the current wording and (2) is checked by at
                                least one lit test (a FileCheck line, any
                                prefix, with `[CODE]` and `:LINE:COL:`, or
                                `plate: error:` for a diagnostic that has no
                                position), or is marked unreachable from input

A row that no input can trigger (a guard of the driver's own invariants,
kept a diagnostic so that a caller that breaks them hears why) says so on
the comment line right above it in ir/Diagnostics.def:
    //   unreachable from input: <why>
Such a code needs no lit test; the table shows the reason instead of an
example, and a marked code that a lit test does check is a problem (the
mark is stale).

The table between the BEGIN/END markers is generated; the prose around it is
written by hand. Each code's example is taken from the lit test that checks it,
so the documentation shows real compiler output for a real input.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEF = os.path.join(ROOT, "ir", "Diagnostics.def")
DOC = os.path.join(ROOT, "docs", "diagnostics.md")
LIT = os.path.join(ROOT, "test", "lit")
BEGIN = "<!-- BEGIN GENERATED TABLE (tools/diagnostics_doc.py generate) -->"
END = "<!-- END GENERATED TABLE -->"

ROW = re.compile(r'^DIAG\((\w+),\s*"(\w+)",\s*(\w+),\s*(\w+),\s*"((?:[^"\\]|\\.)*)"\)')
UNREACHABLE = re.compile(r"^//\s*unreachable from input:\s*(.+)$")


def read_rows():
    """The rows, and code -> reason for the rows marked unreachable."""
    rows = []
    unreachable = {}
    previous = ""
    with open(DEF, encoding="utf-8") as f:
        for line in f:
            m = ROW.match(line.strip())
            if m:
                name, code, severity, category, fmt = m.groups()
                rows.append((code, name, severity.lower(), category.lower(), fmt))
                mark = UNREACHABLE.match(previous)
                if mark:
                    unreachable[code] = mark.group(1)
            previous = line.strip()
    return rows, unreachable


def read_table():
    """(code, name, severity, category, format) of every row, in order."""
    return read_rows()[0]


# FileCheck directives that assert a line is present (CHECK-NOT asserts the
# opposite and never counts as coverage).
DIRECTIVE = r"(?:-NEXT|-SAME|-DAG|-LABEL)?:"
PREFIXES = re.compile(r"--check-prefix(?:es)?[= ]([\w,-]+)")
# A position in the expected output: `:12:5:` or `:[[@LINE+1]]:5:`.
POSITION = re.compile(r":(?:\d+|\[\[@LINE(?:[+-]\d+)?\]\]):(?:\d+|\{\{[^}]*\}\}):")
# A diagnostic about no place in a file (a file that cannot be read, a bad
# command-line value) renders as `plate: error: ...`; a check line that pins
# that form counts as well, since there is no line and column to check.
NO_POSITION = re.compile(r"(?:^|[\s:])plate: (?:error|warning):")


def check_lines(lines):
    """(line number, text) of the FileCheck lines of one test that expect
    output, for every prefix its RUN lines use."""
    prefixes = {"CHECK"}
    for line in lines:
        if "RUN:" in line:
            for group in PREFIXES.findall(line):
                prefixes.update(p for p in group.split(",") if p)
    pattern = re.compile(r"^\s*(?:#|//|;)?\s*(?:{})(?:{})".format(
        "|".join(sorted(map(re.escape, prefixes), key=len, reverse=True)), DIRECTIVE))
    return [(number, line) for number, line in enumerate(lines, 1) if pattern.match(line)]


def lit_examples():
    """code -> (test path, the CHECK line that names it with a position)"""
    found = {}
    for dirpath, dirnames, files in os.walk(LIT):
        dirnames.sort()
        if os.path.basename(dirpath) == "Inputs":
            continue
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    lines = f.readlines()
            except OSError:
                continue
            for number, line in check_lines(lines):
                for code in re.findall(r"\[([EW]\d{3})\]", line):
                    if code in found:
                        continue
                    if POSITION.search(line) or NO_POSITION.search(line):
                        # The example shows the line FileCheck expects.
                        text = re.sub(r"\[\[@LINE([+-]\d+)?\]\]",
                                      lambda m: str(number + int(m.group(1) or 0)), line)
                        found[code] = (os.path.relpath(path, ROOT), text.strip())
    return found


def example_text(check_line):
    text = re.sub(r"^(?:#|//|;)?\s*[\w-]+:\s*", "", check_line)
    return text.replace("{{.*}}", "…").replace("{{", "").replace("}}", "")


def table(rows, examples, unreachable):
    out = ["| code | name | severity | category | message | example |",
           "| --- | --- | --- | --- | --- | --- |"]
    for code, name, severity, category, fmt in rows:
        message = fmt.replace("{}", "…").replace("{:02x}", "…").replace("{{", "{").replace("}}", "}")
        message = message.replace("|", "\\|").replace('\\"', '"')
        example = examples.get(code)
        cell = ""
        if example:
            cell = "`{}` ({})".format(example_text(example[1]).replace("`", "'").replace("|", "\\|"), example[0])
        elif code in unreachable:
            cell = "unreachable from input: " + unreachable[code].replace("|", "\\|")
        out.append("| {} | {} | {} | {} | {} | {} |".format(code, name, severity, category, message, cell))
    return "\n".join(out)


def render(doc, rows, examples, unreachable):
    head, _, rest = doc.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return head + BEGIN + "\n" + table(rows, examples, unreachable) + "\n" + END + tail


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "check"
    rows, unreachable = read_rows()
    examples = lit_examples()
    with open(DOC, encoding="utf-8") as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        print("docs/diagnostics.md: generated-table markers missing", file=sys.stderr)
        return 1
    new_doc = render(doc, rows, examples, unreachable)
    if mode == "generate":
        with open(DOC, "w", encoding="utf-8") as f:
            f.write(new_doc)
        return 0
    problems = []
    if new_doc != doc:
        problems.append("docs/diagnostics.md is out of date; run tools/diagnostics_doc.py generate")
    for code, name, *_ in rows:
        if code in unreachable and code in examples:
            problems.append("{} ({}) is marked unreachable from input but {} checks it; drop the mark".format(code, name, examples[code][0]))
        if code not in examples and code not in unreachable and code != "E113":
            problems.append("{} ({}) has no lit test with a CHECK line naming [{}] at a line and column (or as `plate: error:`)".format(code, name, code))
    for problem in problems:
        print(problem, file=sys.stderr)
    print("{} diagnostic codes, {} checked by lit tests, {} unreachable from input, {} problems".format(
        len(rows), sum(1 for r in rows if r[0] in examples), len(unreachable), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
