#!/usr/bin/env python3
"""lsp_vs_check.py PLATE SCRIPT...: for each SCRIPT, the diagnostics `plate
lsp` publishes for it against those `plate check --diagnostics=json`
reports: code, severity, line, column, message, fix-it and notes must be
the same, in the same order. Prints one line per diagnostic (for
FileCheck) and exits 1 on the first difference. The scripts are ASCII, so
check's byte columns and LSP's UTF-16 columns must agree as numbers."""
import json
import pathlib
import subprocess
import sys

SEVERITY = {1: "error", 2: "warning", 3: "note"}


def frame(obj):
    body = json.dumps(obj).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_frames(data):
    at, out = 0, []
    while at < len(data):
        end = data.index(b"\r\n\r\n", at)
        length = int(data[at:end].split(b": ")[1])
        out.append(json.loads(data[end + 4:end + 4 + length]))
        at = end + 4 + length
    return out


def from_check(plate, script):
    run = subprocess.run([plate, "check", "--diagnostics=json", script],
                         capture_output=True, text=True)
    out = []
    for d in json.loads(run.stderr)["diagnostics"]:
        out.append((d["code"], d["severity"], d["line"], d["column"], d["message"],
                    d.get("suggestion"),
                    [(n["line"], n["column"], n["message"]) for n in d["notes"]]))
    return out


def from_lsp(plate, script):
    uri = pathlib.Path(script).resolve().as_uri()
    stream = (frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
              + frame({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                       "params": {"textDocument": {"uri": uri, "languageId": "plate", "version": 1,
                                                   "text": open(script).read()}}})
              # A request needs the current version, so it is compiled and
              # published before the reply, whatever else is queued.
              + frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentSymbol",
                       "params": {"textDocument": {"uri": uri}}})
              + frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
              + frame({"jsonrpc": "2.0", "method": "exit"}))
    run = subprocess.run([plate, "lsp"], input=stream, capture_output=True, check=True)
    published = [m["params"] for m in read_frames(run.stdout)
                 if m.get("method") == "textDocument/publishDiagnostics"]
    out = []
    for d in published[-1]["diagnostics"]:
        start = d["range"]["start"]
        out.append((d["code"], SEVERITY[d["severity"]], start["line"] + 1, start["character"] + 1,
                    d["message"], d.get("data", {}).get("suggestion"),
                    [(r["location"]["range"]["start"]["line"] + 1,
                      r["location"]["range"]["start"]["character"] + 1, r["message"])
                     for r in d.get("relatedInformation", [])]))
    return out


def main():
    plate = sys.argv[1]
    for script in sys.argv[2:]:
        check, lsp = from_check(plate, script), from_lsp(plate, script)
        name = pathlib.Path(script).name
        if check != lsp:
            print("{}: plate check and plate lsp differ\n  check: {}\n  lsp:   {}".format(
                name, check, lsp))
            sys.exit(1)
        print("{}: {} diagnostic(s), the same from check and lsp".format(name, len(lsp)))
        for code, severity, line, column, message, fix, notes in lsp:
            print("  {}:{}: {} {} {}{}{}".format(line, column, severity, code, message,
                                                 " fix: " + fix if fix else "",
                                                 "".join(" note {}:{}: {}".format(*n) for n in notes)))


if __name__ == "__main__":
    main()
