#!/usr/bin/env python3
"""lsp_decode.py: reads what `plate lsp` wrote on stdin, checks that every
message is framed as LSP requires (a Content-Length header with the exact
byte count, an empty line, a JSON body) and prints each message on one line
with sorted keys, for FileCheck. Diagnostics are shortened to code, line
and message so that checks stay readable. Exits 1 on a framing error."""
import json
import sys


def short(msg):
    if msg.get("method") == "textDocument/publishDiagnostics":
        params = msg["params"]
        return "publishDiagnostics {} v{} [{}]".format(
            params["uri"], params.get("version"),
            "; ".join("{} {}:{} {}".format(d["code"], d["range"]["start"]["line"] + 1,
                                          d["range"]["start"]["character"], d["message"][:80])
                      for d in params["diagnostics"]))
    return json.dumps(msg, sort_keys=True, ensure_ascii=False)


def main():
    data = sys.stdin.buffer.read()
    at = 0
    while at < len(data):
        end = data.find(b"\r\n\r\n", at)
        if end < 0:
            sys.exit("lsp_decode.py: BAD FRAME: no header end in {!r}".format(data[at:at + 60]))
        headers = data[at:end].decode("ascii").split("\r\n")
        length = None
        for header in headers:
            name, _, value = header.partition(": ")
            if name == "Content-Length":
                length = int(value)
        if length is None:
            sys.exit("lsp_decode.py: BAD FRAME: no Content-Length in {}".format(headers))
        body = data[end + 4:end + 4 + length]
        if len(body) != length:
            sys.exit("lsp_decode.py: BAD FRAME: body of {} bytes, header says {}".format(
                len(body), length))
        print(short(json.loads(body.decode("utf-8"))))
        at = end + 4 + length


if __name__ == "__main__":
    main()
