import Sensors

/// The ATT PDUs an import reads from the fixed ATT channel (L2CAP CID 0x0004): the values a
/// device pushes, and the characteristic discovery that says which characteristic each handle
/// is (Core Vol 3 Part F 3.4). All multi-byte fields are little-endian.
enum ATTPDU: Equatable {
    /// Handle Value Notification (0x1B) or Indication (0x1D): one value; Multiple Handle Value
    /// Notification (0x23, which bluetoothd accepts since 5.62): several.
    case values([Attribute])
    /// Read By Type Request (0x08): the attribute type asked for (0x2803 for characteristic discovery).
    case readByTypeRequest(type: BluetoothUUID)
    /// Read By Type Response (0x09): each attribute's handle and value.
    case readByTypeResponse([Attribute])
    /// Error Response (0x01), here only as the end of the request it answers.
    case errorResponse
    /// Any other opcode: not needed.
    case other

    static let channel: UInt16 = 0x0004

    /// nil for a PDU too short or inconsistent for its opcode: a device's defect, counted and skipped.
    init?(_ pdu: [UInt8]) {
        guard let opcode = pdu.first else { return nil }
        let parameters = pdu.dropFirst()
        switch opcode {
        case 0x1B, 0x1D:
            guard parameters.count >= 2 else { return nil }
            self = .values([Attribute(handle: Self.word(parameters, at: 0), value: Array(parameters.dropFirst(2)))])
        case 0x23:
            // handle, value length, value; repeated
            var attributes: [Attribute] = []
            var rest = parameters
            while !rest.isEmpty {
                guard rest.count >= 4, rest.count - 4 >= Int(Self.word(rest, at: 2)) else { return nil }
                let end = rest.startIndex + 4 + Int(Self.word(rest, at: 2))
                attributes.append(Attribute(handle: Self.word(rest, at: 0), value: Array(rest[(rest.startIndex + 4)..<end])))
                rest = rest[end...]
            }
            guard !attributes.isEmpty else { return nil }
            self = .values(attributes)
        case 0x08:
            // starting handle, ending handle, then a 16- or 128-bit type
            guard let type = Self.uuid(parameters.dropFirst(4)) else { return nil }
            self = .readByTypeRequest(type: type)
        case 0x09:
            guard let length = parameters.first.map(Int.init), length >= 2 else { return nil }
            let list = parameters.dropFirst()
            guard !list.isEmpty, list.count % length == 0 else { return nil }
            self = .readByTypeResponse(stride(from: list.startIndex, to: list.endIndex, by: length).map { start in
                Attribute(handle: Self.word(list[start...], at: 0), value: Array(list[(start + 2)..<(start + length)]))
            })
        case 0x01:
            self = .errorResponse
        default:
            self = .other
        }
    }

    struct Attribute: Equatable {
        var handle: UInt16
        var value: [UInt8]
    }

    static func word(_ bytes: ArraySlice<UInt8>, at index: Int) -> UInt16 {
        UInt16(bytes[bytes.startIndex + index + 1]) << 8 | UInt16(bytes[bytes.startIndex + index])
    }

    /// A UUID as ATT carries it: 2 bytes, or 16 bytes least significant first.
    static func uuid(_ bytes: ArraySlice<UInt8>) -> BluetoothUUID? {
        switch bytes.count {
        case 2:
            return BluetoothUUID(assigned: word(bytes, at: 0))
        case 16:
            let hex = Hex.encode(Array(bytes.reversed()))
            let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
                String(hex.dropFirst(range.lowerBound).prefix(range.count))
            }
            return BluetoothUUID(groups.joined(separator: "-"))
        default:
            return nil
        }
    }
}
