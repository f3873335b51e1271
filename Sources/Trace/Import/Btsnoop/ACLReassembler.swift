/// Joins HCI ACL fragments into L2CAP frames, per connection and direction. An ACL packet is a
/// 12-bit connection handle with a packet-boundary flag (2 bits: 01 continues a frame, any
/// other value starts one), a 16-bit data length, and the data; a frame is a 4-byte basic
/// header (payload length, channel id), then the payload, split over as many packets as the
/// controller's buffers need (Core Vol 4 Part E 5.4.2, Vol 3 Part A 3.1).
struct ACLReassembler {
    struct Connection: Hashable {
        var controller: UInt16
        var handle: UInt16
    }

    enum Direction: Hashable {
        case toDevice, fromDevice
    }

    struct Frame: Equatable {
        var connection: Connection
        var channel: UInt16
        var payload: [UInt8]
    }

    private struct Stream: Hashable {
        var connection: Connection
        var direction: Direction
    }

    private static let continuationFlag: UInt16 = 0b01
    private static let basicHeaderSize = 4

    /// The frames begun and not yet complete, by stream.
    private var unfinished: [Stream: [UInt8]] = [:]

    /// Adds one ACL packet; returns the connection it belongs to and the frame it completes, if any.
    /// A continuation without a start (the capture began mid-frame) and a frame cut short by the
    /// next start are counted in `skips`; a packet that cannot be read or overfills its frame ends
    /// the import, since every later frame of that connection would be wrong.
    mutating func add(_ packet: ArraySlice<UInt8>, controller: UInt16, direction: Direction,
                      skips: inout BtsnoopSkips) throws(BtsnoopError) -> (Connection, Frame?) {
        guard packet.count >= 4 else {
            throw BtsnoopError(offset: packet.startIndex, "ACL packet of \(packet.count) bytes has no header")
        }
        let first = packet.startIndex
        let handleAndFlags = UInt16(packet[first + 1]) << 8 | UInt16(packet[first])
        let declared = Int(UInt16(packet[first + 3]) << 8 | UInt16(packet[first + 2]))
        let data = packet.dropFirst(4)
        guard data.count == declared else {
            throw BtsnoopError(offset: first, "ACL packet declares \(declared) data bytes but has \(data.count)")
        }
        let connection = Connection(controller: controller, handle: handleAndFlags & 0x0FFF)
        let stream = Stream(connection: connection, direction: direction)
        var bytes: [UInt8]
        if (handleAndFlags >> 12) & 0b11 == Self.continuationFlag {
            guard let begun = unfinished.removeValue(forKey: stream) else {
                skips.count(.continuationWithoutStart)
                return (connection, nil)
            }
            bytes = begun + data
        } else {
            if unfinished.removeValue(forKey: stream) != nil { skips.count(.unfinishedFrame) }
            bytes = Array(data)
        }
        guard bytes.count >= Self.basicHeaderSize else {
            unfinished[stream] = bytes // the header itself may be split
            return (connection, nil)
        }
        let length = Int(UInt16(bytes[1]) << 8 | UInt16(bytes[0]))
        let channel = UInt16(bytes[3]) << 8 | UInt16(bytes[2])
        let expected = Self.basicHeaderSize + length
        guard bytes.count <= expected else {
            throw BtsnoopError(offset: first, "ACL data runs \(bytes.count - expected) bytes past the end of its \(length)-byte L2CAP frame (connection \(connection.handle.hexWord))")
        }
        guard bytes.count == expected else {
            unfinished[stream] = bytes
            return (connection, nil)
        }
        return (connection, Frame(connection: connection, channel: channel, payload: Array(bytes.dropFirst(Self.basicHeaderSize))))
    }

    /// The link is gone: a frame still unfinished on it never will be.
    mutating func end(_ connection: Connection, skips: inout BtsnoopSkips) {
        for direction in [Direction.toDevice, .fromDevice] where unfinished.removeValue(forKey: Stream(connection: connection, direction: direction)) != nil {
            skips.count(.unfinishedFrame)
        }
    }
}
