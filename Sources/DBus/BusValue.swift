/// One D-Bus value with its type, as it travels in a message body. Decoding always yields
/// `.bytes` for `ay` (the shape of every GATT value) so hot paths avoid one enum per byte.
public indirect enum BusValue: Sendable, Equatable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    case unixFD(UnixFileDescriptor)
    /// `ay`
    case bytes([UInt8])
    /// An array of any other element type; `elementSignature` is needed when it is empty.
    case array(elementSignature: String, [BusValue])
    /// `a{KV}`: entries in wire order (D-Bus allows duplicate keys; we keep what came).
    case dictionary(keySignature: String, valueSignature: String, [BusDictionaryEntry])
    case structure([BusValue])
    case variant(BusValue)

    /// The D-Bus type signature of this value.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .bytes: "ay"
        case let .array(element, _): "a" + element
        case let .dictionary(key, value, _): "a{" + key + value + "}"
        case let .structure(fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }
}

public struct BusDictionaryEntry: Sendable, Equatable {
    public var key: BusValue
    public var value: BusValue

    public init(_ key: BusValue, _ value: BusValue) {
        self.key = key
        self.value = value
    }
}

extension BusValue {
    /// `a{sv}`, the shape of D-Bus property maps and BlueZ option dictionaries.
    public static func propertyMap(_ entries: [String: BusValue]) -> BusValue {
        .dictionary(
            keySignature: "s", valueSignature: "v",
            entries.sorted { $0.key < $1.key }.map { BusDictionaryEntry(.string($0.key), .variant($0.value)) }
        )
    }

    /// `as`
    public static func strings(_ values: [String]) -> BusValue {
        .array(elementSignature: "s", values.map(BusValue.string))
    }
}
