#!/usr/bin/python3
"""A logind-shaped org.freedesktop.login1 for tests, on python-dbusmock's logind template (Debian
python3-dbusmock): Manager.Inhibit hands out one end of a pipe and notices when the holder closes
it, as logind does with its inhibitor locks. It shares no code with hrbridge's D-Bus layer. Run it
on a private bus (DBUS_SYSTEM_BUS_ADDRESS).

On hr.test.FakeLogind at /hrtest:
  Sleep()          PrepareForSleep(true), as logind sends it before suspending
  Wake()           PrepareForSleep(false), as logind sends it after resume
  Held() -> u      sleep delay locks still open (the pipe's other end not yet closed)
Manager.InhibitDelayMaxUSec is --delay seconds (logind's default: 5). Prints "ready" once on the bus.
"""
import argparse
import os

import dbus
import dbus.mainloop.glib
import dbus.service
from dbusmock import mockobject
from gi.repository import GLib

NAME = 'org.freedesktop.login1'
PATH = '/org/freedesktop/login1'
MANAGER = 'org.freedesktop.login1.Manager'
CONTROL = 'hr.test.FakeLogind'


def held():
    inhibitors = getattr(mockobject, 'inhibitors', [])
    return dbus.UInt32(len([i for i in inhibitors if i[0] == 'sleep' and i[3] == 'delay']))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--delay', type=float, default=5, help='InhibitDelayMaxSec, in seconds')
    args = parser.parse_args()
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    name = dbus.service.BusName(NAME, bus)
    manager = mockobject.DBusMockObject(name, PATH, MANAGER, {}, os.devnull, True)
    mockobject.objects[PATH] = manager
    manager.AddTemplate('logind', dbus.Dictionary({}, signature='sv'))
    manager.AddProperty(MANAGER, 'InhibitDelayMaxUSec', dbus.UInt64(int(args.delay * 1_000_000)))

    control_name = dbus.service.BusName(CONTROL, bus)
    control = mockobject.DBusMockObject(control_name, '/hrtest', CONTROL, {}, os.devnull)
    control.AddMethods(CONTROL, [
        ('Sleep', '', '', lambda _: manager.EmitSignal(MANAGER, 'PrepareForSleep', 'b', [True])),
        ('Wake', '', '', lambda _: manager.EmitSignal(MANAGER, 'PrepareForSleep', 'b', [False])),
        ('Held', '', 'u', lambda _: held()),
    ])
    print('ready', flush=True)
    GLib.MainLoop().run()


if __name__ == '__main__':
    main()
