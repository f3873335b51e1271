/// Typed views of a decoded value. Each answers nil when the value has another type, so
/// callers reading a peer's data never trap on a surprise.
extension BusValue {
    /// The value inside any number of variant wrappers.
    public var unwrapped: BusValue {
        if case let .variant(inner) = self { return inner.unwrapped }
        return self
    }

    public var string: String? {
        switch unwrapped {
        case let .string(text), let .objectPath(text), let .signature(text): text
        default: nil
        }
    }

    public var bool: Bool? {
        if case let .boolean(value) = unwrapped { return value }
        return nil
    }

    public var bytes: [UInt8]? {
        switch unwrapped {
        case let .bytes(bytes): return bytes
        case let .array(element, values) where element == "y":
            return values.compactMap { if case let .byte(byte) = $0 { byte } else { nil } }
        default: return nil
        }
    }

    /// Any integer type, widened; nil for other types.
    public var integer: Int64? {
        switch unwrapped {
        case let .byte(value): Int64(value)
        case let .int16(value): Int64(value)
        case let .uint16(value): Int64(value)
        case let .int32(value): Int64(value)
        case let .uint32(value): Int64(value)
        case let .int64(value): value
        case let .uint64(value): Int64(exactly: value)
        default: nil
        }
    }

    /// A `d`; nil for other types.
    public var double: Double? {
        if case let .double(value) = unwrapped { return value }
        return nil
    }

    public var array: [BusValue]? {
        switch unwrapped {
        case let .array(_, values): values
        case let .bytes(bytes): bytes.map(BusValue.byte)
        default: nil
        }
    }

    public var strings: [String]? {
        array?.compactMap(\.string)
    }

    public var fileDescriptor: UnixFileDescriptor? {
        if case let .unixFD(descriptor) = unwrapped { return descriptor }
        return nil
    }

    /// A dictionary with string-like keys (`a{sv}`, `a{oa{sa{sv}}}`, …), values as they are
    /// (variants unwrapped). Later duplicate keys win.
    public var stringKeyedDictionary: [String: BusValue]? {
        guard case let .dictionary(_, _, entries) = unwrapped else { return nil }
        var result: [String: BusValue] = [:]
        for entry in entries {
            guard let key = entry.key.string else { continue }
            result[key] = entry.value.unwrapped
        }
        return result
    }
}
