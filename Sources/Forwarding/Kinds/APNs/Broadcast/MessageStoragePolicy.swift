import SinkVocabulary

/// What APNs keeps of a broadcast channel's messages for a device that is not reachable when one goes
/// out (Apple, "Sending channel management requests to APNs": `message-storage-policy`, fixed when the
/// channel is created). Apple gives channels that store nothing a higher publishing budget than those
/// that keep the most recent message (docs/sinks.md, "Broadcast channels").
public enum MessageStoragePolicy: Int, Sendable, Codable, CaseIterable {
    /// Only the devices reachable at the time get a message; `apns-expiration` must then be 0.
    case noMessageStored = 0
    /// The most recent message is kept: a phone that comes online, or starts its activity on the
    /// channel late, gets the workout's latest state.
    case mostRecentMessageStored = 1

    var meaning: String {
        switch self {
        case .noMessageStored: "no message stored: only phones reachable then get an update"
        case .mostRecentMessageStored: "the most recent message stored: a phone that joins late gets the latest state"
        }
    }

    /// The choices of `--apns-broadcast` and `"broadcast": {"storagePolicy": …}`.
    static let choices = allCases.map { SinkOption.Choice($0.rawValue, $0.meaning) }
}
