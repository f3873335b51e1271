import Sensors

/// A Disconnection Complete reason as a trace's `disconnected` text: the error's name from the
/// Core specification (Vol 1 Part F) and its code, so the line reads on its own and stays exact.
/// Only the codes an LE link ends with in practice are named; any other keeps its number.
enum HCIDisconnectReason {
    static func text(_ code: UInt8) -> String {
        let number = "0x\(Hex.encode([code]))"
        guard let name = names[code] else { return "HCI error \(number)" }
        return "\(name) (\(number))"
    }

    private static let names: [UInt8: String] = [
        0x05: "authentication failure",
        0x06: "PIN or key missing",
        0x08: "connection timeout",
        0x13: "remote user terminated connection",
        0x14: "remote device terminated connection due to low resources",
        0x15: "remote device terminated connection due to power off",
        0x16: "connection terminated by local host",
        0x1A: "unsupported remote feature",
        0x1F: "unspecified error",
        0x22: "LL response timeout",
        0x28: "instant passed",
        0x3B: "unacceptable connection parameters",
        0x3D: "connection terminated due to MIC failure",
        0x3E: "connection failed to be established",
    ]
}
