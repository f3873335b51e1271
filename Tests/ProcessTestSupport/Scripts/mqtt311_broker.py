#!/usr/bin/python3
"""Test support: a broker that speaks MQTT 3.1.1 only, as older brokers do. A CONNECT of any other
protocol level gets 3.1.1's CONNACK "unacceptable protocol version" (return code 1) and the
connection is closed; a 3.1.1 client is accepted, its QoS 1 PUBLISHes acknowledged and recorded.

Usage: mqtt311_broker.py LOG [PORT]
Prints "PORT n" once listening; appends one JSON line per event to LOG:
{"connect": LEVEL} or {"topic", "payload", "qos", "retain"}.
"""
import json
import socket
import sys
import threading

log_path = sys.argv[1]
lock = threading.Lock()


def record(event):
    with lock, open(log_path, "a") as log:
        log.write(json.dumps(event) + "\n")


def read_exactly(connection, count):
    data = b""
    while len(data) < count:
        chunk = connection.recv(count - len(data))
        if not chunk:
            raise ConnectionError
        data += chunk
    return data


def read_packet(connection):
    first = read_exactly(connection, 1)[0]
    length, shift = 0, 0
    while True:
        byte = read_exactly(connection, 1)[0]
        length |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            break
    return first, read_exactly(connection, length)


def serve(connection):
    try:
        while True:
            first, body = read_packet(connection)
            kind = first >> 4
            if kind == 1:  # CONNECT: protocol name (length-prefixed), then the level
                name_length = int.from_bytes(body[0:2], "big")
                level = body[2 + name_length]
                record({"connect": level})
                if level != 4:
                    connection.sendall(bytes([0x20, 2, 0, 1]))
                    return
                connection.sendall(bytes([0x20, 2, 0, 0]))
            elif kind == 3:  # PUBLISH
                qos = (first >> 1) & 3
                topic_length = int.from_bytes(body[0:2], "big")
                topic = body[2:2 + topic_length].decode()
                rest = body[2 + topic_length:]
                if qos:
                    packet_id, rest = rest[:2], rest[2:]
                    connection.sendall(bytes([0x40, 2]) + packet_id)
                record({"topic": topic, "payload": rest.decode(), "qos": qos, "retain": bool(first & 1)})
            elif kind == 8:  # SUBSCRIBE: grant QoS 1
                connection.sendall(bytes([0x90, 3]) + body[:2] + bytes([1]))
            elif kind == 12:  # PINGREQ
                connection.sendall(bytes([0xD0, 0]))
            elif kind == 14:  # DISCONNECT
                return
    except (ConnectionError, OSError):
        pass
    finally:
        connection.close()


server = socket.socket()
server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
server.bind(("127.0.0.1", int(sys.argv[2]) if len(sys.argv) > 2 else 0))
server.listen()
print(f"PORT {server.getsockname()[1]}", flush=True)
while True:
    client, _ = server.accept()
    threading.Thread(target=serve, args=(client,), daemon=True).start()
