import Foundation
import Sensors
import LiveState
import TestSupport
import Testing

/// The hand-written encoding against JSONEncoder on seeded random updates: awkward strings (quotes,
/// slashes, control characters, non-ASCII), dates with microsecond fractions, odd doubles, absent
/// optionals. If Foundation's output or ours changes, this fails before a phone does.
@Suite struct EncodingDriftTests {
    static let cases = 3000

    @Test func contentStateAndAttributesMatchJSONEncoderWithSortedKeys() throws {
        var random = SplitMix64(seed: 0x2A37)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        for _ in 0..<Self.cases {
            let update = Self.randomUpdate(&random)
            #expect(try ActivityKitEncoding.encode(update.contentState) == Array(encoder.encode(update.contentState)))
            #expect(try ActivityKitEncoding.encode(update.attributes) == Array(encoder.encode(update.attributes)))
        }
    }

    @Test func updateLinesMatchTheJSONEncoderAssembly() throws {
        var random = SplitMix64(seed: 0x180D)
        for _ in 0..<Self.cases {
            let update = Self.randomUpdate(&random)
            #expect(String(decoding: try UpdateLine.encode(update), as: UTF8.self) == (try Self.referenceLine(update)))
        }
    }

    @Test func updateLineRefusesWhatThePayloadCheckRefuses() throws {
        var random = SplitMix64(seed: 1)
        var update = Self.randomUpdate(&random)
        let fitting = try ActivityKitEncoding.payload(attributes: update.attributes, contentState: update.contentState)
        update.contentState.intervalLabel += String(repeating: "/", count: (ActivityKitEncoding.payloadLimit - fitting.byteCount) / 2)
        #expect(try UpdateLine.encode(update).count > 0) // escaped slashes count twice: exactly at the limit or below
        update.contentState.intervalLabel += "//"
        let byteCount = try ActivityKitEncoding.encode(update.attributes).count + ActivityKitEncoding.encode(update.contentState).count
        #expect(byteCount > ActivityKitEncoding.payloadLimit)
        #expect(throws: LiveStateError.payloadTooLarge(bytes: byteCount, limit: 4096)) { try UpdateLine.encode(update) }
        #expect(throws: LiveStateError.payloadTooLarge(bytes: byteCount, limit: 4096)) {
            try ActivityKitEncoding.payload(attributes: update.attributes, contentState: update.contentState)
        }
    }

    // MARK: - The reference: the envelope as it was assembled with JSONEncoder

    static func referenceLine(_ update: ActivityUpdate) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        func quoted(_ text: String) throws -> String { String(decoding: try encoder.encode(text), as: UTF8.self) }
        var fields = [
            "\"event\":" + (try quoted(update.event.rawValue)),
            "\"activity\":" + (try quoted(update.activityID)),
            "\"sequence\":\(update.sequence)",
            "\"timestamp\":" + unixSeconds(update.timestamp),
            "\"staleDate\":" + unixSeconds(update.staleDate),
        ]
        if let dismissal = update.dismissalDate { fields.append("\"dismissalDate\":" + unixSeconds(dismissal)) }
        fields += [
            "\"priority\":\(update.priority)",
            "\"reason\":" + (try quoted(update.reason.rawValue)),
            "\"attributesType\":" + (try quoted(WorkoutActivityAttributes.typeName)),
            "\"attributes\":" + String(decoding: try encoder.encode(update.attributes), as: UTF8.self),
            "\"contentState\":" + String(decoding: try encoder.encode(update.contentState), as: UTF8.self),
        ]
        return "{" + fields.joined(separator: ",") + "}\n"
    }

    /// Exact decimal seconds, by string arithmetic (independent of the writer's digit loop).
    static func unixSeconds(_ time: Timestamp) -> String {
        let micros = time.microsecondsSinceUnixEpoch
        let sign = micros < 0 ? "-" : ""
        let seconds = micros.magnitude / 1_000_000
        let fraction = micros.magnitude % 1_000_000
        guard fraction != 0 else { return "\(sign)\(seconds)" }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 6 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return "\(sign)\(seconds).\(digits)"
    }

    // MARK: - Random values

    static func randomUpdate(_ random: inout SplitMix64) -> ActivityUpdate {
        let lower = randomDate(&random)
        let upper = random.chance(0.5) ? lower.addingTimeInterval(28_800) : max(lower, randomDate(&random))
        let state = WorkoutActivityAttributes.ContentState(
            timerRange: lower...upper,
            pausedAt: random.chance(0.3) ? randomDate(&random) : nil,
            heartRate: random.chance(0.8) ? randomInteger(&random) : nil,
            distanceMeters: randomDouble(&random),
            intervalLabel: randomText(&random)
        )
        let time = Timestamp(microsecondsSinceUnixEpoch: Int64(bitPattern: random.next()) >> Int64(random.below(40) + 1))
        return ActivityUpdate(
            event: ActivityUpdate.Event.allCases[Int(random.below(3))],
            activityID: randomText(&random), sequence: randomInteger(&random),
            timestamp: time, staleDate: time.adding(microseconds: Int64(random.below(300_000_000))),
            dismissalDate: random.chance(0.3) ? time.adding(microseconds: Int64(random.below(1_800_000_001))) : nil,
            priority: randomInteger(&random), reason: UpdateReason(rawValue: randomText(&random)),
            attributes: WorkoutActivityAttributes(workoutName: randomText(&random)), contentState: state
        )
    }

    /// Mostly what the engine makes (whole or microsecond instants near now), sometimes anything finite.
    static func randomDate(_ random: inout SplitMix64) -> Date {
        let micros = Int64(random.below(2_000_000_000_000_000)) - 500_000_000_000_000
        switch random.below(3) {
        case 0: return Date(timeIntervalSinceReferenceDate: Double(micros / 1_000_000))
        case 1: return Date(timeIntervalSinceReferenceDate: Double(micros) / 1_000_000)
        default: return Date(timeIntervalSinceReferenceDate: randomDouble(&random))
        }
    }

    static func randomDouble(_ random: inout SplitMix64) -> Double {
        switch random.below(6) {
        case 0: return 0
        case 1: return -0.0
        case 2: return Double(Int64(random.below(20_000_000)) - 10_000_000) / 8
        case 3: return Double(Int64(bitPattern: random.next()) >> Int64(random.below(64)))
        default:
            while true {
                let value = Double(bitPattern: random.next())
                if value.isFinite { return value }
            }
        }
    }

    static func randomInteger(_ random: inout SplitMix64) -> Int {
        random.chance(0.7) ? Int(random.below(250)) : Int(truncatingIfNeeded: random.next())
    }

    /// Short strings over a pool heavy in what needs escaping, plus any scalar now and then.
    static func randomText(_ random: inout SplitMix64) -> String {
        let pool: [Unicode.Scalar] = ["a", "Z", " ", "3", "\"", "\\", "/", "\u{7F}", "é", "\u{2028}", "😀", "\u{FEFF}", "\u{FFFD}"]
        var text = ""
        for _ in 0..<random.below(24) {
            switch random.below(4) {
            case 0: text.unicodeScalars.append(Unicode.Scalar(UInt8(random.below(0x20))))
            case 1: text.unicodeScalars.append(Unicode.Scalar(UInt32(random.below(0x11_0000))) ?? "?")
            default: text.unicodeScalars.append(pool[Int(random.below(UInt64(pool.count)))])
            }
        }
        return text
    }
}
