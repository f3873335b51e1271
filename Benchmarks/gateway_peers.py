"""The peers and probes of Benchmarks/gateway-scale.py: a private bus with the tests' fake BlueZ
hosting N straps, a real mosquitto and an HTTP server on loopback, the clients under test, and what
the kernel says of a process (CPU clock, context switches, threads, peak RSS)."""
import json
import os
import re
import socket
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FAKE_BLUEZ = os.path.join(ROOT, 'Tests', 'BusTestSupport', 'Peers', 'fake_bluez.py')
HTTP_SERVER = os.path.join(ROOT, 'Tests', 'ProcessTestSupport', 'Scripts', 'scripted_http_server.py')
# A peer that does not come up within this is broken, not slow (each takes well under a second).
START_TIMEOUT = 10
# Connecting a strap takes the fake's 30 ms service resolution plus a few calls: 16 take a few
# seconds; a minute means a client that does not connect.
CONNECT_TIMEOUT = 60
# An orderly stop ends every activity and flushes the sinks (MQTT waits for acknowledgements).
STOP_TIMEOUT = 30


def strap_addresses(count):
    return [f'F1:5A:17:00:{index >> 8:02X}:{(index & 0xFF) + 1:02X}' for index in range(count)]


def device_path(address):
    return '/org/bluez/hci0/dev_' + address.replace(':', '_')


def free_port():
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


def wait_for(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f'gateway-scale: {what} within {timeout} s')
        time.sleep(0.05)


def stop(process, timeout=STOP_TIMEOUT):
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class FakeBlueZ:
    """A private bus (dbus-daemon) and the fake org.bluez on it, `count` straps notifying every
    `interval_ms`, each on its own clock (--spread)."""

    def __init__(self, work, count, interval_ms):
        self.addresses = strap_addresses(count)
        bus = subprocess.run(['dbus-daemon', '--session', '--fork', '--nopidfile', '--print-address=1', '--print-pid=1'],
                             check=True, capture_output=True, text=True).stdout.split()
        self.address, self.bus_pid = bus[0], int(bus[1])
        straps = ','.join(f'{address}=HRM-Sim {index + 1}' for index, address in enumerate(self.addresses))
        self.log = open(os.path.join(work, 'fake-bluez.log'), 'a')
        self.process = subprocess.Popen(['/usr/bin/python3', FAKE_BLUEZ, '--interval', str(interval_ms), '--spread',
                                         '--straps', straps], env=self.environment(), stdout=subprocess.PIPE,
                                        stderr=self.log, text=True)
        if self.process.stdout.readline().strip() != 'ready':
            raise RuntimeError('gateway-scale: the fake BlueZ did not start (see fake-bluez.log)')

    def environment(self):
        return dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=self.address)

    def sent(self):
        """Notifications sent so far, summed over the straps."""
        return sum(self.sent_by(address) for address in self.addresses)

    def every_strap_sent(self, at_least):
        return all(self.sent_by(address) >= at_least for address in self.addresses)

    def sent_by(self, address):
        reply = subprocess.run(['dbus-send', f'--bus={self.address}', '--print-reply', '--dest=hr.test.FakeBlueZ',
                                '/hrtest', 'hr.test.FakeBlueZ.Sent', f'string:{address}'],
                               check=True, capture_output=True, text=True).stdout
        return reply.count('uint16')

    def close(self):
        stop(self.process)
        try:
            os.kill(self.bus_pid, 15)
        except ProcessLookupError:
            pass
        self.log.close()


class Broker:
    """mosquitto on a free loopback port, no persistence."""

    def __init__(self, work):
        self.port = free_port()
        config = os.path.join(work, 'mosquitto.conf')
        with open(config, 'w') as file:
            # `user` keeps a root-started broker able to read this directory.
            file.write(f"user {os.environ.get('USER', 'root')}\nlistener {self.port} 127.0.0.1\nallow_anonymous true\n"
                       'persistence false\nmax_queued_messages 100000\n')
        self.process = subprocess.Popen(['mosquitto', '-c', config], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def listening():
            try:
                socket.create_connection(('127.0.0.1', self.port), timeout=0.2).close()
                return True
            except OSError:
                return False
        wait_for(listening, START_TIMEOUT, 'mosquitto did not listen')

    def close(self):
        stop(self.process)


class LifecycleServer:
    """The tests' scripted HTTP/1.1 server, answering 200 to every request (a lifecycle server)."""

    def __init__(self, work):
        self.process = subprocess.Popen(['/usr/bin/python3', HTTP_SERVER, os.path.join(work, 'lifecycle-requests.ndjson'), '[]'],
                                        stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line.startswith('PORT '):
            raise RuntimeError('gateway-scale: the HTTP server did not start')
        self.port = int(line.split()[1])

    def close(self):
        stop(self.process)


def bridge_config(path, addresses, sinks):
    """A configuration file: one entry per strap, each with `sinks`."""
    straps = [{'address': address, 'workoutName': f'Strap {index + 1}', 'activityIDPrefix': f'strap{index + 1}',
               'sinks': sinks} for index, address in enumerate(addresses)]
    with open(path, 'w') as file:
        json.dump({'straps': straps}, file)


# --- what the kernel says of a process ------------------------------------------------------------

def cpu_ns(pid):
    """The process's CPU time, every thread (ended ones too), in nanoseconds: CPUCLOCK_SCHED."""
    return time.clock_gettime_ns((~pid << 3) | 2)


def switches(pid):
    """(voluntary, involuntary) context switches summed over the threads alive now."""
    voluntary = involuntary = 0
    for task in os.listdir(f'/proc/{pid}/task'):
        try:
            with open(f'/proc/{pid}/task/{task}/status') as status:
                text = status.read()
        except FileNotFoundError:
            continue  # ended meanwhile
        voluntary += int(re.search(r'^voluntary_ctxt_switches:\s+(\d+)', text, re.M).group(1))
        involuntary += int(re.search(r'^nonvoluntary_ctxt_switches:\s+(\d+)', text, re.M).group(1))
    return voluntary, involuntary


def status_field(pid, name):
    with open(f'/proc/{pid}/status') as status:
        return int(re.search(rf'^{name}:\s+(\d+)', status.read(), re.M).group(1))


def snapshot(pids):
    """CPU, switches and thread names of a client's processes at one moment."""
    cpu, voluntary, involuntary, threads = 0, 0, 0, 0
    for pid in pids:
        cpu += cpu_ns(pid)
        v, i = switches(pid)
        voluntary += v
        involuntary += i
        threads += status_field(pid, 'Threads')
    return {'cpu_ns': cpu, 'voluntary': voluntary, 'involuntary': involuntary, 'threads': threads}


def load_average():
    with open('/proc/loadavg') as file:
        return float(file.read().split()[0])
