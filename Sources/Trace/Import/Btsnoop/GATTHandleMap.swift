import Sensors

/// Which characteristic each attribute handle of a device is, as the capture's own GATT
/// discovery says: the host's Read By Type requests for characteristic declarations (0x2803)
/// and the device's answers (properties, value handle, UUID). Handles belong to the device, not
/// to one connection: a host that cached the database does not discover again after a reconnect.
/// `fallback` (from `--handle`) names handles no discovery in the capture covers.
struct GATTHandleMap {
    static let characteristicDeclaration = BluetoothUUID(assigned: 0x2803)

    private let fallback: [UInt16: BluetoothUUID]
    private var discovered: [String: [UInt16: BluetoothUUID]] = [:]
    /// Connections whose outstanding request is a characteristic discovery. ATT allows one
    /// request at a time per direction, so the device's next response answers it.
    private var discovering: Set<ACLReassembler.Connection> = []

    init(fallback: [UInt16: BluetoothUUID]) {
        self.fallback = fallback
    }

    func characteristic(_ handle: UInt16, of device: String) -> BluetoothUUID? {
        discovered[device]?[handle] ?? fallback[handle]
    }

    /// The characteristics the capture's discovery found on a device.
    func characteristics(of device: String) -> Set<BluetoothUUID> {
        discovered[device].map { Set($0.values) } ?? []
    }

    /// A request from the host.
    mutating func sent(_ pdu: ATTPDU, on connection: ACLReassembler.Connection) {
        if case let .readByTypeRequest(type) = pdu {
            if type == Self.characteristicDeclaration { discovering.insert(connection) } else { discovering.remove(connection) }
        }
    }

    /// A response from the device; false when it answers a discovery with declarations that cannot be read.
    mutating func received(_ pdu: ATTPDU, on connection: ACLReassembler.Connection, from device: String) -> Bool {
        switch pdu {
        case let .readByTypeResponse(attributes):
            guard discovering.remove(connection) != nil else { return true }
            var declarations: [(UInt16, BluetoothUUID)] = []
            for attribute in attributes {
                // properties (1), value handle (2), UUID (2 or 16)
                guard attribute.value.count > 3, let uuid = ATTPDU.uuid(attribute.value.dropFirst(3)) else { return false }
                declarations.append((ATTPDU.word(attribute.value[...], at: 1), uuid))
            }
            for (handle, uuid) in declarations { discovered[device, default: [:]][handle] = uuid }
            return true
        case .errorResponse:
            discovering.remove(connection)
            return true
        case .values, .readByTypeRequest, .other:
            return true
        }
    }

    mutating func end(_ connection: ACLReassembler.Connection) {
        discovering.remove(connection)
    }
}
