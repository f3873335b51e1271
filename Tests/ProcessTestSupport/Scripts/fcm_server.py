#!/usr/bin/python3
"""Test support: Google's OAuth token endpoint and FCM's HTTP v1 send endpoint on 127.0.0.1.

Usage: fcm_server.py LOG_FILE PUBLIC_KEY_PEM SCRIPT_JSON [PORT]
  POST /token: an RFC 7523 exchange. The assertion is verified independently of hrbridge with
    python3-cryptography (RS256 against PUBLIC_KEY_PEM; iss, scope, aud = this endpoint, exp-iat <= 3600);
    answers {"access_token": "ya29.test-N", "expires_in": 3599}, else 400 invalid_grant.
  POST /v1/projects/P/messages:send: 401 UNAUTHENTICATED without a token this server issued (and not
    revoked); 400 INVALID_ARGUMENT, as FCM words it, when a data value is not a string; else the next
    SCRIPT_JSON answer, the last repeating: {"status": 200} or {"status": 404, "errorCode": "UNREGISTERED",
    "headers": {...}}, or {"revoke": true} (forget every token issued, answer 401).
Each request is appended to LOG_FILE as one JSON line: path, headers, body, and for /token the
verified assertion ("verified": {"header", "claims"}).
"""
import base64
import json
import signal
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding

signal.pthread_sigmask(signal.SIG_SETMASK, [])
log_path, key_path, script = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
port = int(sys.argv[4]) if len(sys.argv) > 4 else 0
with open(key_path, "rb") as f:
    public_key = serialization.load_pem_public_key(f.read())
lock = threading.Lock()
issued = set()
exchanged = 0
answered = 0
SCOPE = "https://www.googleapis.com/auth/firebase.messaging"


def decode(segment):
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


def verify(assertion, audience):
    header, claims, signature = assertion.split(".")
    public_key.verify(decode(signature), f"{header}.{claims}".encode(), padding.PKCS1v15(), hashes.SHA256())
    header, claims = json.loads(decode(header)), json.loads(decode(claims))
    assert header["alg"] == "RS256", header
    assert claims["scope"] == SCOPE and claims["aud"] == audience, claims
    assert 0 < claims["exp"] - claims["iat"] <= 3600 and abs(claims["iat"] - time.time()) < 300, claims
    return {"header": header, "claims": claims}


def fcm_error(status, code, message, error_code=None):
    details = [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": error_code}] if error_code else []
    return {"error": {"code": status, "message": message, "status": code, "details": details}}


STATUS_NAMES = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
                429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status, body, headers=None):
        payload = json.dumps(body).encode()
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_POST(self):
        global answered, exchanged
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
        record = {"path": self.path, "headers": [[k.lower(), v] for k, v in self.headers.items()], "body": body}
        if self.path == "/token":
            form = urllib.parse.parse_qs(body)
            try:
                assert form["grant_type"] == ["urn:ietf:params:oauth:grant-type:jwt-bearer"], form
                record["verified"] = verify(form["assertion"][0], f"http://127.0.0.1:{self.server.server_address[1]}/token")
            except (AssertionError, InvalidSignature, KeyError, ValueError) as error:
                record["refused"] = repr(error)
                self.log(record)
                return self.answer(400, {"error": "invalid_grant", "error_description": "Invalid JWT Signature."})
            with lock:
                exchanged += 1
                token = f"ya29.test-{exchanged}"
                issued.add(token)
            self.log(record)
            return self.answer(200, {"access_token": token, "expires_in": 3599, "token_type": "Bearer"})
        authorization = self.headers.get("Authorization", "")
        with lock:
            known = authorization.startswith("Bearer ") and authorization[7:] in issued
        if not known:
            self.log(record)
            return self.answer(401, fcm_error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials."))
        message = json.loads(body)["message"]
        if any(not isinstance(value, str) for value in message.get("data", {}).values()):
            self.log(record)
            return self.answer(400, fcm_error(400, "INVALID_ARGUMENT", "Invalid value at 'message.data[0].value' (TYPE_STRING)",
                                              "INVALID_ARGUMENT"))
        with lock:
            step = script[min(answered, len(script) - 1)] if script else {"status": 200}
            answered += 1
            if step.get("revoke"):
                issued.clear()
        self.log(record)
        if step.get("revoke"):
            return self.answer(401, fcm_error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials."))
        status = step.get("status", 200)
        if status == 200:
            return self.answer(200, {"name": f"projects/p/messages/{answered}"})
        return self.answer(status, fcm_error(status, STATUS_NAMES.get(status, "UNKNOWN"), "scripted", step.get("errorCode")),
                           step.get("headers"))

    def log(self, record):
        with lock, open(log_path, "a") as log:
            log.write(json.dumps(record) + "\n")

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
server.daemon_threads = True
print(f"PORT {server.server_address[1]}", flush=True)
server.serve_forever()
