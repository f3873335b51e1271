import Sensors
import TestSupport
@testable import Trace

/// A random workout written as a valid FIT file, with what an import must read back from it.
/// Every choice the protocol leaves to a writer is made at random: byte order per definition,
/// field order, local types redefined, full or compressed timestamps (gaps of more than 31 s force
/// a full one), absent values written as their invalid patterns, developer fields, messages and
/// record fields hrbridge does not read, timer stops and starts, running or cycling.
struct RandomFITWorkout {
    let bytes: [UInt8]
    let samples: [WorkoutRecording.Sample]
    let pauses: [WorkoutRecording.Pause]
    /// What the import must count as skipped.
    let tolerated: [String: Int]
    let device: String

    /// FIT's epoch, 1989-12-31T00:00:00Z, in Unix seconds: restated here, not taken from the decoder.
    static let fitEpoch: Int64 = 631_065_600

    private struct RecordLayout {
        var localType: Int
        var fields: [FITWriter.Field]
        var developerFieldSizes: [Int]
        var hasTimestamp: Bool { fields.contains { $0.number == 253 } }
    }

    init(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var writer = FITWriter()
        var samples: [WorkoutRecording.Sample] = []
        var pauses: [WorkoutRecording.Pause] = []
        var tolerated: [String: Int] = [:]
        func byteOrder() -> FITWriter.ByteOrder { random.chance(0.5) ? .bigEndian : .littleEndian }

        let manufacturer = random.below(300), product = random.below(5000)
        device = "manufacturer \(manufacturer) product \(product)"
        writer.define(localType: 0, global: 0, fields: [.enumeration(0), .uint16(1), .uint16(2)], byteOrder: byteOrder())
        writer.data(localType: 0, [.number(4), .number(manufacturer), .number(product)])

        let running = random.chance(0.5)
        let sportMessageFirst = random.chance(0.5)
        func writeSport(_ writer: inout FITWriter) {
            writer.define(localType: 15, global: 12, fields: [.enumeration(0)], byteOrder: byteOrder())
            writer.data(localType: 15, [.number(running ? 1 : 2)])
        }
        if sportMessageFirst { writeSport(&writer) }

        // Record layouts: a random subset of the fields hrbridge reads and one it does not, in a
        // random order; those without a timestamp field can only be written with a compressed header.
        let readable: [FITWriter.Field] = [.uint32(253), .uint8(3), .uint8(4), .uint32(5), .uint16(6), .uint32(73), .uint16(2)]
        // Local types 0–11 for records (0–3 can take a compressed header), 12–15 for the rest.
        var layouts: [RecordLayout] = []
        func newLayout(localType: Int) -> RecordLayout {
            var fields = readable.filter { $0.number == 253 ? localType >= 4 || random.chance(0.7) : random.chance(0.7) }
            fields.shuffle(using: &random)
            let developer = random.chance(0.3) ? (0..<Int(1 + random.below(2))).map { _ in Int(1 + random.below(4)) } : []
            writer.define(localType: localType, global: 20, fields: fields,
                          developerFields: developer.enumerated().map { (number: UInt8($0.offset), size: $0.element) }, byteOrder: byteOrder())
            let layout = RecordLayout(localType: localType, fields: fields, developerFieldSizes: developer)
            layouts.removeAll { $0.localType == localType } // a definition replaces the one before it
            layouts.append(layout)
            return layout
        }
        for _ in 0..<Int(1 + random.below(3)) { _ = newLayout(localType: Int(random.below(6))) }
        var timerDefined = false
        func timerEvent(_ type: UInt64, at time: UInt64, _ writer: inout FITWriter) {
            if !timerDefined {
                writer.define(localType: 14, global: 21, fields: [.uint32(253), .enumeration(0), .enumeration(1)], byteOrder: byteOrder())
                timerDefined = true
            }
            writer.data(localType: 14, [.number(time), .number(0), .number(type)])
        }

        let fitStart = 900_000_000 + random.below(200_000_000)
        var time = fitStart
        var distance: UInt64 = 0
        var stopped = false
        timerEvent(0, at: time, &writer)
        var lastTimestamp = time // what a compressed header counts from
        for index in 0..<Int(1 + random.below(150)) {
            if index > 0 { time += random.chance(0.1) ? 32 + random.below(100) : 1 + random.below(31) }
            if random.chance(0.05) { _ = newLayout(localType: Int(random.below(6))) }
            let canCompress = time - lastTimestamp < 32
            let usable = layouts.filter { $0.hasTimestamp || ($0.localType < 4 && canCompress) }
            let layout = usable.isEmpty ? newLayout(localType: 4 + Int(random.below(8))) : usable[Int(random.below(UInt64(usable.count)))]
            let compressed = layout.localType < 4 && canCompress && (!layout.hasTimestamp || random.chance(0.5))

            var sample = WorkoutRecording.Sample(time: Timestamp(unixSeconds: Self.fitEpoch + Int64(time)))
            var speed: UInt64?, enhancedSpeed: UInt64?
            distance += random.below(500)
            let values: [FITWriter.Value] = layout.fields.map { field in
                let present = random.chance(0.8)
                if !present, field.number != 253, field.number != 2 { tolerated["invalid values (absent, not zero)", default: 0] += 1 }
                switch field.number {
                case 253: return .number(compressed && !present ? 0xFFFF_FFFF : time)
                case 3:
                    let bpm = random.below(255)
                    if present { sample.heartRate = Int(bpm) }
                    return .number(present ? bpm : 0xFF)
                case 4:
                    let rpm = random.below(255)
                    if present { sample.cadence = Int(rpm) * (running ? 2 : 1) }
                    return .number(present ? rpm : 0xFF)
                case 5:
                    if present { sample.distance = Double(distance) / 100 }
                    return .number(present ? distance : 0xFFFF_FFFF)
                case 6:
                    let value = random.below(0xFFFF)
                    if present { speed = value }
                    return .number(present ? value : 0xFFFF)
                case 73:
                    let value = random.below(0xFFFF_FFFF)
                    if present { enhancedSpeed = value }
                    return .number(present ? value : 0xFFFF_FFFF)
                default:
                    tolerated["record fields hrbridge does not read", default: 0] += 1
                    return .number(random.below(0x10000)) // altitude
                }
            }
            sample.speed = (enhancedSpeed ?? speed).map { Double($0) / 1000 }
            let developerBytes = (0..<layout.developerFieldSizes.reduce(0, +)).map { _ in UInt8(random.below(256)) }
            if !layout.developerFieldSizes.isEmpty { tolerated["developer fields", default: 0] += layout.developerFieldSizes.count }
            writer.data(localType: layout.localType, values, developerBytes: developerBytes,
                        compressedTimeOffset: compressed ? UInt32(time & 0x1F) : nil)
            lastTimestamp = time
            samples.append(sample)

            if random.chance(0.05) { // a message hrbridge does not read, between records
                writer.define(localType: 13, global: 0xFF00 + UInt16(random.below(0xFF)), fields: [.uint16(1), .uint8(0)], byteOrder: byteOrder())
                writer.data(localType: 13, [.number(random.below(0x10000)), .number(random.below(0x100))])
                tolerated["messages hrbridge does not read", default: 0] += 1
            }
            if random.chance(0.08) { // the watch's stop or start button, at this record's second
                stopped.toggle()
                timerEvent(stopped ? (random.chance(0.5) ? 1 : 4) : 0, at: time, &writer)
                let at = sample.time
                if stopped { pauses.append(.init(start: at, end: nil)) } else { pauses[pauses.count - 1].end = at }
            }
        }
        if !sportMessageFirst { writeSport(&writer) }
        bytes = writer.file(headerSize: random.chance(0.5) ? 14 : 12)
        self.samples = samples
        self.pauses = pauses
        self.tolerated = tolerated
    }
}
