/// Zone boundaries with hysteresis: decides whether the displayed rate left the published rate's zone.
struct HeartRateZones: Sendable, Hashable {
    /// Ascending lower bounds of zones 1…n (zone 0 is below the first).
    let boundaries: [Int]
    let hysteresis: Int

    func zone(of rate: Int) -> Int {
        boundaries.filter { rate >= $0 }.count
    }

    /// True when `displayed` is in another zone than `published`, at least `hysteresis` past the boundary.
    func crossed(from published: Int, to displayed: Int) -> Bool {
        let publishedZone = zone(of: published)
        if displayed > published { return zone(of: displayed - hysteresis) > publishedZone }
        if displayed < published { return zone(of: displayed + hysteresis) < publishedZone }
        return false
    }
}
