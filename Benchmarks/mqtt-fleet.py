#!/usr/bin/env python3
"""One broker, many gateways: N `hrbridge replay --speed K` processes, each a different strap, publish
to one local mosquitto; mosquitto_sub (a dashboard subscribed to every strap's updates, QoS 1)
timestamps what arrives. A benchmark, not a test: it prints figures, it does not judge them.

Measured per run:
  updates/s      updates that reached the subscriber, over the time they were arriving
                 (each is two publishes: the retained state and the update stream; an update a
                 newer one superseded while waiting in hrbridge's queue is made but not received)
  latency        from the moment this script read the update from hrbridge's stdout (its --sink
                 stdout, written just before the MQTT sink takes the same update) to the subscriber's
                 receive time; a negative minimum shows how far the script's own reading lagged
  CPU/update     user+system CPU of all hrbridge processes (wait4's rusage) per update they made,
                 start-up included; "MQTT's share" subtracts the same fleet run with stdout only;
                 the broker's CPU from /proc over the run
Usage: Benchmarks/mqtt-fleet.py [--processes 1,10,50,100] [--speed 200] [--hrbridge .build/release/hrbridge]
Needs mosquitto and mosquitto-clients (scripts/install-deps test) and a built hrbridge.
"""
import argparse
import json
import os
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# The bundled trace's own recording, imported as the bundled trace was (the same text).
RECORDING = os.path.join(HERE, "..", "..", "shared", "recordings", "pri_treadmill_12km.hr.csv")
TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def process_cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def import_trace(hrbridge, directory):
    """The 64-minute treadmill run as a trace, made by `hrbridge import csv`."""
    trace = os.path.join(directory, "treadmill-12km.trace")
    if not os.path.exists(trace):
        if not os.path.exists(RECORDING):
            sys.exit(f"mqtt-fleet: {RECORDING} not found (the shared recordings beside the repository)")
        subprocess.run([hrbridge, "import", "csv", RECORDING, "--name", "Polar H10 (recording)", "-o", trace],
                       check=True, stderr=subprocess.DEVNULL)
    with open(trace) as file:
        return file.read()


def fleet_cpu(count, speed, hrbridge, directory, sinks):
    """Starts `count` replays with `sinks`; returns {(strap, activity, sequence): stdout time}, the keys
    of the starts and ends, and their CPU seconds."""
    trace_text = import_trace(hrbridge, directory)
    printed = {}
    lifecycle = set()  # the starts and ends, which must all arrive
    selector = selectors.DefaultSelector()
    open_pipes = 0

    def read(timeout):
        """Timestamps every line that is ready within `timeout` seconds; False once every pipe closed."""
        nonlocal open_pipes
        for key, _ in selector.select(timeout):
            strap, pending = key.data
            chunk = key.fileobj.read1(65536)
            now = time.time()
            if not chunk:
                selector.unregister(key.fileobj)
                open_pipes -= 1
                continue
            pending.extend(chunk)
            while b"\n" in pending:
                line, _, rest = bytes(pending).partition(b"\n")
                pending[:] = rest
                update = json.loads(line)
                printed[(strap, update["activity"], update["sequence"])] = now
                if update["event"] != "update":
                    lifecycle.add((strap, update["activity"], update["sequence"]))
        return open_pipes > 0

    processes = []
    for index in range(count):
        strap = f"bench-{index:03d}"
        trace = os.path.join(directory, f"{strap}.trace")
        with open(trace, "w") as file:
            file.write(trace_text.replace("name=Polar%20H10%20(recording)", f"name={strap}", 1))
        state = os.path.join(directory, f"state-{len(sinks)}-{count}-{index}")
        process = subprocess.Popen(
            [hrbridge, "replay", "--speed", str(speed), "--from-now", "--sink", "stdout"] + sinks
            + ["--state-dir", state, "--spool", state + "/spool", trace],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env={name: value for name, value in os.environ.items() if name != "DBUS_SESSION_BUS_ADDRESS"})
        os.set_blocking(process.stdout.fileno(), False)
        selector.register(process.stdout, selectors.EVENT_READ, (strap, bytearray()))
        open_pipes += 1
        processes.append(process)
        read(0)  # the first processes print while the last are starting
    while read(None):
        pass
    cpu = 0.0
    for process in processes:
        _, _, usage = os.wait4(process.pid, 0)
        cpu += usage.ru_utime + usage.ru_stime
    return printed, lifecycle, cpu


def run(count, speed, hrbridge, directory):
    port = free_port()
    config = os.path.join(directory, f"mosquitto-{count}.conf")
    with open(config, "w") as file:
        # `user` keeps a root-started broker able to read this directory; no persistence: a clean broker per run.
        file.write(f"user {os.environ.get('USER', 'root')}\nlistener {port} 127.0.0.1\nallow_anonymous true\n"
                   "persistence false\nmax_queued_messages 100000\n")
    broker = subprocess.Popen(["mosquitto", "-c", config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 5
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if time.time() > deadline:
                sys.exit("mosquitto did not start")
            time.sleep(0.05)
    subscriber = subprocess.Popen(
        ["mosquitto_sub", "-V", "5", "-p", str(port), "-q", "1", "-t", "bench/gw/+/updates", "-t", "bench/probe",
         "-F", "%U|%t|%p"], stdout=subprocess.PIPE, text=True)
    # Wait until the subscription stands: a probe comes back.
    waiting = selectors.DefaultSelector()
    waiting.register(subscriber.stdout, selectors.EVENT_READ)
    while True:
        subprocess.run(["mosquitto_pub", "-p", str(port), "-t", "bench/probe", "-m", "x"], check=True)
        if waiting.select(timeout=0.2) and "bench/probe" in subscriber.stdout.readline():
            break
    broker_cpu_before = process_cpu_seconds(broker.pid)
    # Read as lines arrive: a full pipe would stall mosquitto_sub, and then the broker's delivery to it.
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(subscriber.stdout))
    reader.start()

    printed, lifecycle, cpu = fleet_cpu(count, speed, hrbridge, directory, ["--sink", f"mqtt://127.0.0.1:{port}", "--mqtt-prefix", "bench/gw"])
    time.sleep(1)  # the last acknowledgements' messages reach the subscriber
    broker_cpu = process_cpu_seconds(broker.pid) - broker_cpu_before
    subscriber.terminate()
    reader.join()
    received = {}
    for line in lines:
        stamp, topic, payload = line.rstrip("\n").split("|", 2)
        if not topic.endswith("/updates"):
            continue
        update = json.loads(payload)
        received.setdefault((topic.split("/")[2], update["activity"], update["sequence"]), float(stamp))
    broker.terminate()
    broker.wait()
    baseline, _, baseline_cpu = fleet_cpu(count, speed, hrbridge, directory, [])
    latencies = [received[key] - printed[key] for key in received if key in printed]
    arrival = sorted(received.values())
    span = arrival[-1] - arrival[0] if len(arrival) > 1 else float("nan")
    return {
        "processes": count, "speed": speed, "made": len(printed), "received": len(received),
        "lifecycle": f"{len(lifecycle & received.keys())}/{len(lifecycle)}",
        "updates_per_s": len(received) / span, "p50_ms": 1000 * percentile(latencies, 0.5),
        "p95_ms": 1000 * percentile(latencies, 0.95), "p99_ms": 1000 * percentile(latencies, 0.99),
        "max_ms": 1000 * max(latencies), "min_ms": 1000 * min(latencies), "cpu_ms_per_update": 1000 * cpu / max(len(printed), 1),
        "baseline_ms_per_update": 1000 * baseline_cpu / max(len(baseline), 1),
        "broker_cpu_ms_per_update": 1000 * broker_cpu / max(len(received), 1),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", default="1,10,50,100", help="comma-separated gateway counts (default 1,10,50,100)")
    parser.add_argument("--speed", type=float, default=200, help="replay speed of every process (default 200)")
    parser.add_argument("--hrbridge", default=os.path.join(HERE, "..", ".build", "release", "hrbridge"))
    arguments = parser.parse_args()
    print("| processes | speed | updates made | received | starts+ends received | updates/s | latency min / p50 / p95 / p99 / max (ms) | hrbridge CPU/update (MQTT's share) | broker CPU/update |")
    print("|---:|---:|---:|---:|---:|---:|---|---:|---:|")
    with tempfile.TemporaryDirectory() as directory:
        for count in [int(text) for text in arguments.processes.split(",")]:
            r = run(count, arguments.speed, arguments.hrbridge, directory)
            # A negative minimum is the measuring's own skew: the script saw the line later than the
            # subscriber saw the message (both compete for the same cores).
            latency = f"{r['min_ms']:.1f} / {r['p50_ms']:.1f} / {r['p95_ms']:.1f} / {r['p99_ms']:.1f} / {r['max_ms']:.1f}"
            print(f"| {r['processes']} | {r['speed']:g} | {r['made']} | {r['received']} | {r['lifecycle']} | {r['updates_per_s']:.0f} | {latency} | "
                  f"{r['cpu_ms_per_update']:.2f} ms ({r['cpu_ms_per_update'] - r['baseline_ms_per_update']:.2f} ms) | "
                  f"{r['broker_cpu_ms_per_update']:.3f} ms |", flush=True)


if __name__ == "__main__":
    main()
