import CDBus

/// Validity checks libdbus would otherwise enforce by aborting the process.
enum BusNames {
    static func isValidObjectPath(_ path: String) -> Bool {
        path.withCString { dbus_validate_path($0, nil) != 0 }
    }

    static func isValidSignature(_ signature: String) -> Bool {
        signature.withCString { dbus_signature_validate($0, nil) != 0 }
    }

    static func isSingleCompleteType(_ signature: String) -> Bool {
        signature.withCString { dbus_signature_validate_single($0, nil) != 0 }
    }

    static func isValidInterface(_ name: String) -> Bool {
        name.withCString { dbus_validate_interface($0, nil) != 0 }
    }

    static func isValidMember(_ name: String) -> Bool {
        name.withCString { dbus_validate_member($0, nil) != 0 }
    }

    static func isValidBusName(_ name: String) -> Bool {
        name.withCString { dbus_validate_bus_name($0, nil) != 0 }
    }
}
