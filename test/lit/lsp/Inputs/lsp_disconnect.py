#!/usr/bin/env python3
"""lsp_disconnect.py PLATE SCRIPT: a client that leaves mid-request. It
starts `plate lsp`, sends initialize, opens SCRIPT, asks for a hover and
closes both pipes without reading a byte of the answers. The server must
end on its own (no hang: the wait has a safety-net timeout) and not by a
signal (a write to a closed pipe must not raise SIGPIPE)."""
import json
import subprocess
import sys


def frame(obj):
    body = json.dumps(obj).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


plate, script = sys.argv[1], sys.argv[2]
uri = "file:///work/disconnect.plate"
server = subprocess.Popen([plate, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
server.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                          "params": {"capabilities": {}}}))
server.stdin.write(frame({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                          "params": {"textDocument": {"uri": uri, "languageId": "plate",
                                                      "version": 1,
                                                      "text": open(script).read()}}}))
server.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
                          "params": {"textDocument": {"uri": uri},
                                     "position": {"line": 22, "character": 12}}}))
# Half a request, then gone.
server.stdin.write(b'Content-Length: 80\r\n\r\n{"jsonrpc":"2.0","id":3,')
server.stdout.close()
server.stdin.close()
code = server.wait(timeout=60)
print("exit:", "signal {}".format(-code) if code < 0 else "code {}".format(code))
