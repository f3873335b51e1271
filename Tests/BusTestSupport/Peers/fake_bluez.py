#!/usr/bin/python3
"""A BlueZ-shaped org.bluez for tests, on python-dbusmock's bluez5 template (Debian
python3-dbusmock), extended with GATT objects and a virtual heart-rate strap. It shares no
code with hrbridge's D-Bus layer. Run it on a private bus (DBUS_SYSTEM_BUS_ADDRESS).

The strap notifies 0x2A37 every --interval ms while connected and subscribed (StartNotify
then PropertiesChanged, or AcquireNotify then a SOCK_SEQPACKET socketpair). All sensors notify on
one clock tick, unless --spread gives each its own, their phases evenly apart (real sensors' clocks
are independent: a gateway seldom gets all of its sensors' values at the same instant). Value n is
[0x07, n lo, n hi]: 16-bit rate n, contact detected, so tests can tell every sample apart.
A value due while nobody listens waits: what was sent is exactly what a client should get.
A device listed as ADDRESS=NAME=rsc is a foot pod instead (0x1814, RSC Measurement 0x2A53):
value n is [0x02, 0x00, 0x03, 170, total] with speed 3 m/s, cadence 170 and a total distance
of 3 n metres (u32 in 0.1 m), so the distance a client derives is 3 m per value after the first.
ADDRESS=NAME=treadmill and ADDRESS=NAME=bike are fitness machines (0x1826, FTMS 1.0): they
advertise the service with its Service Data (Fitness Machine Available, type bit 0 treadmill or
bit 5 indoor bike), offer Fitness Machine Feature 0x2ACC (read), and notify Treadmill Data 0x2ACD
(speed 10.8 km/h, total distance 3 n m, heart rate 120 + n % 20) or Indoor Bike Data 0x2AD2
(30 km/h, 90 rpm, total distance 8 n m, heart rate 130 + n % 20).

Faults and queries on hr.test.FakeBlueZ at /hrtest (that name stays while org.bluez goes):
  Silence(d s)         connected, sends nothing for s seconds
  DropLink(s addr)     the link drops (Connected=false, GATT objects removed, socket hung up)
  BurstThenDrop(s addr, u n)  n values at once, then the link drops in the same breath
  StrapOff(s addr, d s) drops the link and refuses Connect for s seconds
  SetPowered(b)        adapter power; off drops every link and Connect answers NotReady
  RemoveAdapter()      the adapter vanishes (unplugged dongle); ReAddAdapter(s hciN) brings it back
  Restart(d s)         bluetoothd restart: org.bluez released, all objects gone, back after s seconds
  FailConnects(s name, s text, u n)  the next n Connect calls answer that D-Bus error
  HideHeartRate(b)     services resolve without 0x180D (what a stale GATT cache looks like)
  Wake(s addr)         a sensor started with --asleep begins to advertise
  Sent(s addr) -> aq   the rates sent so far;  Calls(s method) -> u  how often a method was called
The adapter is also a peripheral's (GattManager1, LEAdvertisingManager1), as bluetoothd's is:
RegisterApplication reads the caller's tree with GetManagedObjects on the path given and
RegisterAdvertisement reads the advertisement the same way, on its own path; both are dropped when
their caller leaves the bus, when it unregisters them, and with a Restart. On hr.test.FakeBlueZ:
  Peripheral() -> (bb)           an application and an advertisement are registered
  Advertised() -> a{sv}          the registered advertisement's properties
  Subscribe(s uuid) -> b         a central subscribes to that characteristic: StartNotify on it,
                                 and every PropertiesChanged of its Value is kept from then on
  Unsubscribe(s uuid)            StopNotify
  Received(s uuid) -> aay        the values kept, in order;  ReadApp(s uuid) -> ay  ReadValue
Discovery is one session per adapter, as bluetoothd's is per client (and a run's links share
one connection): StopDiscovery ends it whoever started it. A sensor in --unknown is not in the
tree until discovery sees it advertising (awake, not in --asleep); once seen it stays known.
Prints "ready" once org.bluez is on the bus.
"""
import argparse
import os
import socket
import sys
import time

import dbus
import dbus.mainloop.glib
import dbus.service
from dbusmock import mockobject
from dbusmock.templates import bluez5
from gi.repository import GLib

DEVICE = 'org.bluez.Device1'
ADAPTER = 'org.bluez.Adapter1'
SERVICE = 'org.bluez.GattService1'
CHAR = 'org.bluez.GattCharacteristic1'
OM = 'org.freedesktop.DBus.ObjectManager'
CONTROL = 'hr.test.FakeBlueZ'


def uuid(short):
    return f'0000{short}-0000-1000-8000-00805f9b34fb'


def error(name, text=''):
    return dbus.exceptions.DBusException(text, name='org.bluez.Error.' + name)


# Per kind: the service, its measurement characteristic, what else it advertises, value n.
KINDS = {
    'hr': ('180d', '2a37', lambda n: bytes([0x07, n & 0xFF, n >> 8])),
    'rsc': ('1814', '2a53', lambda n: bytes([0x02, 0x00, 0x03, 170]) + (30 * n).to_bytes(4, 'little')),
    'treadmill': ('1826', '2acd', lambda n: bytes([0x04, 0x01, 0x38, 0x04]) + (3 * n).to_bytes(3, 'little') + bytes([120 + n % 20])),
    'bike': ('1826', '2ad2', lambda n: bytes([0x14, 0x02, 0xb8, 0x0b, 0xb4, 0x00]) + (8 * n).to_bytes(3, 'little') + bytes([130 + n % 20])),
}
# The fitness machines' advertised Service Data for 0x1826 (FTMS §3.1) and Fitness Machine Feature.
MACHINES = {
    'treadmill': ([0x01, 0x01, 0x00], [0x1d, 0x16, 0, 0, 0, 0, 0, 0]),
    'bike': ([0x01, 0x20, 0x00], [0x87, 0x56, 0, 0, 0, 0, 0, 0]),
}


class Strap:
    def __init__(self, address, name, kind='hr'):
        self.address, self.name, self.kind = address, name, kind
        self.connected = False
        self.resolved = False
        self.off_until = 0
        self.session = False      # a StartNotify session (bluetoothd keeps it across reconnects)
        self.acquired = None      # our end of the AcquireNotify socketpair
        self.next_rate = 1
        self.sent = []
        self.battery = 87
        self.known = True         # in bluetoothd's tree (else only discovery can add it)
        self.awake = True         # advertising

    def path(self, fake):
        return f'/org/bluez/{fake.adapter_name}/dev_' + self.address.replace(':', '_')


class Fake:
    def __init__(self, args, bus):
        self.args, self.bus = args, bus
        self.adapter_name = 'hci0'
        self.powered = True
        self.silent_until = 0
        self.calls = {}
        self.connect_failures = []  # (D-Bus error name, text) for the next Connect calls
        self.hide_heart_rate = False  # connect, resolve, but no 0x180D service (a stale GATT cache)
        self.straps = [Strap(*item.split('=', 2)) for item in args.straps.split(',')]
        self.peripheral = PeripheralRole(bus, self)
        self.discovering = False
        for strap in self.straps:
            strap.known = strap.address not in args.unknown.split(',')
            strap.awake = strap.address not in args.asleep.split(',')
        self.name = dbus.service.BusName('org.bluez', bus)
        self.main = mockobject.DBusMockObject(self.name, '/', 'org.bluez.Mock', {}, os.devnull, True)
        mockobject.objects['/'] = self.main
        self.main.AddTemplate('bluez5', '')
        self.populate()
        if args.spread:
            for index, strap in enumerate(self.straps):
                phase = max(1, args.interval * index // len(self.straps))
                GLib.timeout_add(phase, lambda s=strap: GLib.timeout_add(args.interval, self.tick, [s]) and False)
        else:
            GLib.timeout_add(args.interval, self.tick, self.straps)

    def objects(self):
        return mockobject.objects

    def emit_added(self, path, interfaces):
        self.main.EmitSignal(OM, 'InterfacesAdded', 'oa{sa{sv}}', [dbus.ObjectPath(path), interfaces])

    def emit_removed(self, path, interfaces):
        self.main.EmitSignal(OM, 'InterfacesRemoved', 'oas', [dbus.ObjectPath(path), interfaces])

    def count(self, method):
        self.calls[method] = self.calls.get(method, 0) + 1

    # --- adapter and devices -------------------------------------------------------------
    def populate(self):
        bluez5.AddAdapter(self.main, self.adapter_name, 'hrbridge-test')
        adapter = self.objects()[f'/org/bluez/{self.adapter_name}']
        adapter.UpdateProperties(ADAPTER, {'Powered': dbus.Boolean(self.powered, variant_level=1)})
        adapter.AddMethods(ADAPTER, [
            ('StartDiscovery', '', '', lambda _: self.set_discovering(True, 'StartDiscovery')),
            ('StopDiscovery', '', '', lambda _: self.set_discovering(False, 'StopDiscovery')),
        ])
        self.discovering = False
        self.peripheral.serve(adapter)
        for strap in self.straps:
            strap.connected = strap.resolved = False
            strap.acquired = None
            strap.session = False
            if strap.known:
                self.add_device(strap)

    def set_discovering(self, on, method):
        self.count(method)
        if on and self.discovering:
            raise error('InProgress', 'Operation already in progress')
        self.discovering = on
        adapter = self.objects()[f'/org/bluez/{self.adapter_name}']
        adapter.UpdateProperties(ADAPTER, {'Discovering': dbus.Boolean(on, variant_level=1)})
        for strap in self.straps:
            self.discover(strap)

    def discover(self, strap):
        """Discovery adds an unknown sensor once it advertises."""
        if self.discovering and strap.awake and not strap.known:
            strap.known = True
            self.add_device(strap)

    def wake(self, address):
        strap = self.strap(address)
        strap.awake = True
        self.discover(strap)

    def add_device(self, strap):
        path = bluez5.AddDevice(self.main, self.adapter_name, strap.address, strap.name)
        device = self.objects()[path]
        device.AddMethods(DEVICE, [
            ('Connect', '', '', lambda device, s=strap: self.connect(s)),
            ('Disconnect', '', '', lambda device, s=strap: self.disconnect(s)),
        ])
        shorts = self.args.uuids.split(',') if strap.kind == 'hr' else [KINDS[strap.kind][0], '180f']
        advertised = [uuid(short) for short in shorts]
        device.UpdateProperties(DEVICE, {'UUIDs': dbus.Array(advertised, signature='s', variant_level=1)})
        if strap.kind in MACHINES:
            # dbusmock's UpdateProperties cannot wrap a dictionary: set it and say so by hand.
            data = dbus.Dictionary({uuid('1826'): dbus.Array(MACHINES[strap.kind][0], signature='y', variant_level=1)},
                                   signature='sv', variant_level=1)
            device.props[DEVICE]['ServiceData'] = data
            device.EmitSignal('org.freedesktop.DBus.Properties', 'PropertiesChanged', 'sa{sv}as', [DEVICE, {'ServiceData': data}, []])
        if self.args.connected:
            self.connect(strap, counted=False)

    def connect(self, strap, counted=True):
        if counted:
            self.count('Connect')
        if counted and self.connect_failures:
            name, text = self.connect_failures.pop(0)
            raise dbus.exceptions.DBusException(text, name=name)
        if not self.powered:
            raise error('NotReady', 'Resource Not Ready')
        if time.monotonic() < strap.off_until:
            raise error('Failed', 'Software caused connection abort')
        if strap.connected:
            raise error('AlreadyConnected', 'Already Connected')
        strap.connected = True
        if not self.args.connected_unsignalled:
            self.device(strap).UpdateProperties(DEVICE, {'Connected': dbus.Boolean(True, variant_level=1)})
        GLib.timeout_add(30, lambda: self.resolve(strap) and False)

    def disconnect(self, strap):
        self.count('Disconnect')
        if not strap.connected:
            raise error('NotConnected', 'Not Connected')
        self.drop(strap)

    def device(self, strap):
        return self.objects()[strap.path(self)]

    def resolve(self, strap):
        if not strap.connected:
            return True
        base = strap.path(self)
        hr_service, battery_service = base + '/service000c', base + '/service0012'
        if self.hide_heart_rate:
            strap.resolved = True
            self.device(strap).UpdateProperties(DEVICE, {'ServicesResolved': dbus.Boolean(True, variant_level=1)})
            return True
        service_uuid, measurement_uuid, _ = KINDS[strap.kind]
        self.add_service(hr_service, base, service_uuid)
        hr_props = {'Flags': dbus.Array(['notify'], signature='s'), 'Notifying': dbus.Boolean(strap.session)}
        if self.args.acquire:
            hr_props['NotifyAcquired'] = dbus.Boolean(False)
        self.add_char(hr_service + '/char000d', hr_service, measurement_uuid, hr_props, strap, measurement=True)
        if strap.kind in MACHINES:
            self.add_char(hr_service + '/char0010', hr_service, '2acc', {'Flags': dbus.Array(['read'], signature='s')}, strap,
                          read=lambda: MACHINES[strap.kind][1])
        if strap.kind == 'hr':
            self.add_char(hr_service + '/char0010', hr_service, '2a38', {'Flags': dbus.Array(['read'], signature='s')}, strap,
                          read=lambda: [1])
        self.add_service(battery_service, base, '180f')
        self.add_char(battery_service + '/char0013', battery_service, '2a19',
                      {'Flags': dbus.Array(['read', 'notify'], signature='s'), 'Notifying': dbus.Boolean(False)}, strap,
                      read=lambda: [strap.battery])
        strap.resolved = True
        self.device(strap).UpdateProperties(DEVICE, {'ServicesResolved': dbus.Boolean(True, variant_level=1)})
        return True

    def add_service(self, path, device, short):
        props = {'UUID': dbus.String(uuid(short)), 'Device': dbus.ObjectPath(device), 'Primary': dbus.Boolean(True)}
        self.main.AddObject(path, SERVICE, props, [])
        self.emit_added(path, {SERVICE: props})

    def add_char(self, path, service, short, extra, strap, measurement=False, read=None):
        props = {'UUID': dbus.String(uuid(short)), 'Service': dbus.ObjectPath(service), 'Value': dbus.Array([], signature='y')}
        props.update(extra)
        methods = [('ReadValue', 'a{sv}', 'ay', lambda char, options: self.read(read))]
        if measurement:
            methods += [('StartNotify', '', '', lambda char: self.start_notify(strap)),
                        ('StopNotify', '', '', lambda char: self.stop_notify(strap))]
            if self.args.acquire:
                methods.append(('AcquireNotify', 'a{sv}', 'hq', lambda char, options: self.acquire(strap)))
        else:
            methods += [('StartNotify', '', '', lambda char: self.count('StartNotify(other)')),
                        ('StopNotify', '', '', lambda char: None)]
        self.main.AddObject(path, CHAR, props, methods)
        self.emit_added(path, {CHAR: props})

    def read(self, read):
        self.count('ReadValue')
        return dbus.Array(read() if read else [], signature='y')

    def hr_char(self, strap):
        return self.objects().get(strap.path(self) + '/service000c/char000d')

    def start_notify(self, strap):
        self.count('StartNotify')
        if strap.acquired:
            raise error('NotPermitted', 'Notify acquired')
        if strap.session:
            raise error('InProgress', 'In Progress')
        strap.session = True
        self.hr_char(strap).UpdateProperties(CHAR, {'Notifying': dbus.Boolean(True, variant_level=1)})

    def stop_notify(self, strap):
        self.count('StopNotify')
        strap.session = False
        char = self.hr_char(strap)
        if char:
            char.UpdateProperties(CHAR, {'Notifying': dbus.Boolean(False, variant_level=1)})

    def acquire(self, strap):
        self.count('AcquireNotify')
        if strap.acquired:
            raise error('NotPermitted', 'Notify acquired')
        if strap.session:
            raise error('InProgress', 'In Progress')
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        theirs.setblocking(False)  # as bluetoothd hands it out (O_NONBLOCK travels with the fd)
        strap.acquired = ours
        self.hr_char(strap).UpdateProperties(CHAR, {'NotifyAcquired': dbus.Boolean(True, variant_level=1)})
        GLib.io_add_watch(ours.fileno(), GLib.IO_HUP | GLib.IO_ERR, lambda *_: self.release(strap, ours) and False)
        fd = dbus.types.UnixFd(theirs)  # dbus-python duplicates it
        theirs.close()
        return (fd, dbus.UInt16(23))

    def release(self, strap, sock):
        if strap.acquired is sock:
            strap.acquired = None
            sock.close()
            char = self.hr_char(strap)
            if char:
                char.UpdateProperties(CHAR, {'NotifyAcquired': dbus.Boolean(False, variant_level=1)})
        return True

    def drop(self, strap, quietly=False):
        if not strap.connected:
            return
        strap.connected = strap.resolved = False
        if strap.acquired:
            strap.acquired.close()
            strap.acquired = None
        base = strap.path(self)
        for path in sorted([p for p in self.objects() if p.startswith(base + '/')], reverse=True):
            interfaces = list(self.objects()[path].props.keys())
            self.main.RemoveObject(path)
            if not quietly:
                self.emit_removed(path, interfaces)
        if not quietly:
            self.device(strap).UpdateProperties(DEVICE, {'ServicesResolved': dbus.Boolean(False, variant_level=1),
                                                         'Connected': dbus.Boolean(False, variant_level=1)})

    # --- the strap's clock -----------------------------------------------------------------
    def tick(self, straps):
        if time.monotonic() >= self.silent_until:
            for strap in straps:
                if strap.next_rate <= self.args.count and strap.connected and strap.resolved:
                    self.notify(strap)
        return True

    def notify(self, strap):
        rate = strap.next_rate
        value = KINDS[strap.kind][2](rate)
        if strap.acquired:
            try:
                strap.acquired.send(value)
            except OSError:
                return
        elif strap.session:
            self.hr_char(strap).UpdateProperties(CHAR, {'Value': dbus.Array(value, signature='y', variant_level=1)})
        else:
            return
        strap.sent.append(rate)
        strap.next_rate += 1

    # --- faults ------------------------------------------------------------------------------
    def strap(self, address):
        return next(s for s in self.straps if s.address == address)

    def burst_then_drop(self, strap, count):
        """Values queued in the socket (or signalled) right before the hang-up: a client that
        closes its end when the link drops, instead of reading to the end, loses them."""
        for _ in range(count):
            if strap.next_rate <= self.args.count:
                self.notify(strap)
        self.drop(strap)

    def strap_off(self, address, seconds):
        strap = self.strap(address)
        strap.off_until = time.monotonic() + seconds
        self.drop(strap)

    def set_powered(self, powered):
        self.powered = powered
        if not powered:
            for strap in self.straps:
                self.drop(strap)
        self.objects()[f'/org/bluez/{self.adapter_name}'].UpdateProperties(ADAPTER, {'Powered': dbus.Boolean(powered, variant_level=1)})

    def remove_adapter(self):
        for strap in self.straps:
            self.drop(strap, quietly=True)
        bluez5.RemoveAdapterWithDevices(self.main, self.adapter_name)

    def re_add_adapter(self, name):
        self.adapter_name = name
        self.populate()

    def restart(self, seconds):
        self.peripheral.forget()
        for strap in self.straps:
            self.drop(strap, quietly=True)
        for path in sorted([p for p in self.objects() if p.startswith('/org/bluez/')], reverse=True):
            self.main.RemoveObject(path)
        self.bus.release_name('org.bluez')
        GLib.timeout_add(int(seconds * 1000), self.come_back)

    def come_back(self):
        self.bus.request_name('org.bluez')
        self.populate()
        return False


def method_with_sender(obj, interface, name, in_sig, out_sig, handler):
    """A dbusmock method that also gets the caller's unique name (dbusmock's own do not): handler(sender, *args)."""
    if in_sig == 'o':
        def method(self, a, sender=None):
            return handler(sender, a)
    else:
        def method(self, a, b, sender=None):
            return handler(sender, a, b)
    dbus_method = dbus.service.method(interface, in_signature=in_sig, out_signature=out_sig, sender_keyword='sender')(method)
    dbus_method.__name__ = name
    obj.methods.setdefault(interface, {})[name] = (in_sig, out_sig, '', dbus_method)


class PeripheralRole:
    """bluetoothd's side of a program that is a peripheral, with a central's subscriptions."""
    GATT, ADV = 'org.bluez.GattManager1', 'org.bluez.LEAdvertisingManager1'

    def __init__(self, bus, fake):
        self.bus, self.fake = bus, fake
        self.app = None    # (sender, root, {path: {interface: props}})
        self.adv = None    # (sender, path, props)
        self.received = {}  # uuid -> [bytes]
        self.watch = None
        self.match = None

    def serve(self, adapter):
        adapter.props.setdefault(self.GATT, {})
        adapter.AddProperties(self.ADV, {'ActiveInstances': dbus.Byte(0), 'SupportedInstances': dbus.Byte(5)})
        method_with_sender(adapter, self.GATT, 'RegisterApplication', 'oa{sv}', '', self.register_app)
        method_with_sender(adapter, self.GATT, 'UnregisterApplication', 'o', '', self.unregister_app)
        method_with_sender(adapter, self.ADV, 'RegisterAdvertisement', 'oa{sv}', '', self.register_adv)
        method_with_sender(adapter, self.ADV, 'UnregisterAdvertisement', 'o', '', self.unregister_adv)

    def managed(self, sender, path):
        return self.bus.call_blocking(sender, path, OM, 'GetManagedObjects', '', [], timeout=5)

    def register_app(self, sender, root, options):
        self.fake.count('RegisterApplication')
        if self.app:
            raise error('AlreadyExists', 'Already Exists')
        objects = self.managed(sender, root)
        if not any(SERVICE in interfaces for interfaces in objects.values()):
            raise error('Failed', 'No object received')
        self.app = (sender, str(root), objects)
        self.follow(sender)

    def register_adv(self, sender, path, options):
        self.fake.count('RegisterAdvertisement')
        if self.adv:
            raise error('AlreadyExists', 'Already Exists')
        objects = self.managed(sender, path)
        props = objects.get(path, {}).get('org.bluez.LEAdvertisement1')
        if props is None:
            raise error('Failed', 'Failed to parse advertisement.')
        self.adv = (sender, str(path), props)
        self.follow(sender)

    def unregister_app(self, sender, root):
        self.fake.count('UnregisterApplication')
        if not self.app or self.app[1] != root:
            raise error('DoesNotExist', 'Does Not Exist')
        self.app = None

    def unregister_adv(self, sender, path):
        self.fake.count('UnregisterAdvertisement')
        if not self.adv or self.adv[1] != path:
            raise error('DoesNotExist', 'Does Not Exist')
        self.adv = None

    def follow(self, sender):
        """bluetoothd drops what a client registered when it leaves the bus."""
        if self.watch is None:
            self.watch = self.bus.watch_name_owner(sender, lambda owner: owner or self.forget())
        if self.match is None:
            self.match = self.bus.add_signal_receiver(self.changed, 'PropertiesChanged', 'org.freedesktop.DBus.Properties',
                                                      sender, None, path_keyword='path')

    def forget(self):
        self.app = self.adv = None
        self.received.pop('subscribed', None)
        if self.watch is not None:
            self.watch.cancel()
        if self.match is not None:
            self.match.remove()
        self.watch = self.match = None

    def char_path(self, short):
        for path, interfaces in (self.app[2] if self.app else {}).items():
            if CHAR in interfaces and str(interfaces[CHAR]['UUID']) == uuid(short):
                return path
        raise error('DoesNotExist', f'no characteristic {short}')

    def subscribe(self, short):
        path = self.char_path(short)
        self.received.setdefault(short, [])
        self.bus.call_blocking(self.app[0], path, CHAR, 'StartNotify', '', [], timeout=5)
        self.received.setdefault('subscribed', []).append(path)
        return True

    def unsubscribe(self, short):
        path = self.char_path(short)
        self.bus.call_blocking(self.app[0], path, CHAR, 'StopNotify', '', [], timeout=5)
        self.received['subscribed'].remove(path)

    def read(self, short):
        return self.bus.call_blocking(self.app[0], self.char_path(short), CHAR, 'ReadValue', 'a{sv}', [{}], timeout=5)

    def changed(self, interface, changed, invalidated, path=None):
        if interface != CHAR or 'Value' not in changed or not self.app or path not in self.received.get('subscribed', []):
            return
        short = str(self.app[2][path][CHAR]['UUID'])[4:8]
        self.received.setdefault(short, []).append(bytes(changed['Value']))


def export_control(bus, fake):
    """The fault switchboard, on its own bus name so that it stays while org.bluez goes.
    A dbusmock object, because dbusmock replaces dbus-python's method lookup for the process."""
    name = dbus.service.BusName(CONTROL, bus)
    control = mockobject.DBusMockObject(name, '/hrtest', CONTROL, {}, os.devnull)
    control.AddMethods(CONTROL, [
        ('Silence', 'd', '', lambda _, seconds: setattr(fake, 'silent_until', time.monotonic() + seconds)),
        ('DropLink', 's', '', lambda _, address: fake.drop(fake.strap(address))),
        ('BurstThenDrop', 'su', '', lambda _, address, count: fake.burst_then_drop(fake.strap(address), count)),
        ('StrapOff', 'sd', '', lambda _, address, seconds: fake.strap_off(address, seconds)),
        ('SetPowered', 'b', '', lambda _, powered: fake.set_powered(powered)),
        ('RemoveAdapter', '', '', lambda _: fake.remove_adapter()),
        ('ReAddAdapter', 's', '', lambda _, name: fake.re_add_adapter(name)),
        ('Restart', 'd', '', lambda _, seconds: fake.restart(seconds)),
        ('HideHeartRate', 'b', '', lambda _, hidden: setattr(fake, 'hide_heart_rate', hidden)),
        ('FailConnects', 'ssu', '', lambda _, name, text, times: fake.connect_failures.extend([(name, text)] * times)),
        ('Wake', 's', '', lambda _, address: fake.wake(address)),
        ('Sent', 's', 'aq', lambda _, address: dbus.Array(fake.strap(address).sent, signature='q')),
        ('Calls', 's', 'u', lambda _, method: dbus.UInt32(fake.calls.get(method, 0))),
        ('Peripheral', '', 'bb', lambda _: (fake.peripheral.app is not None, fake.peripheral.adv is not None)),
        ('Advertised', '', 'a{sv}', lambda _: fake.peripheral.adv[2] if fake.peripheral.adv else {}),
        ('Subscribe', 's', 'b', lambda _, short: fake.peripheral.subscribe(short)),
        ('Unsubscribe', 's', '', lambda _, short: fake.peripheral.unsubscribe(short)),
        ('Received', 's', 'aay', lambda _, short: dbus.Array([dbus.ByteArray(v) for v in fake.peripheral.received.get(short, [])],
                                                            signature='ay')),
        ('ReadApp', 's', 'ay', lambda _, short: fake.peripheral.read(short)),
    ])
    return control


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--straps', default='F1:5A:17:00:00:01=HRM-Sim 1', help='ADDRESS=NAME[=rsc|treadmill|bike],… (a foot pod, a fitness machine)')
    parser.add_argument('--interval', type=int, default=20, help='ms between notifications')
    parser.add_argument('--count', type=int, default=1_000_000, help='stop after this many values')
    parser.add_argument('--spread', action='store_true', help="each sensor on a clock of its own, phases evenly apart")
    parser.add_argument('--no-acquire', dest='acquire', action='store_false', help='offer StartNotify only')
    parser.add_argument('--uuids', default='180d,180f', help='services the straps advertise (180f alone: not a strap)')
    parser.add_argument('--connected', action='store_true', help='straps start connected (a crashed run left the link up)')
    parser.add_argument('--connected-unsignalled', action='store_true',
                        help="Connect never turns Connected true, only ServicesResolved (bluetoothd's race: the "
                             "ATT socket's callback marks the link up unsignalled, then the kernel's Device Connected "
                             "event finds it up and signals nothing)")
    parser.add_argument('--unknown', default='', help='ADDRESS,… not in the tree until discovery sees them advertising')
    parser.add_argument('--asleep', default='', help='ADDRESS,… not advertising until Wake')
    args = parser.parse_args()
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    fake = Fake(args, bus)
    control = export_control(bus, fake)  # noqa: F841 (kept alive for the main loop)
    print('ready', flush=True)
    GLib.MainLoop().run()


if __name__ == '__main__':
    main()
