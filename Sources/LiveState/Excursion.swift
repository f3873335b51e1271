import Sensors

/// The newest sample has left the band around the number shown: since when, and whether it left so
/// suddenly that it may be an artefact worth waiting out (`CadencePolicy.artefactPatience`).
struct Excursion: Sendable, Equatable {
    let since: Timestamp
    /// It began with a drop of at least `artefactDrop` between two samples. A strap that misses beats,
    /// or loses contact for a moment, reads 10 bpm low for a few seconds and recovers (a tempo run:
    /// 186→175, 170→159, 172→161): most of those end before the patience does. Only drops: a real
    /// effort's climb jumps up by 6–8 bpm between samples and must be followed at once.
    let suddenDrop: Bool
    /// It began with a jump of at least the change threshold either way: worth waiting out too, but
    /// only while the routine budget is short (`RoutineBudget`), when a wasted update costs a later
    /// one that matters.
    let suddenJump: Bool

    /// The excursion the newest sample `newest` (after `previous`) starts or continues at `time`, nil
    /// when it is within the band around `shown`. `ongoing` carries over unchanged while it lasts.
    static func of(
        newest: Int, previous: Int, shown: Int, at time: Timestamp, ongoing: Excursion?, policy: CadencePolicy,
        zones: HeartRateZones
    ) -> Excursion? {
        guard abs(newest - shown) > policy.changeThreshold || zones.crossed(from: shown, to: newest) else { return nil }
        if let ongoing { return ongoing }
        return Excursion(since: time, suddenDrop: previous - newest >= policy.artefactDrop,
                         suddenJump: abs(newest - previous) >= policy.changeThreshold)
    }

    /// Whether it should wait out the patience before it is shown.
    func isSuspect(budgetShort: Bool) -> Bool { suddenDrop || (budgetShort && suddenJump) }
}
