import Foundation
import Sensors
import TestSupport
import Testing
@testable import Trace

@Suite struct TraceRoundTripTests {
    let start = Timestamp(microsecondsSinceUnixEpoch: 1_714_545_000_123_456)

    var everyKind: [SensorEvent] {
        [
            SensorEvent(time: start, kind: .note("recorded by hrbridge 0.1.0 — 100% honest\nsecond line")),
            SensorEvent(time: start, kind: .connected),
            SensorEvent(time: start, kind: .bodySensorLocation(.chest)),
            SensorEvent(time: start, kind: .bodySensorLocation(.reserved(42))),
            SensorEvent(time: start.adding(microseconds: 1), kind: .battery(try! BatteryLevel(percent: 87))),
            SensorEvent(time: start.adding(microseconds: 1_000_000), kind: .notification(characteristic: .heartRateMeasurement, value: [0x16, 0x48, 0x00, 0x03])),
            SensorEvent(time: start.adding(microseconds: 1_000_000), kind: .notification(characteristic: .heartRateMeasurement, value: [])),
            SensorEvent(time: start.adding(microseconds: 2_500_000), kind: .notification(characteristic: .batteryLevel, value: [0x56])),
            SensorEvent(time: start.adding(microseconds: 2_500_000), kind: .notification(characteristic: BluetoothUUID("6e40fc00-b5a3-f393-e0a9-e50e24dcca9e")!, value: [1, 2])),
            SensorEvent(time: start.adding(microseconds: 3_000_000), kind: .disconnected(reason: "le-connection-abort-by-local")),
            SensorEvent(time: start.adding(microseconds: 3_000_001), kind: .disconnected(reason: nil)),
            SensorEvent(time: start.adding(microseconds: 43_200_000_000), kind: .connected),
        ]
    }

    @Test func everyEventKindSurvivesWriteThenRead() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("all.trace")
        let header = TraceHeader(start: start, address: "F1:5A:17:00:00:01", name: "Polar H10 7E5A1B2C = chest%")
        let writer = try TraceWriter(path: path, header: header)
        for event in everyKind { try writer.append(event) }

        let reader = try TraceReader(path: path)
        #expect(reader.header == header)
        #expect(try reader.readAll() == everyKind)
    }

    /// Version 2: the same events, each from the strap or the distance sensor, and the lines say which.
    @Test func everyEventOfEitherSensorSurvivesWriteThenRead() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("two.trace")
        let header = TraceHeader(start: start, address: "F1:5A:17:00:00:01", version: TraceHeader.multiSensorVersion)
        let timer = [SensorEvent(time: start.adding(microseconds: 43_200_000_000), kind: .paused),
                     SensorEvent(time: start.adding(microseconds: 43_200_000_001), kind: .resumed)]
        let events = everyKind.flatMap { event in
            var fromPod = event
            fromPod.sensor = .distance
            return [event, fromPod]
        } + timer
        let writer = try TraceWriter(path: path, header: header)
        for event in events { try writer.append(event) }

        let reader = try TraceReader(path: path)
        #expect(reader.header == header)
        #expect(try reader.readAll() == events)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines[0] == "hrbridge-trace 2 start=2024-05-01T06:30:00.123456Z address=F1:5A:17:00:00:01")
        #expect(lines[11...12] == ["1000000 notify 2a37 16480003", "1000000 distance notify 2a37 16480003"])
        #expect(lines.suffix(2) == ["43200000000 pause", "43200000001 resume"])
    }

    @Test func versionOneRefusesTheDistanceSensor() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("one.trace")
        let writer = try TraceWriter(path: path, header: TraceHeader(start: start))
        #expect(throws: TraceWriter.Failure.sensorNotDeclared(path: path, sensor: .distance)) {
            try writer.append(SensorEvent(time: start, kind: .connected, sensor: .distance))
        }
        #expect(throws: TraceWriter.Failure.pauseNotDeclared(path: path)) {
            try writer.append(SensorEvent(time: start, kind: .paused))
        }
    }

    @Test func eachLineIsOnDiskAsSoonAsItIsAppended() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("live.trace")
        let writer = try TraceWriter(path: path, header: TraceHeader(start: start))
        try writer.append(SensorEvent(time: start, kind: .connected))
        // Read through another descriptor while the writer is still open, as after a kill -9.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "hrbridge-trace 1 start=2024-05-01T06:30:00.123456Z\n0 connected\n")
        _ = writer
    }

    @Test func writerRefusesEventsOutOfOrder() throws {
        let directory = try TemporaryDirectory()
        let writer = try TraceWriter(path: directory.path("order.trace"), header: TraceHeader(start: start))
        try writer.append(SensorEvent(time: start.adding(microseconds: 10), kind: .connected))
        #expect(throws: TraceWriter.Failure.self) {
            try writer.append(SensorEvent(time: start.adding(microseconds: 9), kind: .connected))
        }
    }

    @Test func writerNamesAnUncreatablePath() {
        #expect(throws: TraceWriter.Failure.cannotCreate(path: "/nonexistent/dir/x.trace", reason: "No such file or directory")) {
            try TraceWriter(path: "/nonexistent/dir/x.trace", header: TraceHeader(start: start))
        }
    }

    @Test func skipsCommentsBlankLinesAndCarriageReturns() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("hand.trace", """
        hrbridge-trace 1 start=2024-01-01T06:00:00Z future-key=ignored\r
        # a person's comment\r
        \r
          # an indented comment
        0 notify 2a37 0648\r
        1000000 notify 0x2A37 0649
        """)
        let reader = try TraceReader(path: path)
        let events = try reader.readAll()
        #expect(events.map(\.kind) == [
            .notification(characteristic: .heartRateMeasurement, value: [0x06, 0x48]),
            .notification(characteristic: .heartRateMeasurement, value: [0x06, 0x49]),
        ])
        #expect(reader.lineNumber == 7)
    }

    @Test func aCRLFTraceWithoutAFinalNewlineLosesItsLastCarriageReturn() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("crlf.trace", "hrbridge-trace 1 start=2024-01-01T06:00:00Z\r\n0 note first\r\n5 note last\r")
        #expect(try TraceReader(path: path).readAll().map(\.kind) == [.note("first"), .note("last")])
    }
}

/// The reader reuses one value buffer when the caller lets go of each event; events a caller keeps
/// must still hold their own bytes, however the values' lengths vary.
@Suite struct TraceValueStorageTests {
    let start = Timestamp(unixSeconds: 1_704_088_800)
    var values: [[UInt8]] {
        [[0x16, 0x48, 0x00, 0x03], [0x06, 0x49], Array(0..<100), [], [0x10, 0x4A, 0x01, 0x02, 0x03, 0x04], [0x06, 0x4B]]
    }

    func writeTrace(in directory: TemporaryDirectory) throws -> String {
        let path = directory.path("values.trace")
        let writer = try TraceWriter(path: path, header: TraceHeader(start: start))
        for (index, value) in values.enumerated() {
            try writer.append(SensorEvent(time: start.adding(seconds: Double(index)), kind: .notification(characteristic: .heartRateMeasurement, value: value)))
        }
        return path
    }

    @Test func keptEventsKeepTheirOwnValues() throws {
        let directory = try TemporaryDirectory()
        let events = try TraceReader(path: try writeTrace(in: directory)).readAll()
        #expect(events.map { event -> [UInt8] in
            guard case let .notification(_, value) = event.kind else { return [0xFF] }
            return value
        } == values)
    }

    @Test func eventsReadOneAtATimeCarryEachLinesValue() throws {
        let directory = try TemporaryDirectory()
        let reader = try TraceReader(path: try writeTrace(in: directory))
        for expected in values {
            guard case let .notification(_, value) = try reader.next()?.kind else {
                Issue.record("missing notification")
                return
            }
            #expect(value == expected)
        }
        #expect(try reader.next() == nil)
    }

    /// `next(into:)` hands the previous event's storage back for the next line: each event still
    /// carries its own line's bytes, and a copy kept by the caller is not overwritten.
    @Test func oneEventVariableCarriesEachLinesValue() throws {
        let directory = try TemporaryDirectory()
        let reader = try TraceReader(path: try writeTrace(in: directory))
        var event = SensorEvent(time: start, kind: .connected)
        var kept: [SensorEvent] = []
        while try reader.next(into: &event) { kept.append(event) }
        #expect(kept.map { event -> [UInt8] in
            guard case let .notification(_, value) = event.kind else { return [0xFF] }
            return value
        } == values)
        #expect(event.kind == .connected)
    }
}

/// Nearly every line is `<offset> notify 2a37 <hex>` and is read by a one-pass path; lines that only
/// nearly have that form go the general way and must read exactly as they always did.
@Suite struct TraceNotificationLineTests {
    @Test(arguments: [
        ("7 notify 2a37 0648", [UInt8]([0x06, 0x48])),
        ("7  notify 2a37 0648", [0x06, 0x48]),
        ("7 notify  2a37 0648", [0x06, 0x48]),
        ("7 notify 2a37  0648", [0x06, 0x48]),
        ("7 notify 2a37 0648 ", [0x06, 0x48]),
        ("7 notify 2a37 0648\r", [0x06, 0x48]),
        ("7 notify 2a37 0A4b", [0x0A, 0x4B]),
        ("7 notify 2a37 ", []),
        ("7 notify 2a37", []),
        ("000000000000000007 notify 2a37 0648", [0x06, 0x48]),
        ("7 notify 0x2A37 0648", [0x06, 0x48]),
    ])
    func readsLikeTheCanonicalLine(line: String, value: [UInt8]) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("line.trace", "hrbridge-trace 1 start=2024-01-01T06:00:00Z\n\(line)\n")
        let events = try TraceReader(path: path).readAll()
        #expect(events.map(\.kind) == [.notification(characteristic: .heartRateMeasurement, value: value)])
        #expect(events.map(\.time.microsecondsSinceUnixEpoch) == [1_704_088_800_000_007])
    }

    /// The one-pass path reads an offset's digits eight at a time: every length up to the 18 digits
    /// allowed, every digit in every place.
    @Test(arguments: ["123456789012345678", "987654321098765432", "100000000000000009"])
    func offsetsOfEveryLengthReadWhole(digits: String) throws {
        let offsets = (1...digits.count).map { String(digits.prefix($0)) }
        let directory = try TemporaryDirectory()
        let lines = offsets.map { "\($0) notify 2a37 0648\n" }.joined()
        let path = try directory.write("offsets.trace", "hrbridge-trace 1 start=1970-01-01T00:00:00Z\n" + lines)
        let events = try TraceReader(path: path).readAll()
        #expect(events.map(\.time.microsecondsSinceUnixEpoch) == offsets.map { Int64($0)! })
    }
}

/// Writer → reader must give back every event exactly, whatever its text (issue 15): random events
/// of every kind from both sensors, with texts of any length holding `%`, control characters and
/// combining marks, and header values that start with a combining mark.
@Suite struct TraceRandomRoundTripTests {
    static let start = Timestamp(microsecondsSinceUnixEpoch: 1_714_545_000_123_456)

    /// Scalars that trip escaping and Character-based parsing; the rest is random BMP text.
    static let awkward: [Unicode.Scalar] = ["%", "=", " ", "\t", "\r", "\n", "\u{0}", "\u{7F}", "\u{301}", "\u{200D}", "é", "😀", "2", "5"]

    static func text(_ random: inout SplitMix64) -> String {
        let length = Int(random.next() % 4 == 0 ? random.next() % 400 : random.next() % 30)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            if random.next() % 2 == 0 {
                scalars.append(awkward[Int(random.next() % UInt64(awkward.count))])
            } else if let scalar = Unicode.Scalar(UInt32(random.next() % 0xD000)) {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    static func event(_ random: inout SplitMix64, at time: Timestamp) -> SensorEvent {
        let kind: SensorEvent.Kind
        switch random.next() % 8 {
        case 0: kind = .notification(characteristic: .heartRateMeasurement, value: (0..<random.next() % 24).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        case 1: kind = .connected
        case 2: kind = .disconnected(reason: random.next() % 3 == 0 ? nil : text(&random))
        case 3: kind = .battery(try! BatteryLevel(percent: UInt8(random.next() % 101)))
        case 4: kind = .bodySensorLocation(BodySensorLocation(code: UInt8(truncatingIfNeeded: random.next())))
        case 5: kind = .paused
        case 6: kind = .resumed
        default: kind = .note(text(&random))
        }
        return SensorEvent(time: time, kind: kind, sensor: random.next() % 2 == 0 ? .strap : .distance)
    }

    /// What the format cannot tell apart: an empty disconnect reason is written as none.
    static func asRead(_ event: SensorEvent) -> SensorEvent {
        guard case .disconnected(reason: "") = event.kind else { return event }
        return SensorEvent(time: event.time, kind: .disconnected(reason: nil), sensor: event.sensor)
    }

    @Test(arguments: 0..<8)
    func randomEventsSurviveWriteThenRead(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let directory = try TemporaryDirectory()
        let path = directory.path("random.trace")
        var header = TraceHeader(start: Self.start, address: "\u{301}" + Self.text(&random), name: "\u{301}=" + Self.text(&random),
                                 version: TraceHeader.multiSensorVersion)
        header.distanceAddress = "\u{301}" + Self.text(&random)
        header.distanceName = Self.text(&random)
        header.source = "\u{301}" + Self.text(&random)
        header.heartRateFrom = seed % 2 == 0 ? .machine : nil
        var time = Self.start
        let events = (0..<200).map { _ in
            time = time.adding(microseconds: Int64(random.next() % 3_000_000))
            return Self.event(&random, at: time)
        }
        let writer = try TraceWriter(path: path, header: header)
        for event in events { try writer.append(event) }

        let reader = try TraceReader(path: path)
        #expect(reader.header == header)
        #expect(try reader.readAll() == events.map(Self.asRead))
    }

    /// Texts longer than the 80 bytes an error message quotes, one with an escape across byte 80.
    @Test func longNotesAndReasonsReadBackWhole() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("long.trace")
        let events = [
            SensorEvent(time: Self.start, kind: .note(String(repeating: "n", count: 100))),
            SensorEvent(time: Self.start, kind: .note(String(repeating: "x", count: 79) + "%")),
            SensorEvent(time: Self.start, kind: .disconnected(reason: String(repeating: "r", count: 100))),
        ]
        let writer = try TraceWriter(path: path, header: TraceHeader(start: Self.start))
        for event in events { try writer.append(event) }
        #expect(try TraceReader(path: path).readAll() == events)
    }
}
