import CDBus

/// Reads a libdbus message body into `BusValue`s. Received file descriptors come out already
/// duplicated by libdbus; `UnixFileDescriptor` owns them.
enum MessageDecoding {
    static func values(of message: OpaquePointer) -> [BusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0 else { return [] }
        var values: [BusValue] = []
        repeat {
            guard let value = value(at: &iterator) else { break }
            values.append(value)
        } while dbus_message_iter_next(&iterator) != 0
        return values
    }

    static func value(at iterator: inout DBusMessageIter) -> BusValue? {
        let type = dbus_message_iter_get_arg_type(&iterator)
        switch UInt8(truncatingIfNeeded: type) {
        case UInt8(ascii: "y"): return .byte(basic(&iterator, as: UInt8.self))
        case UInt8(ascii: "b"): return .boolean(basic(&iterator, as: dbus_bool_t.self) != 0)
        case UInt8(ascii: "n"): return .int16(basic(&iterator, as: Int16.self))
        case UInt8(ascii: "q"): return .uint16(basic(&iterator, as: UInt16.self))
        case UInt8(ascii: "i"): return .int32(basic(&iterator, as: Int32.self))
        case UInt8(ascii: "u"): return .uint32(basic(&iterator, as: UInt32.self))
        case UInt8(ascii: "x"): return .int64(basic(&iterator, as: Int64.self))
        case UInt8(ascii: "t"): return .uint64(basic(&iterator, as: UInt64.self))
        case UInt8(ascii: "d"): return .double(basic(&iterator, as: Double.self))
        case UInt8(ascii: "s"): return .string(string(&iterator))
        case UInt8(ascii: "o"): return .objectPath(string(&iterator))
        case UInt8(ascii: "g"): return .signature(string(&iterator))
        case UInt8(ascii: "h"): return .unixFD(UnixFileDescriptor(owning: basic(&iterator, as: Int32.self)))
        case UInt8(ascii: "a"): return array(at: &iterator)
        case UInt8(ascii: "r"):
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return .structure(elements(of: &inner))
        case UInt8(ascii: "v"):
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return value(at: &inner).map(BusValue.variant)
        default:
            return nil // DBUS_TYPE_INVALID: end of the container
        }
    }

    private static func array(at iterator: inout DBusMessageIter) -> BusValue {
        let element = signature(of: &iterator).dropFirst() // drop the leading 'a'
        var inner = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &inner)
        if element == "y" {
            var base: UnsafeMutableRawPointer?
            var count: Int32 = 0
            dbus_message_iter_get_fixed_array(&inner, &base, &count)
            guard let base, count > 0 else { return .bytes([]) }
            return .bytes(Array(UnsafeRawBufferPointer(start: base, count: Int(count))))
        }
        if element.hasPrefix("{") {
            let body = element.dropFirst().dropLast() // "{sv}" -> "sv"; a key is always one basic type
            let keySignature = String(body.prefix(1))
            let valueSignature = String(body.dropFirst())
            var entries: [BusDictionaryEntry] = []
            while dbus_message_iter_get_arg_type(&inner) == typeCode("e") {
                var pair = DBusMessageIter()
                dbus_message_iter_recurse(&inner, &pair)
                let fields = elements(of: &pair)
                if fields.count == 2 { entries.append(BusDictionaryEntry(fields[0], fields[1])) }
                dbus_message_iter_next(&inner)
            }
            return .dictionary(keySignature: keySignature, valueSignature: valueSignature, entries)
        }
        return .array(elementSignature: String(element), elements(of: &inner))
    }

    private static func elements(of iterator: inout DBusMessageIter) -> [BusValue] {
        var values: [BusValue] = []
        while let value = value(at: &iterator) {
            values.append(value)
            guard dbus_message_iter_next(&iterator) != 0 else { break }
        }
        return values
    }

    private static func basic<T: FixedWidthInteger>(_ iterator: inout DBusMessageIter, as: T.Type) -> T {
        var value: T = 0
        dbus_message_iter_get_basic(&iterator, &value)
        return value
    }

    private static func basic(_ iterator: inout DBusMessageIter, as: Double.Type) -> Double {
        var value: Double = 0
        dbus_message_iter_get_basic(&iterator, &value)
        return value
    }

    private static func string(_ iterator: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iterator, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func signature(of iterator: inout DBusMessageIter) -> String {
        guard let raw = dbus_message_iter_get_signature(&iterator) else { return "" }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }
}
