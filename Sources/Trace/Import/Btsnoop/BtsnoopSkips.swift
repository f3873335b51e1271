/// What an import passed over because a capture can have it and still be read: each kind with
/// its count, in the order first met, for one stderr line each. Nothing here is guessed at.
public struct BtsnoopSkips: Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        /// A notification or indication of a handle that neither the capture's discovery nor `--handle` names.
        case unknownHandle(device: String, handle: UInt16)
        /// A Battery Level (0x2A19) value that is not one byte of 0–100.
        case invalidBatteryLevel(device: String)
        /// An ATT PDU too short or inconsistent for its opcode.
        case malformedATT(device: String)
        /// An L2CAP frame from the device on a channel other than ATT's fixed one (0x0004) that may
        /// carry values: an EATT bearer or a profile of the device's own.
        case otherChannel(device: String, channel: UInt16)
        /// L2CAP data on a connection whose LE Connection Complete is not in the capture.
        case unknownConnection(handle: UInt16)
        /// An ACL continuation fragment with no start before it (the capture began mid-frame).
        case continuationWithoutStart
        /// An L2CAP frame that a new start or the end of its link cut short.
        case unfinishedFrame
    }

    public private(set) var counts: [Reason: Int] = [:]
    private var order: [Reason] = []

    public var isEmpty: Bool { order.isEmpty }

    mutating func count(_ reason: Reason) {
        if counts[reason] == nil { order.append(reason) }
        counts[reason, default: 0] += 1
    }

    /// One line per reason, first met first.
    public var lines: [String] {
        order.map { reason in "skipped \(counts[reason]!)× \(Self.text(reason))" }
    }

    private static func text(_ reason: Reason) -> String {
        switch reason {
        case let .unknownHandle(device, handle):
            "a value of handle \(handle.hexWord) from \(device), which no GATT discovery in the capture names (name it with --handle \(handle.hexWord)=UUID)"
        case let .invalidBatteryLevel(device):
            "a Battery Level from \(device) that is not one byte of 0–100"
        case let .malformedATT(device):
            "a malformed ATT PDU from or to \(device)"
        case let .otherChannel(device, channel):
            "an L2CAP frame from \(device) on channel \(channel.hexWord), which is not the ATT channel 0x0004 (EATT or another protocol: not read)"
        case let .unknownConnection(handle):
            "L2CAP data on connection \(handle.hexWord), whose connection is not in the capture (start btmon before the device connects)"
        case .continuationWithoutStart:
            "an ACL continuation fragment without a start (the capture began mid-frame)"
        case .unfinishedFrame:
            "an L2CAP frame cut short by the next frame or the end of its link"
        }
    }
}
