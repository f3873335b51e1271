/// Zone boundaries with hysteresis: decides whether the displayed rate left the published rate's
/// zone; the preview's overlay colours a rate by its zone.
public struct HeartRateZones: Sendable, Hashable {
    /// Ascending lower bounds of zones 1…n (zone 0 is below the first).
    let boundaries: [Int]
    let hysteresis: Int

    public init(boundaries: [Int], hysteresis: Int) {
        self.boundaries = boundaries
        self.hysteresis = hysteresis
    }

    public func zone(of rate: Int) -> Int {
        var zone = 0
        for boundary in boundaries where rate >= boundary { zone += 1 }
        return zone
    }

    /// True when `displayed` is in another zone than `published`, at least `hysteresis` past the boundary.
    /// Inlined up to the check for no zones (the default), which the engine asks twice per sample.
    @inline(__always)
    func crossed(from published: Int, to displayed: Int) -> Bool {
        !boundaries.isEmpty && crossedBoundary(from: published, to: displayed)
    }

    private func crossedBoundary(from published: Int, to displayed: Int) -> Bool {
        let publishedZone = zone(of: published)
        if displayed > published { return zone(of: displayed - hysteresis) > publishedZone }
        if displayed < published { return zone(of: displayed + hysteresis) < publishedZone }
        return false
    }
}
