#!/usr/bin/env python3
"""lsp_frames.py [--marker M] TEST [SCRIPT]: writes to stdout the byte stream
that the lines of TEST starting `# SEND:` (or `# M`) describe, framed as the LSP base protocol frames it
(Content-Length headers), for piping into `plate lsp`. One line, one item:

  SEND: json {...}        a message, framed correctly
  SEND: body TEXT         TEXT as a body, framed correctly (bad JSON, ...)
  SEND: raw 'PYTHON'      bytes written as they are (a Python bytes literal
                          body, e.g. 'Content-Length: x\\r\\n\\r\\n')
  SEND: open URI          didOpen of SCRIPT's text (version 1) as URI
  SEND: open-garbage URI N    didOpen of N bytes of deterministic binary
                              garbage (every byte value, NUL included)
  SEND: open-large URI N      didOpen of a valid script padded with comment
                              lines to N bytes
  SEND: deep ID N         a request with id ID whose params nest N arrays
  SEND: truncated         a header announcing 100 bytes, then 10 of them
                          and the end of the input (a client gone mid-message)
"""
import ast
import json
import random
import sys


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def message(obj) -> bytes:
    return frame(json.dumps(obj).encode("utf-8"))


def did_open(uri, text):
    return message({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                    "params": {"textDocument": {"uri": uri, "languageId": "plate",
                                                "version": 1, "text": text}}})


def main():
    args = sys.argv[1:]
    marker = "SEND:"
    if args[0] == "--marker":
        marker, args = args[1], args[2:]
    test, script = args[0], args[1] if len(args) > 1 else None
    out = sys.stdout.buffer
    for line in open(test, encoding="utf-8"):
        item = line.lstrip("# ")
        if not item.startswith(marker + " "):
            continue
        kind, _, rest = item[len(marker) + 1:].rstrip("\n").partition(" ")
        if kind == "json":
            out.write(frame(rest.encode("utf-8")))
        elif kind == "body":
            out.write(frame(rest.encode("utf-8")))
        elif kind == "raw":
            out.write(ast.literal_eval("b" + rest))
        elif kind == "open":
            out.write(did_open(rest, open(script, encoding="utf-8").read()))
        elif kind == "open-garbage":
            uri, size = rest.split()
            rng = random.Random(19)
            data = bytes(rng.randrange(256) for _ in range(int(size)))
            # A client holds text, not bytes: what it sends is the bytes
            # read as Latin-1, so every byte value arrives as a character.
            out.write(did_open(uri, data.decode("latin-1")))
        elif kind == "open-large":
            uri, size = rest.split()
            text = open(script, encoding="utf-8").read()
            filler = "# " + "x" * 97 + "\n"
            text += filler * ((int(size) - len(text)) // len(filler) + 1)
            out.write(did_open(uri, text))
        elif kind == "deep":
            ident, depth = rest.split()
            body = '{"jsonrpc":"2.0","id":%s,"method":"textDocument/hover","params":%s%s}' % (
                ident, "[" * int(depth), "]" * int(depth))
            out.write(frame(body.encode("utf-8")))
        elif kind == "truncated":
            out.write(b"Content-Length: 100\r\n\r\n" + b'{"jsonrpc"')
        else:
            sys.exit("lsp_frames.py: unknown item `{}`".format(kind))
    out.flush()


if __name__ == "__main__":
    main()
