import Platform
import FoundationEssentials
import Sensors
import LiveState

/// The state file's bytes: `{"version":1,"boot":"…","activities":[{"sinks":[…],"reservedThrough":N,
/// "lastUpdate":{…}}]}`, where `lastUpdate` is exactly the NDJSON line the sinks were sent
/// (docs/live-activity-updates.md), so a person reading the file sees the format they already know.
/// `boot` is the kernel's boot id when it was written. A file without `boot` or `reservedThrough`
/// reads as written in another boot, with nothing reserved.
extension ActivityLedger {
    static let formatVersion = 1

    func encoded(boot: String? = nil) throws -> [UInt8] {
        var bytes = Array("{\"version\":\(Self.formatVersion),".utf8)
        if let boot {
            var quoted = JSONBytes(capacity: 48)
            quoted.string(boot)
            bytes += Array("\"boot\":".utf8) + quoted.bytes + [UInt8(ascii: ",")]
        }
        bytes += Array("\"activities\":[".utf8)
        for (index, entry) in entries.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += Array("\n{\"reservedThrough\":\(entry.reservedThrough),\"sinks\":".utf8)
            bytes += JSONBytes.value { $0.array(entry.sinks) { $0.string($1) } }
            bytes += Array(",\"lastUpdate\":".utf8)
            let line = try entry.last.line.get() // the bytes the sinks were sent, not encoded again
            bytes += line[..<(line.count - 1)] // without its newline (a slice: no copy of it first)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes += Array("]}\n".utf8)
        return bytes
    }

    /// Reads what `encoded()` wrote; the error says what is wrong and where (a key path).
    init(decoding bytes: [UInt8]) throws(LedgerFormatError) {
        self = try Self.decoded(bytes).ledger
    }

    /// The ledger and the boot it was written in (nil: not said).
    static func decoded(_ bytes: [UInt8]) throws(LedgerFormatError) -> (ledger: ActivityLedger, boot: String?) {
        let maximumReservation = 1000 * reservedAhead
        let file: StoredLedger
        do {
            file = try JSONDecoder().decode(StoredLedger.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw LedgerFormatError(error)
        } catch {
            throw LedgerFormatError(message: "\(error)")
        }
        guard file.version == Self.formatVersion else {
            throw LedgerFormatError(message: "version: expected \(Self.formatVersion), got \(file.version)")
        }
        var entries: [Entry] = []
        for (index, stored) in file.activities.enumerated() {
            let update = try stored.lastUpdate.update(at: "activities[\(index)].lastUpdate")
            // A reservation runs at most two blocks past the last update: a number far past that is
            // damage (and Int.max would overflow the recovered end's sequence).
            if let reserved = stored.reservedThrough, reserved < update.sequence || reserved - update.sequence > maximumReservation {
                throw LedgerFormatError(message: "activities[\(index)].reservedThrough: expected \(update.sequence)…"
                    + "\(update.sequence + maximumReservation) (its lastUpdate's sequence on), got \(reserved)")
            }
            entries.append(Entry(last: EncodedUpdate(update), sinks: stored.sinks, reservedThrough: stored.reservedThrough))
        }
        return (ActivityLedger(entries: entries), file.boot)
    }
}

/// Why a state file could not be read.
package struct LedgerFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package var description: String { message }

    init(message: String) { self.message = message }

    init(_ error: DecodingError) { message = error.keyPathMessage }
}

private struct StoredLedger: Decodable {
    var version: Int
    var boot: String?
    var activities: [StoredEntry]
}

private struct StoredEntry: Decodable {
    var reservedThrough: Int?
    var sinks: [String]
    var lastUpdate: StoredUpdate
}

/// The NDJSON envelope read back; times are exact to the microsecond (well within a Double's precision).
private struct StoredUpdate: Decodable {
    var event: String
    var activity: String
    var sequence: Int
    var timestamp: Double
    var staleDate: Double
    var dismissalDate: Double?
    var priority: Int
    var reason: String
    var attributes: WorkoutActivityAttributes
    var contentState: WorkoutActivityAttributes.ContentState

    func update(at path: String) throws(LedgerFormatError) -> ActivityUpdate {
        guard let event = ActivityUpdate.Event(rawValue: event) else {
            throw LedgerFormatError(message: "\(path).event: expected start, update or end, got \"\(self.event)\"")
        }
        guard sequence >= 1 else { throw LedgerFormatError(message: "\(path).sequence: expected a number ≥ 1, got \(sequence)") }
        func time(_ seconds: Double, _ key: String) throws(LedgerFormatError) -> Timestamp {
            // Unix seconds within years 0…5000 or so: anything else is damage, not a time (and would overflow).
            guard seconds.isFinite, abs(seconds) < 1e11 else {
                throw LedgerFormatError(message: "\(path).\(key): expected Unix seconds, got \(seconds)")
            }
            return Timestamp(microsecondsSinceUnixEpoch: Int64((seconds * Double(Timestamp.microsecondsPerSecond)).rounded()))
        }
        return ActivityUpdate(
            event: event, activityID: activity, sequence: sequence, timestamp: try time(timestamp, "timestamp"),
            staleDate: try time(staleDate, "staleDate"),
            dismissalDate: try dismissalDate.map { seconds throws(LedgerFormatError) in try time(seconds, "dismissalDate") },
            priority: priority, reason: UpdateReason(rawValue: reason),
            attributes: attributes, contentState: contentState
        )
    }
}
