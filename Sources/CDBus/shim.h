// libdbus-1 for Swift: the system library the DBus module wraps (pkg-config dbus-1).
#include <dbus/dbus.h>
