import Sensors

/// Turns what a workout's source reports (a live BlueZ connection or a replayed trace) into engine
/// input: the one place that parses 0x2A37 for the live state, and where the distance sensor's events
/// join (`DistanceFeed`). Pure like the engine; the caller owns the clock (ticks at `nextDeadline`)
/// and prints warnings with the source's location.
public struct WorkoutFeed: Sendable {
    public private(set) var engine: LiveStateEngine
    private var distance: DistanceFeed
    /// Notifications, rejected values and links, counted as they pass (`/metrics`).
    public private(set) var tally = SensorTally()
    private var machineHeartRate: MachineHeartRate

    public init(engine: LiveStateEngine, distance: DistanceSettings = DistanceSettings()) {
        self.engine = engine
        self.distance = DistanceFeed(settings: distance)
        machineHeartRate = MachineHeartRate(source: distance.heartRateFrom)
    }

    public var nextDeadline: Timestamp? { engine.nextDeadline }

    /// What a live driver whose source reports silence itself sets its timer for
    /// (`LiveStateEngine.nextWakeDeadlineBesideSilence`).
    public var nextWakeDeadlineBesideSilence: Timestamp? { engine.nextWakeDeadlineBesideSilence }

    /// The distance sensor's state; nil when none has been heard from.
    public var distanceSensor: DistanceSensorState? { distance.state }

    /// What the distance sensor said it offers when it connected (a fitness machine's features); nil
    /// when it said nothing.
    public var distanceSensorOffers: String? { distance.offers }

    /// This feed with the heart rate from `source` (a replayed trace says which its run had).
    public func heartRate(from source: HeartRateSource) -> WorkoutFeed {
        var feed = self
        feed.machineHeartRate = MachineHeartRate(source: source)
        return feed
    }

    /// Where the heart rate may come from, and whether the machine's is what the activity shows now.
    public var heartRateSource: HeartRateSource { machineHeartRate.source }
    public var heartRateFromMachineNow: Bool { machineHeartRate.feeding }

    public mutating func tick(at time: Timestamp) -> [ActivityUpdate] {
        engine.tick(at: time)
    }

    /// What one event was, beside the updates and the warning `handle` appends to the caller's arrays.
    public struct Note: Sendable {
        /// The event was a valid 0x2A37 notification: its value parses as a `HeartRateMeasurement`.
        public internal(set) var measured = false
        public internal(set) var metersCovered: Double?
    }

    /// Feeds one event, appending its updates and its warning, if any (a line for stderr, as
    /// `path:line: reason` in a replay: why a malformed notification was dropped, or that the distance
    /// sensor was lost or is back), to the caller's arrays: a driver feeds events in a tight loop, and
    /// a result carrying them would be returned through memory and destroyed field by field. Malformed
    /// heart-rate values are dropped with a warning (the connection goes on); battery, location and
    /// notes do not touch the live state. The driver ticks at `nextDeadline` when it falls before its
    /// next event.
    public mutating func handle(
        _ event: SensorEvent, updates: inout [ActivityUpdate], warnings: inout [String]
    ) -> Note {
        guard event.sensor == .strap else { return handleDistanceSensor(event, updates: &updates, warnings: &warnings) }
        machineHeartRate.strap(event.kind)
        var note = Note()
        let input: EngineInput
        switch event.kind {
        case let .notification(characteristic, value) where characteristic == .heartRateMeasurement:
            do {
                // Through a borrowed buffer: an initializer takes its argument owned, so passing the array
                // cost a retain and release per sample, and its generic parsing over Array twice the work.
                let layout = try value.withUnsafeBufferPointer { bytes throws(HeartRateMeasurementError) in try HeartRateMeasurementLayout(parsing: bytes) }
                note.measured = true
                tally.heartRateMeasured(at: event.time)
                input = .sample(beatsPerMinute: Int(layout.beatsPerMinute), contact: layout.sensorContact)
            } catch {
                tally.heartRateDropped()
                warnings.append("dropped malformed 0x2A37 value: \(error)")
                return note
            }
        case .connected:
            tally.connected(.strap)
            input = .connected
        case .disconnected where event.kind.isStopByBridge:
            tally.disconnected(.strap)
            return note // the bridge is stopping: a replay ends right after, as the live run did
        case .disconnected:
            tally.disconnected(.strap)
            input = .disconnected
        case .paused:
            input = .pause
        case .resumed:
            input = .resume
        case .notification, .battery, .bodySensorLocation, .note:
            return note // deadlines before the next input still run at their own time
        }
        // Sample and connection inputs never change the label, so they cannot fail the 4 KB check.
        try? engine.receive(input, at: event.time, into: &updates)
        return note
    }

    /// The distance sensor's event: its meters, then, with `--heart-rate-from machine` and no strap,
    /// its heart rate.
    private mutating func handleDistanceSensor(
        _ event: SensorEvent, updates: inout [ActivityUpdate], warnings: inout [String]
    ) -> Note {
        let note = handleDistance(event, updates: &updates, warnings: &warnings)
        // Sample and connection inputs never change the label, so they cannot fail the 4 KB check.
        if let input = machineHeartRate.machine(event.kind) { try? engine.receive(input, at: event.time, into: &updates) }
        return note
    }

    private mutating func handleDistance(
        _ event: SensorEvent, updates: inout [ActivityUpdate], warnings: inout [String]
    ) -> Note {
        var note = Note()
        let meters: Double
        switch distance.handle(event.kind, at: event.time, shownDistance: engine.shownDistance, tally: &tally) {
        case .nothing: return note
        case let .said(line):
            warnings.append(line)
            return note
        case let .covered(covered): meters = covered
        case let .coveredAndSaid(covered, line):
            meters = covered
            warnings.append(line)
        }
        note.metersCovered = meters
        try? engine.receive(.distance(meters: meters), at: event.time, into: &updates)
        return note
    }

    /// Control from a person or the service (pause, resume, label, stop).
    public mutating func control(_ input: EngineInput, at time: Timestamp) throws(LiveStateError) -> [ActivityUpdate] {
        try engine.receive(input, at: time)
    }

    /// The source ended (or, with `traceError`, broke off): ends the activity with its final state.
    public mutating func finish(at time: Timestamp, cause: EndCause = .stopped) -> [ActivityUpdate] {
        (try? engine.receive(.stop(cause), at: time)) ?? []
    }
}
