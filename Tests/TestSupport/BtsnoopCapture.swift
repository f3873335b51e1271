/// A btsnoop capture on the Linux monitor datalink (as `btmon -w` writes it), built packet by
/// packet for import tests. The layouts are spelled out here, apart from the importer's reader,
/// so a test checks the importer against the format rather than against itself.
public struct BtsnoopCapture {
    /// `btsnoop\0`, version 1, datalink 2001.
    public private(set) var bytes: [UInt8] = Array("btsnoop".utf8) + [0, 0, 0, 0, 1, 0, 0, 0x07, 0xD1]

    /// Unix time 0 in btsnoop time (µs since 0000-01-01).
    public static let unixEpoch: UInt64 = 62_168_256_000_000_000

    public init() {}

    /// Appends a record: `kind` is the monitor opcode (3 event, 4 ACL to the device, 5 ACL from it).
    public mutating func record(kind: UInt16, controller: UInt16 = 0, at unixMicroseconds: Int64, _ packet: [UInt8]) {
        let length = UInt32(packet.count)
        let time = UInt64(Int64(Self.unixEpoch) + unixMicroseconds)
        bytes += bigEndian(length) + bigEndian(length) + bigEndian(UInt32(controller) << 16 | UInt32(kind)) + bigEndian(0)
        bytes += bigEndian(UInt32(time >> 32)) + bigEndian(UInt32(time & 0xFFFF_FFFF))
        bytes += packet
    }

    /// LE Connection Complete (success, central) with `peer` as `AA:BB:…`.
    public mutating func connected(handle: UInt16, peer: String, controller: UInt16 = 0, at time: Int64) {
        let address = peer.split(separator: ":").reversed().map { UInt8($0, radix: 16)! }
        let parameters: [UInt8] = [0x01, 0x00] + littleEndian(handle) + [0x00, 0x01] + address + [0x18, 0, 0, 0, 0x48, 0, 0]
        record(kind: 3, controller: controller, at: time, [0x3E, UInt8(parameters.count)] + parameters)
    }

    /// Disconnection Complete (success).
    public mutating func disconnected(handle: UInt16, reason: UInt8, controller: UInt16 = 0, at time: Int64) {
        record(kind: 3, controller: controller, at: time, [0x05, 4, 0x00] + littleEndian(handle) + [reason])
    }

    /// An L2CAP frame in one ACL packet (packet boundary: start).
    public mutating func l2cap(handle: UInt16, fromDevice: Bool, channel: UInt16, _ payload: [UInt8],
                               controller: UInt16 = 0, at time: Int64) {
        let frame = littleEndian(UInt16(payload.count)) + littleEndian(channel) + payload
        record(kind: fromDevice ? 5 : 4, controller: controller, at: time,
               littleEndian(handle | 0x2000) + littleEndian(UInt16(frame.count)) + frame)
    }

    /// An ATT PDU on CID 0x0004.
    public mutating func att(handle: UInt16, fromDevice: Bool, _ pdu: [UInt8], controller: UInt16 = 0, at time: Int64) {
        l2cap(handle: handle, fromDevice: fromDevice, channel: 0x0004, pdu, controller: controller, at: time)
    }

    /// Characteristic discovery: the host's Read By Type request for 0x2803 and the device's
    /// answer declaring each value handle with its 16-bit UUID.
    public mutating func discovery(handle: UInt16, characteristics: [(valueHandle: UInt16, uuid: UInt16)], at time: Int64) {
        att(handle: handle, fromDevice: false, [0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28], at: time)
        let list = characteristics.flatMap { littleEndian($0.valueHandle - 1) + [0x10] + littleEndian($0.valueHandle) + littleEndian($0.uuid) }
        att(handle: handle, fromDevice: true, [0x09, 7] + list, at: time)
    }

    /// A Handle Value Notification from the device.
    public mutating func notification(handle: UInt16, attribute: UInt16, _ value: [UInt8], at time: Int64) {
        att(handle: handle, fromDevice: true, [0x1B] + littleEndian(attribute) + value, at: time)
    }

    private func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private func littleEndian(_ value: UInt16) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8)]
    }
}
