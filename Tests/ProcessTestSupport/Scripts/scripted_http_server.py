#!/usr/bin/python3
"""Test support: an HTTP/1.1 server on 127.0.0.1 that records every request and answers from a script.

Usage: scripted_http_server.py LOG_FILE SCRIPT_JSON [PORT]
  SCRIPT_JSON: a list of answers used in order, the last one repeating, each
    {"status": 200, "body": "...", "headers": {...}, "delay": seconds, "close": true}
  ("close" drops the connection without answering). Prints "PORT <n>" once listening.
Each request is appended to LOG_FILE as one JSON line: method, path, version, headers, body.
"""
import json
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# The test process spawns us from a thread that blocks most signals; take them back.
signal.pthread_sigmask(signal.SIG_SETMASK, [])
log_path, script = sys.argv[1], json.loads(sys.argv[2])
port = int(sys.argv[3]) if len(sys.argv) > 3 else 0
lock = threading.Lock()
answered = 0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        global answered
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length).decode("utf-8")
        with lock:
            answer = script[min(answered, len(script) - 1)] if script else {"status": 200}
            answered += 1
            with open(log_path, "a") as log:
                log.write(json.dumps({
                    "method": self.command, "path": self.path, "version": self.request_version,
                    "headers": [[k.lower(), v] for k, v in self.headers.items()], "body": body,
                }) + "\n")
        time.sleep(answer.get("delay", 0))
        if answer.get("close"):
            self.close_connection = True
            self.connection.shutdown(2)
            return
        payload = answer.get("body", "").encode("utf-8")
        self.send_response(answer.get("status", 200))
        for name, value in answer.get("headers", {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
server.daemon_threads = True
print(f"PORT {server.server_address[1]}", flush=True)
server.serve_forever()
