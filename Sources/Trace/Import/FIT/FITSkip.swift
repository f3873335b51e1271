/// What an import passes over without failing, counted by kind for its report on stderr: what the
/// format allows or tolerates but a trace has no place for.
enum FITSkip: String, CaseIterable {
    case developerFields = "developer fields"
    case unreadableFields = "fields of an unknown base type or a size that is not whole values"
    case invalidValues = "invalid values (absent, not zero)"
    case unreadMessages = "messages hrbridge does not read"
    case unreadRecordFields = "record fields hrbridge does not read"

    /// The counts as `WorkoutRecording.tolerated` holds them.
    static func report(_ counts: [FITSkip: Int]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: counts.filter { $0.value > 0 }.map { ($0.key.rawValue, $0.value) })
    }
}
