#!/usr/bin/env python3
"""The HTTP listener's cost, each figure against a baseline measured in the same run:

1. Wake-ups: two `hrbridge replay --speed 1` side by side, one with `--listen 127.0.0.1:0` and one
   without; the context switches of every thread of each (/proc/PID/task/*/status, voluntary and
   involuntary) over the same window, while nobody connects. The difference is the idle listener's.
   Resident memory (VmRSS) of both, for what loading libmicrohttpd and GnuTLS costs.
2. Requests per second with wrk (keep-alive connections): GET /livez (the transport and the
   router alone: the baseline), GET /metrics (made from every session's counters on each scrape)
   PUT /v1/activities/ID/label (a control round trip through the session's queue, an update
   each time: two labels alternate, and every update is in the state file, fsync'd, before a sink
   sees it), POST /v1/activities/ID/pause once paused (the same round trip, no update), and
   PUT /v1/activities/ID/push-token: two tokens alternating (each request replaces the token: the
   push-token file written and fsync'd before the answer) and one token again and again (unchanged:
   nothing written).

Usage: listener.py --hrbridge PATH [--window 30] [--duration 10] [--connections 8]
"""
import argparse
import glob
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

PAUSE_SCRIPT = """
wrk.method = "POST"
wrk.path = "/v1/activities/%s/pause"
"""

LABEL_SCRIPT = """
counter = 0
request = function()
  counter = counter + 1
  return wrk.format("PUT", "/v1/activities/%s/label", {["Content-Type"] = "application/json"},
                    string.format('{"label": "interval %%d"}', counter %% 2))
end
"""


PUSH_TOKEN_SCRIPT = """
counter = 0
tokens = {"TOKEN_A", "TOKEN_B"}
request = function()
  counter = counter + 1
  return wrk.format("PUT", "/v1/activities/ACTIVITY/push-token", {["Content-Type"] = "application/json"},
                    string.format('{"token": "%s"}', tokens[counter % 2 + 1]))
end
""".replace("TOKEN_A", "a1" * 32).replace("TOKEN_B", "b2" * 32)


def switches(pid):
    total = 0
    for status in glob.glob(f"/proc/{pid}/task/*/status"):
        try:
            text = open(status).read()
        except FileNotFoundError:
            continue  # a thread that ended meanwhile
        total += sum(int(n) for n in re.findall(r"^(?:non)?voluntary_ctxt_switches:\s+(\d+)", text, re.M))
    return total


def resident_kib(pid):
    return int(re.search(r"^VmRSS:\s+(\d+)", open(f"/proc/{pid}/status").read(), re.M).group(1))


def threads(pid):
    return len(os.listdir(f"/proc/{pid}/task"))


def start(hrbridge, directory, name, listen):
    arguments = [hrbridge, "replay", "--speed", "1", "--control-bus", "none", "--state-dir", f"{directory}/{name}"]
    if listen:
        arguments += ["--listen", "127.0.0.1:0"]
    log = open(f"{directory}/{name}.log", "w+")
    return subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=log), log


def wait_for(log, pattern, seconds=10):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        log.seek(0)
        found = re.search(pattern, log.read())
        if found:
            return found
        time.sleep(0.05)
    sys.exit(f"listener.py: no {pattern!r} in the log")


def wrk(url, duration, connections, script=None):
    command = ["wrk", "-t", "2", "-c", str(connections), "-d", f"{duration}s", "--latency", url]
    if script:
        command[1:1] = ["-s", script]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    latency = dict(re.findall(r"^\s+(50|99)%\s+(\S+)", output, re.M))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return rate, latency.get("50", "?"), latency.get("99", "?"), int(errors.group(1)) if errors else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--hrbridge", required=True)
    parser.add_argument("--window", type=float, default=30)
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--connections", type=int, default=8)
    options = parser.parse_args()
    directory = tempfile.mkdtemp(prefix="hrbridge-listener-bench-")
    plain, plain_log = start(options.hrbridge, directory, "plain", listen=False)
    listening, listening_log = start(options.hrbridge, directory, "listening", listen=True)
    try:
        address = wait_for(listening_log, r"listen: (http://127\.0\.0\.1:\d+)").group(1)
        time.sleep(3)  # both past start-up and recovery
        before = (switches(plain.pid), switches(listening.pid))
        time.sleep(options.window)
        after = (switches(plain.pid), switches(listening.pid))
        rates = [(b - a) / options.window for a, b in zip(before, after)]
        print(f"idle wake-ups over {options.window:.0f} s (context switches/s, all threads):"
              f" without --listen {rates[0]:.2f}, with {rates[1]:.2f}, difference {rates[1] - rates[0]:+.2f}")
        print(f"threads: without {threads(plain.pid)}, with {threads(listening.pid)};"
              f" VmRSS: without {resident_kib(plain.pid)} KiB, with {resident_kib(listening.pid)} KiB")
        activity = subprocess.run(["curl", "-s", address + "/v1/activities"], capture_output=True, text=True).stdout
        activity = re.search(r'"activity":"([^"]+)"', activity).group(1)
        label = f"{directory}/label.lua"
        open(label, "w").write(LABEL_SCRIPT % activity)
        pause = f"{directory}/pause.lua"
        open(pause, "w").write(PAUSE_SCRIPT % activity)
        new_token = f"{directory}/push-token-new.lua"
        open(new_token, "w").write(PUSH_TOKEN_SCRIPT.replace("ACTIVITY", activity))
        same_token = f"{directory}/push-token-same.lua"
        open(same_token, "w").write(PUSH_TOKEN_SCRIPT.replace("ACTIVITY", activity).replace("b2" * 32, "a1" * 32))
        print(f"wrk, {options.connections} keep-alive connections, {options.duration} s each:")
        for name, url, lua in [("GET /livez (baseline)", address + "/livez", None),
                               ("GET /metrics", address + "/metrics", None),
                               ("PUT …/label (update)", address, label),
                               ("POST …/pause (no-op)", address, pause),
                               ("PUT …/push-token (new)", address, new_token),
                               ("PUT …/push-token (same)", address, same_token)]:
            if lua == pause:  # paused once: every request after it changes nothing
                subprocess.run(["curl", "-s", "-X", "POST", f"{address}/v1/activities/{activity}/pause"], capture_output=True)
            rate, p50, p99, errors = wrk(url, options.duration, options.connections, lua)
            print(f"  {name:24} {rate:9.0f} requests/s   p50 {p50:>8}   p99 {p99:>8}   non-2xx {errors}")
    finally:
        for process in (plain, listening):
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)


if __name__ == "__main__":
    main()
