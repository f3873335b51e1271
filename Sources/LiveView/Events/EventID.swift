import LiveState

/// The `id:` of an update's message: its activity and sequence, `hrbridge-20240101T060000Z-1/7`.
/// Unique within a run (activity ids are unique per engine, sequences per activity), so the
/// `Last-Event-ID` a browser sends back names exactly the update it saw last.
public struct EventID: Sendable, Hashable, CustomStringConvertible {
    public var activity: String
    public var sequence: Int

    public init(activity: String, sequence: Int) {
        self.activity = activity
        self.sequence = sequence
    }

    public init(_ update: ActivityUpdate) {
        self.init(activity: update.activityID, sequence: update.sequence)
    }

    /// `activity/sequence`; nil for text that is not one (a header from elsewhere, cut short).
    public init?(parsing text: String) {
        guard let slash = text.lastIndex(of: "/"), let sequence = Int(text[text.index(after: slash)...]), sequence > 0
        else { return nil }
        let activity = String(text[..<slash])
        guard !activity.isEmpty else { return nil }
        self.init(activity: activity, sequence: sequence)
    }

    public var description: String { "\(activity)/\(sequence)" }
}
