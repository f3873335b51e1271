import Sensors

/// The HCI events that open and close an LE link, which is all an import needs from the
/// controller's events: which device a connection handle belongs to, and when it went away.
/// (Bluetooth Core 5.x, Vol 4 Part E, 7.7.5 and 7.7.65.)
enum HCILinkEvent: Equatable {
    /// LE Connection Complete, LE Enhanced Connection Complete (v1 and v2) with success.
    case connected(handle: UInt16, peer: String)
    /// Disconnection Complete with success, with the HCI reason code.
    case disconnected(handle: UInt16, reason: UInt8)

    private static let disconnectionComplete: UInt8 = 0x05
    private static let leMeta: UInt8 = 0x3E
    private static let leConnectionSubevents: Set<UInt8> = [0x01, 0x0A, 0x29]

    /// Decodes an event packet (`code`, parameter length, parameters): nil for every other event
    /// and for a failed connect or disconnect. A packet whose parameter length disagrees with its
    /// size is corrupt, whatever event it is.
    static func decode(_ packet: ArraySlice<UInt8>) throws(BtsnoopError) -> HCILinkEvent? {
        guard packet.count >= 2 else {
            throw BtsnoopError(offset: packet.startIndex, "HCI event packet of \(packet.count) bytes has no header")
        }
        let code = packet[packet.startIndex]
        let declared = Int(packet[packet.startIndex + 1])
        let parameters = packet.dropFirst(2)
        guard parameters.count == declared else {
            throw BtsnoopError(offset: packet.startIndex, "HCI event 0x\(Hex.encode([code])) declares \(declared) parameter bytes but has \(parameters.count)")
        }
        switch code {
        case disconnectionComplete:
            // status, handle, reason
            try require(4, in: parameters, "Disconnection Complete")
            guard parameters[parameters.startIndex] == 0 else { return nil }
            return .disconnected(handle: handle(parameters, at: 1), reason: parameters[parameters.startIndex + 3])
        case leMeta:
            guard let subevent = parameters.first, leConnectionSubevents.contains(subevent) else { return nil }
            // subevent, status, handle, role, peer address type, peer address (6, little-endian), …
            try require(12, in: parameters, "LE Connection Complete")
            guard parameters[parameters.startIndex + 1] == 0 else { return nil }
            let address = parameters[(parameters.startIndex + 6)..<(parameters.startIndex + 12)]
            return .connected(handle: handle(parameters, at: 2), peer: address.reversed().map { Hex.encode([$0]).uppercased() }.joined(separator: ":"))
        default:
            return nil
        }
    }

    private static func require(_ count: Int, in parameters: ArraySlice<UInt8>, _ name: String) throws(BtsnoopError) {
        guard parameters.count >= count else {
            throw BtsnoopError(offset: parameters.startIndex, "\(name) event has \(parameters.count) parameter bytes, at least \(count) expected")
        }
    }

    /// A connection handle: 12 bits, little-endian.
    private static func handle(_ parameters: ArraySlice<UInt8>, at index: Int) -> UInt16 {
        let low = parameters[parameters.startIndex + index], high = parameters[parameters.startIndex + index + 1]
        return (UInt16(high) << 8 | UInt16(low)) & 0x0FFF
    }
}
