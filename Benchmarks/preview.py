#!/usr/bin/env python3
"""The preview's cost (docs/preview.md), each figure against a baseline measured in the same run:

1. An idle page: two `hrbridge replay --listen` of a trace in which nothing happens for an hour,
   side by side, one with a browser's event stream open (GET /v1/events) and one without; the
   context switches of every thread of each over the same window. The difference is what an
   idle page costs: the keep-alive every 15 s (the hub's timer and the client's thread).
2. CPU per update with N connected browsers: the bundled trace replayed at --speed S with N event
   streams open (each read to the end), then with none; the process's CPU time (utime + stime)
   divided by the updates it sent (`--threshold 1 --min-interval 1`: many updates). The difference is the preview's cost per update and per
   browser. The listener allows 8 connections per client address: the streams come from
   127.0.0.1, 127.0.0.2, … (all loopback on Linux).

Usage: preview.py --hrbridge PATH [--window 31] [--clients 50] [--speed 300]
"""
import argparse
import glob
import os
import re
import signal
import socket
import subprocess
import tempfile
import threading
import time

IDLE_TRACE = "hrbridge-trace 1 start=2024-01-01T06:00:00.000000Z name=Idle\n0 connected\n3600000000 note the end\n"
PER_ADDRESS = 8  # ServerLimits.connectionsPerAddress


def switches(pid):
    total = 0
    for status in glob.glob(f"/proc/{pid}/task/*/status"):
        try:
            text = open(status).read()
        except FileNotFoundError:
            continue
        total += sum(int(n) for n in re.findall(r"^(?:non)?voluntary_ctxt_switches:\s+(\d+)", text, re.M))
    return total


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start(hrbridge, directory, name, trace, speed, cadence=()):
    arguments = [hrbridge, "replay", "--speed", str(speed), "--listen", "127.0.0.1:0", "--control-bus", "none", "--no-status",
                 "--state-dir", f"{directory}/{name}", *cadence] + ([trace] if trace else [])
    log = open(f"{directory}/{name}.log", "w+")
    process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=log, text=True)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        log.seek(0)
        found = re.search(r"listen: http://127\.0\.0\.1:(\d+)", log.read())
        if found:
            return process, int(found.group(1))
        time.sleep(0.05)
    raise SystemExit(f"preview.py: {name} did not listen")


class Stream:
    """One browser's event stream, read to its end on a thread of its own."""

    def __init__(self, port, source_address):
        self.socket = socket.create_connection(("127.0.0.1", port), source_address=(source_address, 0))
        self.socket.sendall(f"GET /v1/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.received = 0
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        try:
            while True:
                chunk = self.socket.recv(65536)
                if not chunk:
                    break
                self.received += chunk.count(b"event: update")
        except OSError:
            pass

    def close(self):
        self.socket.close()


def idle(hrbridge, directory, window):
    trace = f"{directory}/idle.trace"
    open(trace, "w").write(IDLE_TRACE)
    quiet, _ = start(hrbridge, directory, "quiet", trace, 1)
    watched, port = start(hrbridge, directory, "watched", trace, 1)
    stream = Stream(port, "127.0.0.1")
    try:
        time.sleep(2)
        before = (switches(quiet.pid), switches(watched.pid))
        time.sleep(window)
        after = (switches(quiet.pid), switches(watched.pid))
        rates = [(b - a) / window for a, b in zip(before, after)]
        print(f"idle page over {window:.0f} s (context switches/s, all threads): no browser {rates[0]:.2f},"
              f" one event stream open {rates[1]:.2f}, difference {rates[1] - rates[0]:+.2f}"
              f" (the keep-alive: {2 / 15:.2f}/s expected)")
    finally:
        stream.close()
        for process in (quiet, watched):
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)


def loaded(hrbridge, directory, clients, speed):
    results = {}
    for name, count in (("baseline", 0), ("browsers", clients)):
        # Every 1 bpm change, at most one a second: many updates, so the share per update is clear.
        process, port = start(hrbridge, directory, name, None, speed, ("--threshold", "1", "--min-interval", "1"))
        streams = [Stream(port, f"127.0.0.{1 + index // PER_ADDRESS}") for index in range(count)]
        last = 0.0
        updates = 0
        for _ in process.stdout:
            updates += 1
            try:
                last = cpu_seconds(process.pid)
            except (FileNotFoundError, ProcessLookupError):
                pass
        # The CPU time read with the last update: before the end's flush and shutdown.
        process.wait(timeout=600)
        for stream in streams:
            stream.thread.join(timeout=10)
        delivered = min((stream.received for stream in streams), default=updates)
        for stream in streams:
            stream.close()
        results[name] = (last, updates, delivered)
    (base_cpu, updates, _), (cpu, _, delivered) = results["baseline"], results["browsers"]
    extra = (cpu - base_cpu) / updates
    print(f"{updates} updates of the bundled trace at --speed {speed}: CPU {base_cpu * 1000:.0f} ms without a browser,"
          f" {cpu * 1000:.0f} ms with {clients} event streams (each got {delivered} of them)")
    print(f"  per update: {base_cpu / updates * 1e6:.0f} µs without, {cpu / updates * 1e6:.0f} µs with;"
          f" the preview's share {extra * 1e6:.0f} µs, {extra / clients * 1e6:.1f} µs per browser")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hrbridge", required=True)
    parser.add_argument("--window", type=float, default=31)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--speed", type=float, default=300)
    options = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="hrbridge-preview-bench-")
    idle(options.hrbridge, directory, options.window)
    loaded(options.hrbridge, directory, options.clients, options.speed)


if __name__ == "__main__":
    main()
