#!/usr/bin/python3
"""Test support: an APNs-shaped HTTP/2 server over TLS on 127.0.0.1 (Debian python3-h2).

Usage: h2_push_server.py LOG_FILE CERT_PEM KEY_PEM SCRIPT_JSON [PORT]
  SCRIPT_JSON: answers used in order, the last one repeating: {"status": 410, "reason": "Unregistered"}
  ("timestamp": milliseconds, as APNs adds to a 410, goes into the body too). An answer with "path"
  is kept for the first request to that path (":path" equal) and used for it instead, whatever the order;
  with "method" too, only for that method; with "nth": N, for the Nth such request (1 for the first).
Broadcast channels (Apple, "Sending channel management requests to APNs"), unless a "path" answer
says otherwise: POST /1/apps/<bundle>/channels creates one (201, its id in "apns-channel-id"),
DELETE there removes the one "apns-channel-id" names (204; 404 ChannelNotRegistered if unknown), and
POST /4/broadcasts/apps/<bundle> takes a broadcast to a known channel (200; 400 ChannelNotRegistered).
Only HTTP/2 is offered through ALPN; a client that does not negotiate h2 is dropped. Every request
is appended to LOG_FILE as one JSON line with its ALPN protocol, headers (pseudo-headers included,
in order) and body. Prints "PORT <n>" once listening.
"""
import base64
import json
import re
import signal
import socket
import ssl
import sys
import threading
import uuid

import h2.config
import h2.connection
import h2.events

# The test process spawns us from a thread that blocks most signals; take them back.
signal.pthread_sigmask(signal.SIG_SETMASK, [])
log_path, cert, key, script = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
port = int(sys.argv[5]) if len(sys.argv) > 5 else 0
lock = threading.Lock()
answered = 0


by_path = [answer for answer in script if "path" in answer]
script = [answer for answer in script if "path" not in answer]
seen = {}  # (method, path) -> requests so far
channels = set()
created = 0
MANAGEMENT = re.compile(r"^/1/apps/[^/]+/channels$")
BROADCAST = re.compile(r"^/4/broadcasts/apps/[^/]+$")


def channel_answer(method, path, headers):
    """What APNs answers a channel management request or a broadcast, from the channels it has."""
    global created
    channel = headers.get("apns-channel-id")
    if MANAGEMENT.match(path) and method == "POST":
        created += 1
        channel = base64.b64encode(f"hrbridge-test-channel-{created}".encode()).decode()
        channels.add(channel)
        return {"status": 201, "headers": {"apns-channel-id": channel}}
    if MANAGEMENT.match(path) and method == "DELETE":
        if channel in channels:
            channels.remove(channel)
            return {"status": 204}
        return {"status": 404, "reason": "ChannelNotRegistered"}
    if BROADCAST.match(path) and method == "POST":
        return {"status": 200} if channel in channels else {"status": 400, "reason": "ChannelNotRegistered"}
    return None


def next_answer(method, path, headers):
    global answered
    with lock:
        count = seen[(method, path)] = seen.get((method, path), 0) + 1
        for answer in by_path:
            if answer["path"] == path and answer.get("method", method) == method and answer.get("nth", count) == count:
                by_path.remove(answer)
                return answer
        stateful = channel_answer(method, path, headers)
        if stateful:
            return stateful
        answer = script[min(answered, len(script) - 1)] if script else {"status": 200}
        answered += 1
        return answer


def record(entry):
    with lock:
        with open(log_path, "a") as log:
            log.write(json.dumps(entry) + "\n")


def serve(raw, context):
    try:
        sock = context.wrap_socket(raw, server_side=True)
    except (ssl.SSLError, OSError):
        raw.close()
        return
    protocol = sock.selected_alpn_protocol()
    if protocol != "h2":
        record({"alpn": protocol, "rejected": True})
        sock.close()
        return
    connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
    connection.initiate_connection()
    sock.sendall(connection.data_to_send())
    streams = {}
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                break
            for event in connection.receive_data(data):
                if isinstance(event, h2.events.RequestReceived):
                    streams[event.stream_id] = {"headers": [[k, v] for k, v in event.headers], "body": b""}
                elif isinstance(event, h2.events.DataReceived):
                    streams[event.stream_id]["body"] += event.data
                    connection.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                elif isinstance(event, h2.events.StreamEnded):
                    stream = streams.pop(event.stream_id)
                    record({"alpn": protocol, "headers": stream["headers"], "body": stream["body"].decode("utf-8")})
                    named = dict(stream["headers"])
                    answer = next_answer(named.get(":method", ""), named.get(":path", ""), named)
                    fields = {key: answer[key] for key in ("reason", "timestamp") if key in answer}
                    body = json.dumps(fields).encode() if fields else b""
                    headers = [(":status", str(answer.get("status", 200))), ("apns-id", str(uuid.uuid4()).upper())]
                    headers += list(answer.get("headers", {}).items())
                    if body:
                        headers += [("content-type", "application/json"), ("content-length", str(len(body)))]
                    connection.send_headers(event.stream_id, headers, end_stream=not body)
                    if body:
                        connection.send_data(event.stream_id, body, end_stream=True)
            sock.sendall(connection.data_to_send())
    except (OSError, ssl.SSLError):
        pass
    finally:
        sock.close()


context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
context.set_alpn_protocols(["h2"])
listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", port))
listener.listen(16)
print(f"PORT {listener.getsockname()[1]}", flush=True)
while True:
    client, _ = listener.accept()
    threading.Thread(target=serve, args=(client, context), daemon=True).start()
