#!/usr/bin/python3
"""A D-Bus peer for the DBus module's tests, written on dbus-python so that it shares no
marshalling code with ours. On the session bus (the test's private daemon) as hr.test.Peer:

  hr.test.Peer.Echo(...)      replies with its arguments, same signature, fds duplicated
  hr.test.Peer.Fail()         replies with the error hr.test.Error.Deliberate
  hr.test.Peer.Ignore()       never replies (for timeouts)
  hr.test.Peer.Emit(s text)   emits hr.test.Peer.Ping(text) from /hr/test/child, then replies
  hr.test.Peer.ReleaseName()  gives up the name hr.test.Peer (the connection stays)
  hr.test.Peer.TakeName()     takes it again
Prints "ready" once it owns its name.
"""
import sys

import dbus
import dbus.lowlevel
import dbus.mainloop.glib
from gi.repository import GLib

NAME = 'hr.test.Peer'

dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()


def reply_with(message, *args, signature=None):
    reply = dbus.lowlevel.MethodReturnMessage(message)
    if args:
        reply.append(*args, signature=signature)
    bus.send_message(reply)


def on_message(_bus, message):
    if not isinstance(message, dbus.lowlevel.MethodCallMessage) or message.get_interface() != NAME:
        return dbus.lowlevel.HANDLER_RESULT_NOT_YET_HANDLED
    member = message.get_member()
    if member == 'Echo':
        reply_with(message, *message.get_args_list(), signature=message.get_signature())
    elif member == 'Fail':
        bus.send_message(dbus.lowlevel.ErrorMessage(message, 'hr.test.Error.Deliberate', 'asked to fail'))
    elif member == 'Ignore':
        pass
    elif member == 'Emit':
        signal = dbus.lowlevel.SignalMessage('/hr/test/child', NAME, 'Ping')
        signal.append(message.get_args_list()[0], signature='s')
        bus.send_message(signal)
        reply_with(message)
    elif member == 'ReleaseName':
        bus.release_name(NAME)
        reply_with(message)
    elif member == 'TakeName':
        bus.request_name(NAME)
        reply_with(message)
    else:
        return dbus.lowlevel.HANDLER_RESULT_NOT_YET_HANDLED
    return dbus.lowlevel.HANDLER_RESULT_HANDLED


bus.add_message_filter(on_message)
bus.request_name(NAME)
print('ready', flush=True)
GLib.MainLoop().run()
