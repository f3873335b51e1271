import CDBus

/// Writes `BusValue`s into a libdbus message. Values libdbus would reject with an abort
/// (bad object paths, signatures, UTF-8 with NUL) are checked here first and thrown instead.
enum MessageEncoding {
    static func append(_ values: [BusValue], to message: OpaquePointer) throws(BusError) {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for value in values { try append(value, to: &iterator) }
    }

    static func append(_ value: BusValue, to iterator: inout DBusMessageIter) throws(BusError) {
        switch value {
        case let .byte(number): try appendBasic(number, type: "y", to: &iterator)
        case let .boolean(flag): try appendBasic(dbus_bool_t(flag ? 1 : 0), type: "b", to: &iterator)
        case let .int16(number): try appendBasic(number, type: "n", to: &iterator)
        case let .uint16(number): try appendBasic(number, type: "q", to: &iterator)
        case let .int32(number): try appendBasic(number, type: "i", to: &iterator)
        case let .uint32(number): try appendBasic(number, type: "u", to: &iterator)
        case let .int64(number): try appendBasic(number, type: "x", to: &iterator)
        case let .uint64(number): try appendBasic(number, type: "t", to: &iterator)
        case let .double(number): try appendBasic(number, type: "d", to: &iterator)
        case let .string(text):
            guard !text.utf8.contains(0) else { throw .invalidArgument("string contains a NUL byte") }
            try appendString(text, type: "s", to: &iterator)
        case let .objectPath(path):
            guard BusNames.isValidObjectPath(path) else { throw .invalidArgument("'\(path)' is not a valid object path") }
            try appendString(path, type: "o", to: &iterator)
        case let .signature(text):
            guard BusNames.isValidSignature(text) else { throw .invalidArgument("'\(text)' is not a valid signature") }
            try appendString(text, type: "g", to: &iterator)
        case let .unixFD(holder):
            guard let descriptor = holder.descriptor else { throw .invalidArgument("file descriptor was already taken") }
            try appendBasic(descriptor, type: "h", to: &iterator) // libdbus duplicates it
        case let .bytes(bytes):
            try container(type: "a", contents: "y", in: &iterator) { (inner: inout DBusMessageIter) throws(BusError) in
                guard !bytes.isEmpty else { return }
                let ok = bytes.withUnsafeBufferPointer { buffer in
                    var base = buffer.baseAddress
                    return dbus_message_iter_append_fixed_array(&inner, typeCode("y"), &base, Int32(buffer.count))
                }
                guard ok != 0 else { throw .outOfMemory }
            }
        case let .array(element, values):
            guard BusNames.isValidSignature(element), BusNames.isSingleCompleteType(element) else {
                throw .invalidArgument("'\(element)' is not a single complete type")
            }
            for item in values where item.signature != element {
                throw .invalidArgument("array of '\(element)' holds a '\(item.signature)'")
            }
            try container(type: "a", contents: element, in: &iterator) { (inner: inout DBusMessageIter) throws(BusError) in
                for item in values { try append(item, to: &inner) }
            }
        case let .dictionary(key, valueType, entries):
            let entrySignature = "{" + key + valueType + "}"
            for entry in entries where entry.key.signature != key || entry.value.signature != valueType {
                throw .invalidArgument("dictionary a\(entrySignature) holds {\(entry.key.signature)\(entry.value.signature)}")
            }
            try container(type: "a", contents: entrySignature, in: &iterator) { (inner: inout DBusMessageIter) throws(BusError) in
                for entry in entries {
                    try container(type: "e", contents: nil, in: &inner) { (pair: inout DBusMessageIter) throws(BusError) in
                        try append(entry.key, to: &pair)
                        try append(entry.value, to: &pair)
                    }
                }
            }
        case let .structure(fields):
            guard !fields.isEmpty else { throw .invalidArgument("a structure needs at least one field") }
            try container(type: "r", contents: nil, in: &iterator) { (inner: inout DBusMessageIter) throws(BusError) in
                for field in fields { try append(field, to: &inner) }
            }
        case let .variant(inner):
            try container(type: "v", contents: inner.signature, in: &iterator) { (contents: inout DBusMessageIter) throws(BusError) in
                try append(inner, to: &contents)
            }
        }
    }

    private static func appendBasic<T: BitwiseCopyable>(_ value: T, type: Character, to iterator: inout DBusMessageIter) throws(BusError) {
        var copy = value
        guard dbus_message_iter_append_basic(&iterator, typeCode(type), &copy) != 0 else { throw .outOfMemory }
    }

    private static func appendString(_ text: String, type: Character, to iterator: inout DBusMessageIter) throws(BusError) {
        let ok = text.withCString { pointer in
            var address: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iterator, typeCode(type), &address)
        }
        guard ok != 0 else { throw .outOfMemory }
    }

    private static func container(
        type: Character, contents: String?, in iterator: inout DBusMessageIter,
        _ body: (inout DBusMessageIter) throws(BusError) -> Void
    ) throws(BusError) {
        var inner = DBusMessageIter()
        let opened: dbus_bool_t = if let contents {
            contents.withCString { dbus_message_iter_open_container(&iterator, typeCode(type), $0, &inner) }
        } else {
            dbus_message_iter_open_container(&iterator, typeCode(type), nil, &inner)
        }
        guard opened != 0 else { throw .outOfMemory }
        do {
            try body(&inner)
        } catch {
            dbus_message_iter_abandon_container(&iterator, &inner)
            throw error
        }
        guard dbus_message_iter_close_container(&iterator, &inner) != 0 else { throw .outOfMemory }
    }
}

/// libdbus type codes are ASCII letters ('y', 'a', 'e' for dict entry, 'r' for struct).
func typeCode(_ letter: Character) -> Int32 { Int32(letter.asciiValue!) }
