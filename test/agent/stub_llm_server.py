#!/usr/bin/env python3
"""Stub LLM server for the agent tests: OpenAI chat completions and
Anthropic Messages on 127.0.0.1, answering from a scripted scenario.

It validates each request the way the real services do (method, path,
headers, the body fields of shared/reference/wire.md sections 1-2), answers
with the next scripted response for the endpoint (or for the model, when
the scenario keys responses by model), and records every request it got so
tests can check what each attempt was told.

Scenario file (JSON):
  {
    "key": "sk-test",            # optional: the API key every request must carry
    "openai":    [RESPONSE, ...], # answers to POST /v1/chat/completions, in order
    "anthropic": [RESPONSE, ...], # answers to POST /v1/messages, in order
    "model:NAME": [RESPONSE, ...] # answers for one model (takes precedence)
    "routes": [{"model": NAME, "contains": "text" | ["all", "of"], "responses": [...],
                "repeat_last": true}, ...]
                                  # first route whose model (if given) matches
                                  # and whose strings (if given) occur in the
                                  # system + user text; takes precedence over all;
                                  # repeat_last answers the last one forever
  }
  RESPONSE is an object with any of:
    "text": "..."                 a normal reply with this assistant text
    "text_file": "path"           the same, text read from a file (relative to
                                  the scenario file)
    "truncated": true             reply cut at the token cap (finish_reason
                                  length / stop_reason max_tokens)
    "status": 429, "headers": {"retry-after": "1"}
    "error": {"type": ..., "message": ..., "code": ..., "details": {...}}
                                  an error body in the endpoint's wire shape
    "body": {...} | "raw": "..."  a literal body (e.g. vLLM's flat error)
    "delay": 2.5                  seconds to wait before answering (timeouts)

Usage:
  stub_llm_server.py --scenario S.json [--log LOG.json] [--idle-timeout 20]
      prints "PORT <n>" on stdout once it listens, serves until idle;
  stub_llm_server.py --scenario S.json [--log LOG.json] -- COMMAND ARGS...
      runs COMMAND with every "{PORT}" in its arguments replaced, then stops
      and exits with the command's status (for lit RUN lines); a COMMAND
      killed by a signal kills the stub with the same signal, so that a
      crash is never read as the exit status a test expects.
"""
import argparse
import http.server
import json
import os
import re
import signal
import socketserver
import subprocess
import sys
import threading
import time

ANTHROPIC_VERSION = "2023-06-01"


class Stub:
    def __init__(self, scenario_path, log_path):
        with open(scenario_path, encoding="utf-8") as f:
            self.scenario = json.load(f)
        self.base_dir = os.path.dirname(os.path.abspath(scenario_path))
        self.log_path = log_path
        self.lock = threading.Lock()
        self.next_index = {}
        self.requests = []
        self.last_activity = time.monotonic()

    def next_response(self, wire, model, text=""):
        with self.lock:
            # Routes answer by model and by a string the request contains, so
            # concurrent conversations (an evaluation sweep) each get their
            # own queue in order, whatever order the requests arrive in.
            for number, route in enumerate(self.scenario.get("routes", [])):
                if route.get("model") not in (None, model):
                    continue
                wanted = route.get("contains") or []
                if isinstance(wanted, str):
                    wanted = [wanted]
                if any(w not in text for w in wanted):
                    continue
                queue_name = "route:%d" % number
                queue = route.get("responses", [])
                index = self.next_index.get(queue_name, 0)
                self.next_index[queue_name] = index + 1
                if index >= len(queue) and route.get("repeat_last") and queue:
                    return queue_name, index, queue[-1]
                return queue_name, index, queue[index] if index < len(queue) else None
            queue_name = "model:" + model if ("model:" + model) in self.scenario else wire
            queue = self.scenario.get(queue_name, [])
            index = self.next_index.get(queue_name, 0)
            self.next_index[queue_name] = index + 1
            if index < len(queue):
                return queue_name, index, queue[index]
            return queue_name, index, None

    def record(self, entry):
        with self.lock:
            entry["index"] = len(self.requests)
            self.requests.append(entry)
            if self.log_path:
                tmp = self.log_path + ".tmp"
                with open(tmp, "w", encoding="utf-8") as f:
                    json.dump(self.requests, f, indent=1)
                os.replace(tmp, self.log_path)


def error_body(wire, status, error):
    error = dict(error or {})
    if wire == "anthropic":
        inner = {"type": error.get("type", "api_error"),
                 "message": error.get("message", "stub error")}
        if "details" in error:
            inner["details"] = error["details"]
        return {"type": "error", "error": inner, "request_id": "req_stub"}
    return {"error": {"message": error.get("message", "stub error"),
                      "type": error.get("type", "api_error"),
                      "param": error.get("param"),
                      "code": error.get("code")}}


def reply_body(wire, model, text, truncated, prompt_chars):
    usage_in = max(1, prompt_chars // 4)
    usage_out = max(1, len(text) // 4)
    if wire == "anthropic":
        return {"id": "msg_stub", "type": "message", "role": "assistant", "model": model,
                "content": [{"type": "text", "text": text}],
                "stop_reason": "max_tokens" if truncated else "end_turn",
                "stop_sequence": None,
                "usage": {"input_tokens": usage_in, "output_tokens": usage_out}}
    return {"id": "chatcmpl-stub", "object": "chat.completion", "created": int(time.time()),
            "model": model, "system_fingerprint": "fp_stub",
            "choices": [{"index": 0,
                         "message": {"role": "assistant", "content": text},
                         "finish_reason": "length" if truncated else "stop",
                         "logprobs": None}],
            "usage": {"prompt_tokens": usage_in, "completion_tokens": usage_out,
                      "total_tokens": usage_in + usage_out}}


def validate(wire, headers, body):
    """The first problem a real service would reject, or None."""
    if headers.get("content-type", "").split(";")[0].strip() != "application/json":
        return "Content-Type must be application/json"
    if not isinstance(body, dict):
        return "body must be a JSON object"
    if not isinstance(body.get("model"), str) or not body["model"]:
        return "`model` is required"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "`messages` must be a non-empty array"
    for message in messages:
        if not isinstance(message, dict) or "role" not in message or "content" not in message:
            return "each message needs `role` and `content`"
    if wire == "openai":
        if not headers.get("authorization", "").startswith("Bearer ") or \
                len(headers["authorization"]) <= len("Bearer "):
            return "missing bearer token"
        if "max_tokens" in body and "max_completion_tokens" in body:
            return "send `max_tokens` or `max_completion_tokens`, not both"
        temperature = body.get("temperature", 1)
        if not isinstance(temperature, (int, float)) or not 0 <= temperature <= 2:
            return "`temperature` must be in [0, 2]"
        fmt = body.get("response_format")
        if fmt is not None:
            if fmt.get("type") != "json_schema" or "json_schema" not in fmt:
                return "`response_format` must be {type: json_schema, json_schema: {...}}"
            js = fmt["json_schema"]
            if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", js.get("name", "")):
                return "`json_schema.name` is required: [a-zA-Z0-9_-], at most 64"
            if not isinstance(js.get("schema"), dict):
                return "`json_schema.schema` must be an object"
    else:
        if not headers.get("x-api-key"):
            return "missing x-api-key header"
        if headers.get("anthropic-version") != ANTHROPIC_VERSION:
            return "anthropic-version header must be " + ANTHROPIC_VERSION
        if not isinstance(body.get("max_tokens"), int):
            return "`max_tokens` is required"
        if "seed" in body:
            return "seed: Extra inputs are not permitted"
        if "max_completion_tokens" in body:
            return "max_completion_tokens: Extra inputs are not permitted"
        for message in messages:
            if message["role"] not in ("user", "assistant"):
                return "messages: roles must be user or assistant (system is top-level)"
        temperature = body.get("temperature", 1)
        if not isinstance(temperature, (int, float)) or not 0 <= temperature <= 1:
            return "`temperature` must be in [0, 1]"
        if "temperature" in body and "top_p" in body:
            return "`temperature` and `top_p` cannot both be specified for this model"
        oc = body.get("output_config")
        if oc is not None:
            f = oc.get("format", {})
            if f.get("type") != "json_schema" or not isinstance(f.get("schema"), dict):
                return "`output_config.format` must be {type: json_schema, schema: {...}}"
    return None


def message_text(content):
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content if isinstance(part, dict))


def make_handler(stub):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def send_json(self, status, body, extra_headers=None, raw=None):
            data = raw.encode("utf-8") if raw is not None else json.dumps(body).encode("utf-8")
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (extra_headers or {}).items():
                    self.send_header(name, str(value))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test)

        def do_GET(self):
            self.send_json(405, {"error": {"message": "use POST", "type": "invalid_request_error"}})

        def do_POST(self):
            stub.last_activity = time.monotonic()
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length).decode("utf-8", "replace")
            headers = {k.lower(): v for k, v in self.headers.items()}
            if self.path == "/v1/chat/completions":
                wire = "openai"
            elif self.path == "/v1/messages":
                wire = "anthropic"
            else:
                stub.record({"path": self.path, "violation": "unknown path"})
                self.send_json(404, error_body("openai", 404, {
                    "type": "not_found_error", "message": "no route " + self.path}))
                return
            try:
                body = json.loads(raw)
            except ValueError:
                body = None
            entry = {"path": self.path, "wire": wire,
                     "auth_present": bool(headers.get("authorization") or headers.get("x-api-key")),
                     "anthropic_version": headers.get("anthropic-version"),
                     "body": body}
            if isinstance(body, dict):
                entry["model"] = body.get("model")
                msgs = body.get("messages") or []
                entry["system"] = body.get("system") if wire == "anthropic" else \
                    "".join(message_text(m.get("content", "")) for m in msgs
                            if isinstance(m, dict) and m.get("role") == "system")
                entry["user"] = "".join(message_text(m.get("content", "")) for m in msgs
                                        if isinstance(m, dict) and m.get("role") == "user")
            problem = validate(wire, headers, body)
            expected_key = stub.scenario.get("key")
            if problem is None and expected_key:
                given = headers.get("x-api-key") if wire == "anthropic" else \
                    headers.get("authorization", "")[len("Bearer "):]
                if given != expected_key:
                    entry["violation"] = "wrong key"
                    stub.record(entry)
                    self.send_json(401, error_body(wire, 401, {
                        "type": "authentication_error" if wire == "anthropic" else "invalid_request_error",
                        "code": None if wire == "anthropic" else "invalid_api_key",
                        "message": "invalid x-api-key" if wire == "anthropic" else "Incorrect API key provided"}))
                    return
            if problem is not None:
                entry["violation"] = problem
                stub.record(entry)
                self.send_json(400, error_body(wire, 400, {
                    "type": "invalid_request_error", "message": problem}))
                return
            queue, index, response = stub.next_response(
                wire, body["model"], str(entry.get("system") or "") + str(entry.get("user") or ""))
            entry["queue"] = queue
            entry["queue_index"] = index
            if response is None:
                entry["violation"] = "scenario exhausted"
                stub.record(entry)
                self.send_json(400, error_body(wire, 400, {
                    "type": "invalid_request_error",
                    "message": "stub scenario has no response %d for %s" % (index + 1, queue)}))
                return
            stub.record(entry)
            if response.get("delay"):
                time.sleep(float(response["delay"]))
            status = int(response.get("status", 200))
            headers_out = response.get("headers", {})
            if "raw" in response:
                self.send_json(status, None, headers_out, raw=response["raw"])
            elif "body" in response:
                self.send_json(status, response["body"], headers_out)
            elif status >= 400 or "error" in response:
                self.send_json(status, error_body(wire, status, response.get("error")), headers_out)
            else:
                text = response.get("text", "")
                if "text_file" in response:
                    with open(os.path.join(stub.base_dir, response["text_file"]),
                              encoding="utf-8") as f:
                        text = f.read()
                prompt_chars = len(raw)
                self.send_json(status, reply_body(wire, body["model"], text,
                                                  bool(response.get("truncated")), prompt_chars),
                               headers_out)
            stub.last_activity = time.monotonic()

    return Handler


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def die_by_signal(program, number):
    """Dies as `program` died. sys.exit(-6) would exit 250, an ordinary
    failure for `not` and for the exit status a test expects."""
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = str(number)
    print("stub_llm_server: `%s` was killed by signal %s" % (program, name),
          file=sys.stderr, flush=True)
    try:
        signal.signal(number, signal.SIG_DFL)
    except (OSError, ValueError):
        pass  # SIGKILL and SIGSTOP keep their default
    os.kill(os.getpid(), number)
    sys.exit(128 + number)  # a signal whose default is to be ignored


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", required=True)
    parser.add_argument("--log")
    parser.add_argument("--idle-timeout", type=float, default=20.0,
                        help="stop after this many seconds without a request")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command

    stub = Stub(args.scenario, args.log)
    if args.log:
        # The log starts empty, so a test can read it even if no request came.
        with open(args.log, "w", encoding="utf-8") as f:
            json.dump([], f)
    server = Server(("127.0.0.1", 0), make_handler(stub))
    port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()

    if command:
        command = [part.replace("{PORT}", str(port)) for part in command]
        status = subprocess.call(command)
        server.shutdown()
        if status < 0:
            die_by_signal(command[0], -status)
        sys.exit(status)

    print("PORT %d" % port, flush=True)
    # Never outlive the test: stop when idle (a request in progress counts as
    # activity through its delay) or when stdin closes.
    while time.monotonic() - stub.last_activity < args.idle_timeout:
        time.sleep(0.1)
    server.shutdown()


if __name__ == "__main__":
    main()
