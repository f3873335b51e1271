import Sensors

/// The distance sensor's side of a workout: its notifications become metres for the engine through
/// the derivation of its kind (told by the characteristic: 0x2A53 a foot pod, 0x2A5B a bike
/// sensor, 0x2ACD a treadmill, …), and its link's drops and returns become lines for stderr; what it
/// offers (read at connect) is kept for `ctl status`. It never touches the heart
/// rate: while it is lost the updates keep the last distance. Pure, like the engine.
struct DistanceFeed: Sendable {
    let settings: DistanceSettings
    /// The characteristic the derivation was made for: a value of another kind starts a new one.
    private var characteristic: BluetoothUUID?
    /// Its kind's index in `SensorKind.all`, found with the derivation (for the tally).
    private var kindIndex = 0
    private var derivation: (any DistanceDerivation)?
    /// nil until the sensor's first event; lost from a drop until its next measurement.
    private(set) var state: DistanceSensorState?
    /// What the sensor said it offers, read at connect (a fitness machine's features), in words.
    private(set) var offers: String?
    private var lost: Bool { state == .lost }

    init(settings: DistanceSettings) {
        self.settings = settings
    }

    enum Outcome: Equatable {
        case nothing
        /// Metres covered since the sensor's previous measurement.
        case covered(Double)
        /// A line for stderr: a malformed value dropped, or the sensor lost or back.
        case said(String)
        /// Both: the first measurement after a loss.
        case coveredAndSaid(Double, String)
    }

    /// `tally` counts the measurement (valid or rejected) and the link's state.
    mutating func handle(_ kind: SensorEvent.Kind, at time: Timestamp, shownDistance: Double?, tally: inout SensorTally) -> Outcome {
        switch kind {
        case let .notification(uuid, value):
            if let capabilities = SensorKind.capabilities(on: uuid) {
                offers = capabilities.summary(value)
                return .nothing
            }
            if uuid != characteristic {
                guard let index = SensorKind.all.firstIndex(where: { $0.measurementCharacteristic == uuid }),
                      SensorKind.all[index].contribution.givesDistance else { return .nothing }
                characteristic = uuid
                kindIndex = index
                derivation = SensorKind.all[index].distanceDerivation(settings)
            }
            let meters: Double
            do {
                meters = try derivation!.metersCovered(by: value, at: time)
            } catch {
                tally.distanceDropped(kind: kindIndex)
                return .said("dropped malformed 0x\(uuid.shortForm.uppercased()) value: \(error)")
            }
            tally.distanceMeasured(kind: kindIndex)
            let wasLost = lost
            state = .live
            guard wasLost else { return .covered(meters) }
            return .coveredAndSaid(meters, "distance sensor back")
        case .disconnected where kind.isStopByBridge:
            tally.disconnected(.distance)
            return .nothing // the bridge is stopping, the sensor is not lost
        case .disconnected:
            tally.disconnected(.distance)
            derivation?.linkDropped()
            guard !lost else { return .nothing }
            state = .lost
            let held = shownDistance.map { ": updates keep \($0) m until it is back" } ?? ""
            return .said("distance sensor lost\(held)")
        case .connected:
            tally.connected(.distance)
            return .nothing
        case .battery, .bodySensorLocation, .note, .paused, .resumed:
            return .nothing
        }
    }
}

/// Whether the distance sensor beside the strap is giving values, for `ctl status`.
public enum DistanceSensorState: String, Sendable, Hashable {
    case live
    /// Its link dropped; the updates keep the last distance until its next value.
    case lost
}
