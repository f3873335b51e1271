#if canImport(Glibc)
import Glibc
#endif
import Sensors

/// One event line: `<offset µs> [<sensor>] <kind> [arguments]`; the sensor is named (version 2)
/// only when it is not the strap. Version 2 also has `pause` and `resume`.
///
///     1000000 notify 2a37 0648
///     1000000 connected
///     61000000 disconnected link%20lost
///     0 battery 87
///     0 location 1
///     5000000 note warm-up done
///     1000400 distance notify 2a53 02800200aa
enum TraceEventLine {
    static func format(offset: Int64, event: SensorEvent) -> String {
        let prefix = event.sensor == .strap ? "\(offset)" : "\(offset) \(event.sensor.rawValue)"
        switch event.kind {
        case let .notification(characteristic, value):
            return "\(prefix) notify \(characteristic.shortForm) \(Hex.encode(value))"
        case .connected:
            return "\(prefix) connected"
        case let .disconnected(reason):
            guard let reason, !reason.isEmpty else { return "\(prefix) disconnected" }
            return "\(prefix) disconnected \(TraceEscaping.escape(reason, escapingSpaces: false))"
        case let .battery(level):
            return "\(prefix) battery \(level.percent)"
        case let .bodySensorLocation(location):
            return "\(prefix) location \(location.code)"
        case let .note(text):
            return "\(prefix) note \(TraceEscaping.escape(text, escapingSpaces: false))"
        case .paused:
            return "\(prefix) pause"
        case .resumed:
            return "\(prefix) resume"
        }
    }

    /// Parses an event line (without its newline). The caller has already skipped blanks and comments.
    /// A notification's value is decoded into `valueStorage`, whose buffer is reused when nobody else holds it.
    /// `namesSensors`: the trace's version lets an event name its sensor.
    @inline(__always) // into the reader's loop, up to the one-pass line: nearly every line ends there
    static func parse(
        _ line: UnsafeBufferPointer<UInt8>, namesSensors: Bool, valueStorage: inout [UInt8]
    ) throws(TraceLineError) -> (offset: Int64, sensor: SensorRole, kind: SensorEvent.Kind) {
        if let offset = parseHeartRateNotification(line, valueStorage: &valueStorage) {
            return (offset, .strap, .notification(characteristic: .heartRateMeasurement, value: valueStorage))
        }
        return try parseTokens(line, namesSensors: namesSensors, valueStorage: &valueStorage)
    }

    /// `parse` for any line, token by token.
    private static func parseTokens(
        _ line: UnsafeBufferPointer<UInt8>, namesSensors: Bool, valueStorage: inout [UInt8]
    ) throws(TraceLineError) -> (offset: Int64, sensor: SensorRole, kind: SensorEvent.Kind) {
        var tokens = Tokenizer(line)
        guard let offsetToken = tokens.next() else { throw TraceLineError("empty event line") }
        guard let offset = parseOffset(offsetToken) else {
            throw TraceLineError("offset '\(text(offsetToken))' is not a whole number of microseconds")
        }
        guard var kindToken = tokens.next() else { throw TraceLineError("missing event kind after the offset") }
        var sensor = SensorRole.strap
        if namesSensors, kindToken.matches(Keyword.distance) {
            sensor = .distance
            guard let next = tokens.next() else { throw TraceLineError("missing event kind after the sensor") }
            kindToken = next
        }
        if namesSensors, kindToken.matches(Keyword.pause) {
            try tokens.expectEnd(after: "pause")
            return (offset, sensor, .paused)
        }
        if namesSensors, kindToken.matches(Keyword.resume) {
            try tokens.expectEnd(after: "resume")
            return (offset, sensor, .resumed)
        }
        let kind = try parseKind(kindToken, &tokens, valueStorage: &valueStorage)
        return (offset, sensor, kind)
    }

    private static func parseKind(
        _ kindToken: Slice<UnsafeBufferPointer<UInt8>>, _ tokens: inout Tokenizer, valueStorage: inout [UInt8]
    ) throws(TraceLineError) -> SensorEvent.Kind {

        if kindToken.matches(Keyword.notify) {
            guard let uuidToken = tokens.next() else { throw TraceLineError("notify needs a characteristic UUID") }
            let characteristic: BluetoothUUID
            if uuidToken.matches(Keyword.heartRateMeasurement) {
                characteristic = .heartRateMeasurement
            } else if let parsed = BluetoothUUID(text(uuidToken)) {
                characteristic = parsed
            } else {
                throw TraceLineError("'\(text(uuidToken))' is not a characteristic UUID such as 2a37")
            }
            // A value that grew the storage beyond any usual notification is not kept for the next line,
            // so a caller that keeps every event does not inherit its capacity in each copy.
            if valueStorage.capacity > reusedValueCapacity { valueStorage = [] }
            if let hexToken = tokens.next() {
                guard Hex.decodeStrict(UnsafeBufferPointer(rebasing: hexToken), replacing: &valueStorage) else {
                    throw TraceLineError("notification value '\(text(hexToken))' is not an even run of hex digits")
                }
            } else {
                valueStorage.removeAll(keepingCapacity: true)
            }
            try tokens.expectEnd(after: "notify")
            return .notification(characteristic: characteristic, value: valueStorage)
        }
        if kindToken.matches(Keyword.connected) {
            try tokens.expectEnd(after: "connected")
            return .connected
        }
        if kindToken.matches(Keyword.disconnected) {
            let rest = tokens.rest()
            guard !rest.isEmpty else { return .disconnected(reason: nil) }
            return .disconnected(reason: try unescapedText(rest, in: "disconnect reason"))
        }
        if kindToken.matches(Keyword.battery) {
            guard let token = tokens.next(), let percent = UInt8(text(token)) else {
                throw TraceLineError("battery needs a percentage 0–100")
            }
            try tokens.expectEnd(after: "battery")
            do {
                return .battery(try BatteryLevel(percent: percent))
            } catch {
                throw TraceLineError("battery level: \(error)")
            }
        }
        if kindToken.matches(Keyword.location) {
            guard let token = tokens.next(), let code = UInt8(text(token)) else {
                throw TraceLineError("location needs a Body Sensor Location code 0–255")
            }
            try tokens.expectEnd(after: "location")
            return .bodySensorLocation(BodySensorLocation(code: code))
        }
        if kindToken.matches(Keyword.note) {
            return .note(try unescapedText(tokens.rest(), in: "note"))
        }
        throw TraceLineError(
            "unknown event kind '\(text(kindToken))' (expected notify, connected, disconnected, battery, location or note)"
        )
    }

    /// Nearly every line of a trace is `<offset> notify 2a37 <hex>`: in exactly that form (single spaces,
    /// a non-empty value, nothing after it) it is read in one pass, without the tokenizer. Anything else,
    /// including every error, is nil and goes the general way, which reads such a line the same.
    @inline(__always) // nearly every line comes here: no call frame of its own
    private static func parseHeartRateNotification(
        _ line: UnsafeBufferPointer<UInt8>, valueStorage: inout [UInt8]
    ) -> Int64? {
        guard let base = line.baseAddress else { return nil }
        var index = 0
        var offset: Int64 = 0
        while index + 8 <= 18, index + 8 <= line.count, let eight = eightDigits(at: base + index) {
            offset = offset &* 100_000_000 &+ eight
            index += 8
        }
        while index < line.count, index < 18, let digit = decimalDigit(base[index]) {
            offset = offset &* 10 &+ digit
            index += 1
        }
        let prefix = heartRateNotificationPrefix
        let valueStart = index + prefix.utf8CodeUnitCount
        guard index > 0, valueStart < line.count, memcmp(base + index, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
        else { return nil }
        let hex = UnsafeBufferPointer(rebasing: line[valueStart...])
        if valueStorage.capacity > reusedValueCapacity { valueStorage = [] }
        guard Hex.decodeStrict(hex, replacing: &valueStorage) else { return nil } // a space, a bad digit: the general way says which
        return offset
    }

    private static let heartRateNotificationPrefix: StaticString = " notify 2a37 "

    /// The eight ASCII digits at `bytes` as a number, or nil unless all eight are digits. An offset
    /// in µs has 10–11 digits in a long trace: eight at a time, not a digit at a time.
    @inline(__always)
    private static func eightDigits(at bytes: UnsafePointer<UInt8>) -> Int64? {
        let chunk = UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self))
        // Every byte 0x30...0x39: its high nibble is 3, and adding 6 to it leaves that nibble alone.
        let highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0, threes: UInt64 = 0x3030_3030_3030_3030
        guard chunk & highNibbles == threes, (chunk &+ 0x0606_0606_0606_0606) & highNibbles == threes else { return nil }
        // The first digit is the lowest byte: combine pairs, then fours, then both fours.
        var value = ((chunk & 0x0F0F_0F0F_0F0F_0F0F) &* (10 << 8 + 1)) >> 8
        value = ((value & 0x00FF_00FF_00FF_00FF) &* (100 << 16 + 1)) >> 16
        value = ((value & 0x0000_FFFF_0000_FFFF) &* (10_000 << 32 + 1)) >> 32
        return Int64(value)
    }

    /// Largest value storage kept for reuse: a heart-rate notification is at most ~20 bytes, an ATT value 512.
    static let reusedValueCapacity = 64

    /// Offsets are at most 18 digits so they never overflow Int64.
    private static func parseOffset(_ token: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
        guard !token.isEmpty, token.count <= 18 else { return nil }
        var value: Int64 = 0
        for byte in token {
            guard let digit = decimalDigit(byte) else { return nil }
            value = value &* 10 &+ digit
        }
        return value
    }

    /// The whole text: `text(_:)` shortens what an error message quotes, a note must read back as written.
    private static func unescapedText(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, in field: String) throws(TraceLineError) -> String {
        guard let unescaped = TraceEscaping.unescape(bytes) else {
            throw TraceLineError("\(field) has a bad %-escape")
        }
        return unescaped
    }

    /// A token as an error message quotes it: at most 80 bytes, however long the line.
    static func text(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(decoding: bytes.prefix(80), as: UTF8.self)
    }

    private enum Keyword {
        static let notify: StaticString = "notify"
        static let heartRateMeasurement: StaticString = "2a37"
        static let connected: StaticString = "connected"
        static let disconnected: StaticString = "disconnected"
        static let battery: StaticString = "battery"
        static let location: StaticString = "location"
        static let note: StaticString = "note"
        static let distance: StaticString = "distance"
        static let pause: StaticString = "pause"
        static let resume: StaticString = "resume"
    }
}

private extension Slice<UnsafeBufferPointer<UInt8>> {
    /// Byte-for-byte equality with a keyword, without generic sequence machinery (per-line hot path).
    func matches(_ keyword: StaticString) -> Bool {
        guard count == keyword.utf8CodeUnitCount else { return false }
        return memcmp(base.baseAddress! + startIndex, keyword.utf8Start, count) == 0
    }
}

/// Splits a line on single spaces without copying.
private struct Tokenizer {
    private let line: UnsafeBufferPointer<UInt8>
    private var index: Int

    init(_ line: UnsafeBufferPointer<UInt8>) {
        self.line = line
        self.index = line.startIndex
    }

    @inline(__always) // three calls per line
    mutating func next() -> Slice<UnsafeBufferPointer<UInt8>>? {
        while index < line.endIndex, line[index] == UInt8(ascii: " ") { index += 1 }
        guard index < line.endIndex else { return nil }
        let start = index
        if let space = memchr(line.baseAddress! + index, Int32(UInt8(ascii: " ")), line.endIndex - index) {
            index = line.baseAddress!.distance(to: space.assumingMemoryBound(to: UInt8.self))
        } else {
            index = line.endIndex
        }
        return line[start..<index]
    }

    /// Everything after the current token and one separating space.
    mutating func rest() -> Slice<UnsafeBufferPointer<UInt8>> {
        if index < line.endIndex { index += 1 }
        defer { index = line.endIndex }
        return line[index...]
    }

    mutating func expectEnd(after kind: String) throws(TraceLineError) {
        if let extra = next() {
            throw TraceLineError("unexpected '\(TraceEventLine.text(extra))' after the \(kind) event's fields")
        }
    }
}
