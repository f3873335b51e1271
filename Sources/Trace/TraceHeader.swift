import Sensors

/// The first line of a trace: `hrbridge-trace 1 start=… [address=…] [name=…]`.
/// Keys are `key=value` with percent-escaped values; unknown keys are skipped so that a newer
/// writer's additions do not lock out an older reader.
public struct TraceHeader: Sendable, Hashable {
    public static let formatName = "hrbridge-trace"
    /// One strap's events; what every trace of one sensor is still written as, so that readers
    /// that know only version 1 keep reading them.
    public static let singleSensorVersion = 1
    /// Version 1 plus events of the distance sensor, tagged with its role (`<offset> distance notify …`),
    /// and the workout's timer stopping and starting again (`<offset> pause`, `<offset> resume`).
    public static let multiSensorVersion = 2
    public static let readableVersions = singleSensorVersion...multiSensorVersion

    public var version: Int
    /// Wall-clock time of offset 0.
    public var start: Timestamp
    /// Whether events may name a sensor other than the strap.
    public var holdsSeveralSensors: Bool { version >= Self.multiSensorVersion }
    /// The strap's Bluetooth address, when known.
    public var address: String?
    /// The strap's advertised name, when known.
    public var name: String?
    /// The distance sensor's address or name as it was asked for (`distance.address=`,
    /// `distance.name=`), in a version-2 trace.
    public var distanceAddress: String?
    public var distanceName: String?
    /// The file an imported trace was made from (`source=run.fit`).
    public var source: String?
    /// `heartRateFrom=machine`: the run let the distance sensor's own heart rate stand in for a
    /// missing strap (`--heart-rate-from machine`); absent: the strap's only. A version-2 field.
    public var heartRateFrom: HeartRateSource?

    public init(start: Timestamp, address: String? = nil, name: String? = nil, version: Int = TraceHeader.singleSensorVersion) {
        self.version = version
        self.start = start
        self.address = address
        self.name = name
    }

    public var line: String {
        var fields = ["\(Self.formatName) \(version) start=\(UTCTimestampText.format(start))"]
        if let address { fields.append("address=\(TraceEscaping.escape(address, escapingSpaces: true))") }
        if let name { fields.append("name=\(TraceEscaping.escape(name, escapingSpaces: true))") }
        if let distanceAddress { fields.append("distance.address=\(TraceEscaping.escape(distanceAddress, escapingSpaces: true))") }
        if let distanceName { fields.append("distance.name=\(TraceEscaping.escape(distanceName, escapingSpaces: true))") }
        if let source { fields.append("source=\(TraceEscaping.escape(source, escapingSpaces: true))") }
        if let heartRateFrom { fields.append("heartRateFrom=\(heartRateFrom.rawValue)") }
        return fields.joined(separator: " ")
    }

    /// Reads a header line; the error text is the reason part of `path:1: reason`.
    public init(parsing line: String) throws(TraceLineError) {
        // Bytes, not Characters: `=` followed by a combining mark is one Character, and the writer
        // leaves marks unescaped, so a value may start with one.
        let fields = line.utf8.split(separator: UInt8(ascii: " "))
        func text(_ bytes: Substring.UTF8View) -> String { String(decoding: bytes, as: UTF8.self) }
        guard let first = fields.first, first.elementsEqual(Self.formatName.utf8) else {
            throw TraceLineError("not an hrbridge trace: the first line must start with '\(Self.formatName)'")
        }
        guard fields.count >= 2, let version = Int(text(fields[1])) else {
            throw TraceLineError("missing format version after '\(Self.formatName)'")
        }
        guard Self.readableVersions.contains(version) else {
            throw TraceLineError("unsupported trace version \(version) (this hrbridge reads versions \(Self.readableVersions.lowerBound)–\(Self.readableVersions.upperBound))")
        }
        var start: Timestamp?
        var address: String?
        var name: String?
        var distanceAddress: String?
        var distanceName: String?
        var source: String?
        var heartRateFrom: HeartRateSource?
        for field in fields.dropFirst(2) {
            guard let equals = field.firstIndex(of: UInt8(ascii: "=")) else {
                throw TraceLineError("header field '\(text(field))' is not key=value")
            }
            let key = text(field[..<equals])
            guard let value = TraceEscaping.unescape(field[field.index(after: equals)...]) else {
                throw TraceLineError("header field '\(key)' has a bad %-escape")
            }
            switch key {
            case "start":
                guard let parsed = UTCTimestampText.parse(value) else {
                    throw TraceLineError("start '\(value)' is not an ISO-8601 time such as 2024-05-01T06:30:00.000000Z")
                }
                guard UTCTimestampText.writableRange.contains(parsed) else {
                    throw TraceLineError("start '\(value)' is outside the years \(UTCTimestampText.writableYears) a trace can hold")
                }
                start = parsed
            case "address": address = value
            case "name": name = value
            case "distance.address": distanceAddress = value
            case "distance.name": distanceName = value
            case "source": source = value
            case "heartRateFrom":
                guard let parsed = HeartRateSource(rawValue: value) else {
                    let known = HeartRateSource.allCases.map(\.rawValue).joined(separator: " or ")
                    throw TraceLineError("heartRateFrom '\(value)' is not \(known)")
                }
                heartRateFrom = parsed
            default: continue
            }
        }
        guard let start else { throw TraceLineError("header has no start=… time") }
        self.init(start: start, address: address, name: name, version: version)
        self.distanceAddress = distanceAddress
        self.distanceName = distanceName
        self.source = source
        self.heartRateFrom = heartRateFrom
    }
}

/// A reason a single line is not valid; the reader adds the path and line number.
public struct TraceLineError: Error, Sendable, Hashable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
