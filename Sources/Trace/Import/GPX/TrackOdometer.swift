/// The distance along a track as its positions come: a great-circle leg between consecutive
/// positions of a segment, none across the gap between segments (the device was stopped, and
/// where it went meanwhile is unknown).
struct TrackOdometer {
    /// Metres from the track's first position; nil before it.
    private(set) var total: Double?
    private var last: GreatCircle.Coordinate?

    /// A new segment: its first position continues the total without a leg to it.
    mutating func startSegment() {
        last = nil
    }

    mutating func move(to position: GreatCircle.Coordinate) {
        if let last {
            total = (total ?? 0) + GreatCircle.distance(from: last, to: position)
        } else if total == nil {
            total = 0
        }
        last = position
    }
}
