#!/usr/bin/python3
"""A gateway's load as sensors are added: `hrbridge run` natively against the tests' fake BlueZ on a
private bus (N straps, each on its own clock), with stdout only, with an MQTT sink to a real mosquitto
on loopback, and with a lifecycle sink to a local HTTP server; several binaries and the floor client
(floor.c, one process per strap) measured in one run, rounds interleaved, each round starting one
client further on. A benchmark, not a test: it prints figures, it does not judge them.

Per window, after every strap has sent WARM_VALUES values and WARMUP seconds more: the notifications
the fake sent, the client's CPU (the kernel's per-process clock: all threads, ended ones too),
its voluntary switches (a thread going to sleep: one wake-up each) and involuntary ones, summed
over the threads alive at both ends, its thread count and peak RSS (VmHWM) at the end. Latency is
read from HRBRIDGE_LATENCY_TRACE (Sources/Platform/LatencyTrace.swift): from the update's time,
for an update a notification caused (reason start, changed, sensor-back) that notification's kernel
receive stamp, to the state file saved, the line written on stdout, the MQTT publish handed to
libmosquitto and the lifecycle request answered by the server.

Usage: gateway-scale.py --binary NAME=PATH [--binary NAME=PATH ...] --floor PATH [--rows 1@1,4@1,16@50]
       [--sinks stdout,mqtt,http] [--seconds S] [--warmup S] [--rounds N] [--work DIR] [--raw FILE]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import gateway_peers as peers
import gateway_table as table

# Every strap streams (connected, subscribed) once it has sent this many values.
WARM_VALUES = 3
# The reasons an update is made for on a notification; the others come from deadlines and controls.
NOTIFIED_REASONS = {'start', 'changed', 'sensor-back'}


def sink_objects(kind, broker, server):
    sinks = [{'type': 'stdout'}]
    if kind == 'mqtt':
        sinks.append({'type': 'mqtt', 'url': f'mqtt://127.0.0.1:{broker.port}', 'gateway': 'bench'})
    elif kind == 'http':
        sinks.append({'type': 'lifecycle', 'url': f'http://127.0.0.1:{server.port}/v1'})
    return sinks


def start_client(client, fake, work, window, sinks, callgrind=None):
    """The client's processes, started against `fake`; the latency trace's path for hrbridge.
    `callgrind`: an output file, the client run under callgrind with counting off until the window."""
    name, path = client
    log = open(os.path.join(work, f'{window}-{name}.err'), 'w')
    if name == 'floor':
        return [subprocess.Popen([path, peers.device_path(address), '1000000000', 'acquire'], env=fake.environment(),
                                 stdout=subprocess.DEVNULL, stderr=log) for address in fake.addresses], None
    config = os.path.join(work, f'{window}-config.json')
    peers.bridge_config(config, fake.addresses, sinks)
    trace = os.path.join(work, f'{window}-{name}.latency')
    out = open(os.path.join(work, f'{window}-{name}.ndjson'), 'w')
    command = [path, 'run', '--control-bus', 'none', '--state-dir', os.path.join(work, f'{window}-{name}-state'),
               '--config', config]
    if callgrind:
        command = ['valgrind', '--tool=callgrind', '--instr-atstart=no', f'--callgrind-out-file={callgrind}'] + command
    return [subprocess.Popen(command, env=dict(fake.environment(), HRBRIDGE_LATENCY_TRACE=trace),
                             stdout=out, stderr=log)], trace


def latencies(trace):
    """{point: [ms, …]} from one run's trace: each point's time minus the update's origin."""
    origins, done = {}, []
    if not trace or not os.path.exists(trace):
        return {}
    for line in open(trace):
        fields = line.split()
        key = (fields[1], fields[2])
        if len(fields) >= 6 and fields[5] in NOTIFIED_REASONS:
            origins[key] = int(fields[4])
        done.append((fields[0], key, int(fields[3])))
    found = {}
    for point, key, microseconds in done:
        if key in origins:
            kind = 'mqtt' if point.startswith('mqtt') else 'http' if point.startswith('http') else point
            found.setdefault(kind, []).append((microseconds - origins[key]) / 1000)
    return found


def measure(row, sink_kind, client, settings, window, broker, server, instructions=False):
    """One window of one client; under callgrind when `instructions` (its figures then only that)."""
    sensors, rate = row
    fake = peers.FakeBlueZ(settings.work, sensors, round(1000 / rate))
    processes = []
    callgrind = os.path.join(settings.work, f'{window}-{client[0]}.callgrind') if instructions else None
    try:
        processes, trace = start_client(client, fake, settings.work, window, sink_objects(sink_kind, broker, server), callgrind)
        pids = [p.pid for p in processes]

        def streaming():
            if any(p.poll() is not None for p in processes):
                raise RuntimeError(f'gateway-scale: {client[0]} exited (its stderr: {settings.work}/{window}-{client[0]}.err)')
            return fake.every_strap_sent(WARM_VALUES)
        peers.wait_for(streaming, peers.CONNECT_TIMEOUT, f'{client[0]}: not every strap streaming')
        time.sleep(settings.warmup)
        if callgrind:
            subprocess.run(['callgrind_control', '-i', 'on', str(pids[0])], check=True, stdout=subprocess.DEVNULL)
        sent, before, started = fake.sent(), peers.snapshot(pids), time.monotonic()
        load = peers.load_average()
        time.sleep(settings.seconds)
        after, seconds, notifications = peers.snapshot(pids), time.monotonic() - started, fake.sent() - sent
        if callgrind:
            subprocess.run(['callgrind_control', '-i', 'off', str(pids[0])], check=True, stdout=subprocess.DEVNULL)
        if any(p.poll() is not None for p in processes):
            raise RuntimeError(f'gateway-scale: {client[0]} stopped during the window')
        rss_kb = sum(peers.status_field(pid, 'VmHWM') for pid in pids)
    finally:
        for process in processes:
            peers.stop(process)
        fake.close()
    result = {'sensors': sensors, 'rate': rate, 'sinks': sink_kind, 'client': client[0], 'window': window,
              'seconds': seconds, 'notifications': notifications, 'rss_kb': rss_kb, 'threads': after['threads'],
              'load': load, 'latency': latencies(trace)}
    for key in ('cpu_ns', 'voluntary', 'involuntary'):
        result[key] = after[key] - before[key]
    if callgrind:
        # The file's `totals:` line: every instruction of every thread while counting was on.
        totals = [line for line in open(callgrind) if line.startswith('totals:')]
        return {'sensors': sensors, 'rate': rate, 'sinks': sink_kind, 'client': client[0],
                'instructions': int(totals[0].split()[1]), 'notifications': notifications}
    return result


def parse_rows(text):
    rows = []
    for item in text.split(','):
        sensors, _, rate = item.partition('@')
        rows.append((int(sensors), float(rate or 1)))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--binary', action='append', required=True, help='NAME=PATH of an hrbridge build (repeatable)')
    parser.add_argument('--floor', required=True, help='the floor client, built from floor.c')
    parser.add_argument('--rows', default='1@1,4@1,8@1,16@1,16@50', help='SENSORS@HZ,… (default 1@1,4@1,8@1,16@1,16@50)')
    parser.add_argument('--sinks', default='stdout,mqtt,http', help='sink sets: stdout, mqtt (stdout + MQTT), http (stdout + lifecycle)')
    parser.add_argument('--seconds', type=float, default=30, help='window per client (default 30)')
    parser.add_argument('--warmup', type=float, default=10, help='seconds after every strap streams (default 10)')
    parser.add_argument('--rounds', type=int, default=2, help='interleaved rounds (default 2)')
    parser.add_argument('--work', help='working directory (state, logs, traces); default a new one under /var/tmp')
    parser.add_argument('--raw', help='also write every window as a JSON line to this file')
    parser.add_argument('--instructions', action='store_true', help='also each binary once under callgrind, per row (first sink set)')
    settings = parser.parse_args()
    binaries = [tuple(item.split('=', 1)) for item in settings.binary]
    if any(len(item) != 2 or not os.access(item[1], os.X_OK) for item in binaries):
        sys.exit('gateway-scale: --binary takes NAME=PATH of an executable')
    settings.work = settings.work or tempfile.mkdtemp(prefix='gateway-scale-', dir='/var/tmp')
    rows, sink_kinds = parse_rows(settings.rows), settings.sinks.split(',')
    broker, server = peers.Broker(settings.work), peers.LifecycleServer(settings.work)
    results, window = [], 0
    raw = open(settings.raw, 'a') if settings.raw else None
    try:
        for round_number in range(settings.rounds):
            for row in rows:
                for sink_kind in sink_kinds:
                    clients = list(binaries) + ([('floor', settings.floor)] if sink_kind == sink_kinds[0] else [])
                    shift = round_number % len(clients)
                    for client in clients[shift:] + clients[:shift]:
                        window += 1
                        print(f'gateway-scale: round {round_number + 1}, {row[0]} straps at {row[1]:g} Hz, {sink_kind}, '
                              f'{client[0]}', file=sys.stderr, flush=True)
                        result = measure(row, sink_kind if client[0] != 'floor' else 'none', client, settings, window, broker, server)
                        results.append(result)
                        if raw:
                            raw.write(json.dumps(result) + '\n')
                            raw.flush()
        if settings.instructions:  # the first sink set only: what a notification costs, not an update
            for row in rows:
                for sink_kind in sink_kinds[:1]:
                    for client in binaries:
                        window += 1
                        print(f'gateway-scale: callgrind, {row[0]} straps at {row[1]:g} Hz, {sink_kind}, {client[0]}',
                              file=sys.stderr, flush=True)
                        results.append(measure(row, sink_kind, client, settings, window, broker, server, instructions=True))
                        if raw:
                            raw.write(json.dumps(results[-1]) + '\n')
                            raw.flush()
    finally:
        broker.close()
        server.close()
    print(table.render(results, [name for name, _ in binaries]))


if __name__ == '__main__':
    main()
