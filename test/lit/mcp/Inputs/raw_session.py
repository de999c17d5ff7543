#!/usr/bin/env python3
"""Raw input for `plate mcp`, below what any SDK would send.

  raw_session.py bad OUT       writes a session of malformed and misplaced
                               messages, one per line, each followed by what
                               the test expects (see bad-input.test)
  raw_session.py hangup PLATE  starts `PLATE mcp`, sends a request and closes
                               both pipes before the answer; prints the exit
                               status (a signal shows as `signal N`)
"""
import json
import os
import random
import subprocess
import sys


def message(**fields):
    return json.dumps(dict(jsonrpc="2.0", **fields)).encode() + b"\n"


def bad(out_path):
    lines = [
        message(id=1, method="tools/list"),  # before initialize
        message(id=2, method="ping"),  # ping is always fine
        message(id=3, method="initialize", params={
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}),
        message(id=4, method="initialize", params={"protocolVersion": "2025-06-18"}),
        message(method="notifications/initialized"),
        b"this is not json\n",
        b"[1, 2]\n",
        b"\"a string\"\n",
        message(id=5, method="prompts/list"),
        message(method="notifications/unknown"),  # never answered
        json.dumps({"jsonrpc": "1.0", "id": 6, "method": "ping"}).encode() + b"\n",
        json.dumps({"jsonrpc": "2.0", "id": None, "method": "ping"}).encode() + b"\n",
        message(id=7, method="tools/call", params=[1]),
        message(id=8, method="tools/call", params={"name": 7}),
        message(id=9, method="tools/call", params={"name": "check", "arguments": "x"}),
        message(id=10, method="tools/call", params={"name": "check", "arguments": {"path": 5}}),
        message(id=11, method="tools/call", params={"name": "check", "arguments": {}}),
        message(id=12, method="resources/read", params={"uri": 3}),
        message(id=13, method="resources/read", params={"uri": "plate://nope"}),
        message(id=14, method="tools/list", params={"cursor": "2"}),
    ]
    # Binary garbage: every byte but the newline, shuffled.
    garbage = bytearray(b for b in range(256) if b != 10) * 64
    random.Random(7).shuffle(garbage)
    lines.append(bytes(garbage) + b"\n")
    # A 10 MB script in a tools/call: compiled and diagnosed, not refused.
    lines.append(message(id=15, method="tools/call", params={
        "name": "check", "arguments": {"source": "dispense 1 uL\n" * (10 * 1024 * 1024 // 14),
                                       "name": "huge.plate"}}))
    # A 10 MB line that is not JSON.
    lines.append(b"{" + b"x" * (10 * 1024 * 1024) + b"\n")
    # Past the message limit (32 MiB): dropped unread.
    lines.append(b"y" * (33 * 1024 * 1024) + b"\n")
    lines.append(b"[" * 100000 + b"]" * 100000 + b"\n")
    lines.append(json.dumps({"jsonrpc": "2.0", "id": 99, "result": {}}).encode() + b"\n")
    lines.append(b"\n")
    lines.append(message(id=16, method="ping")[:-1] + b"\r\n")
    # This session's own file, over 32 MiB: refused before it is read.
    lines.append(message(id=18, method="tools/call", params={
        "name": "check", "arguments": {"path": out_path}}))
    lines.append(message(id="last", method="tools/call", params={
        "name": "check", "arguments": {"source": "<INSTRUMENT>\n</INSTRUMENT>\n"}}))
    # The client goes away in the middle of a message: answered if it parses.
    lines.append(message(id=17, method="ping")[:-1])
    with open(out_path, "wb") as out:
        out.writelines(lines)


def hangup(plate):
    process = subprocess.Popen([plate, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    process.stdin.write(message(id=1, method="initialize", params={
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}))
    process.stdin.write(message(id=2, method="tools/call", params={
        "name": "run", "arguments": {"path": os.environ["BRADFORD"]}}))
    process.stdin.flush()
    # Gone before any answer is read: the server's writes fail (EPIPE).
    process.stdout.close()
    process.stdin.close()
    status = process.wait(timeout=60)
    print("exit", status if status >= 0 else "signal {}".format(-status))


if __name__ == "__main__":
    if sys.argv[1] == "bad":
        bad(sys.argv[2])
    else:
        hangup(sys.argv[2])
