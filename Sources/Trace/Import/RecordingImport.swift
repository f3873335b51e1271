import Sensors

/// Builds trace events from a workout recording (`WorkoutRecording`, whatever file it came from):
/// what a strap and a foot pod would have sent. Each sample with a heart rate becomes one 0x2A37
/// notification with contact detected, carrying the RR intervals that ended since the previous
/// one, as a strap sends them; each sample with a distance (or speed) becomes a 0x2A53
/// notification of the distance sensor with the total distance, so a replay derives distance
/// through the same code as a live pod; the timer's stops become `pause` and `resume`.
public enum RecordingImport {
    /// The default wall-clock start of a CSV's relative times, fixed so that the same recording
    /// always gives the same trace.
    public static let defaultStart = Timestamp(unixSeconds: 1_704_088_800) // 2024-01-01T06:00:00Z

    public struct Result: Sendable {
        public var events: [SensorEvent]
        /// Version 1 for a heart rate alone (what every older reader reads), 2 with a distance
        /// sensor or pauses.
        public var version: Int
        /// RR intervals that end after the last heart-rate sample: no notification can carry them.
        public var droppedTrailingIntervals: Int
    }

    public static func trace(of recording: WorkoutRecording) -> Result {
        let source = recording.device.map { "\(recording.source) (\($0))" } ?? recording.source
        var strap = [
            SensorEvent(time: recording.start, kind: .note("imported from \(source)")),
            SensorEvent(time: recording.start, kind: .connected),
        ]
        strap.reserveCapacity(recording.samples.count + 2)
        var nextBeat = 0
        for sample in recording.samples {
            guard let rate = sample.heartRate else { continue } // a gap, not a zero
            var intervals: [UInt16] = []
            while nextBeat < recording.beats.count, recording.beats[nextBeat].time <= sample.time {
                intervals.append(rrUnits(milliseconds: recording.beats[nextBeat].milliseconds))
                nextBeat += 1
            }
            let measurement = HeartRateMeasurement(beatsPerMinute: UInt16(clamping: rate), sensorContact: .detected, rrIntervals: intervals)
            strap.append(SensorEvent(time: sample.time, kind: .notification(characteristic: .heartRateMeasurement, value: measurement.encoded())))
        }
        let pod = footPodEvents(recording.samples)
        let timer = recording.pauses.flatMap { pause in
            [SensorEvent(time: pause.start, kind: .paused)] + (pause.end.map { [SensorEvent(time: $0, kind: .resumed)] } ?? [])
        }
        // At equal times a resume goes first (the value recorded as the timer started again counts),
        // a pause last (so does the one recorded as it stopped); otherwise the strap's, then the pod's.
        func rank(_ event: SensorEvent) -> Int { event.kind == .resumed ? 0 : event.kind == .paused ? 2 : 1 }
        let events = (strap + pod + timer).enumerated()
            .sorted { ($0.element.time, rank($0.element), $0.offset) < ($1.element.time, rank($1.element), $1.offset) }
            .map(\.element)
        let several = !pod.isEmpty || !timer.isEmpty
        return Result(events: events, version: several ? TraceHeader.multiSensorVersion : TraceHeader.singleSensorVersion,
                      droppedTrailingIntervals: recording.beats.count - nextBeat)
    }

    /// The distance sensor: `connected` at its first sample, then a 0x2A53 value per sample with a
    /// distance or speed. Speed and cadence are 0 when the file has none (the total distance is what
    /// the distance comes from); the walking/running bit stays clear (no file says).
    private static func footPodEvents(_ samples: [WorkoutRecording.Sample]) -> [SensorEvent] {
        var events: [SensorEvent] = []
        for sample in samples where sample.hasDistance {
            if events.isEmpty { events.append(SensorEvent(time: sample.time, kind: .connected, sensor: .distance)) }
            let measurement = RunningSpeedCadenceMeasurement(
                speed: UInt16(clamping: Int(((sample.speed ?? 0) * RunningSpeedCadenceMeasurement.speedUnitsPerMeterPerSecond).rounded())),
                cadence: UInt8(clamping: sample.cadence ?? 0),
                totalDistance: sample.distance.map { UInt32(clamping: Int64(($0 * RunningSpeedCadenceMeasurement.totalDistanceUnitsPerMeter).rounded())) },
                isRunning: false
            )
            events.append(SensorEvent(time: sample.time, kind: .notification(characteristic: footPodMeasurement, value: measurement.encoded()),
                                     sensor: .distance))
        }
        return events
    }

    private static let footPodMeasurement = SensorKind.runningSpeedCadence.measurementCharacteristic

    private static func rrUnits(milliseconds: Double) -> UInt16 {
        UInt16(clamping: Int((milliseconds * Double(HeartRateMeasurement.rrUnitsPerSecond) / 1000).rounded()))
    }
}

extension WorkoutRecording {
    /// A CSV recording: `t_seconds,bpm` rows and `t_seconds,rr_ms` rows, relative to `start`, as
    /// `CSVRow.parse` bounded them for that start.
    public init(csvHeartRate: [CSVRow], rrIntervals: [CSVRow] = [], start: Timestamp, source: String) {
        self.init(start: start, source: source)
        samples = csvHeartRate.map { Sample(time: start.adding(microseconds: Self.microseconds($0.seconds)), heartRate: Int($0.value.rounded())) }
        beats = rrIntervals.map { Beat(time: start.adding(microseconds: Self.microseconds($0.seconds)), milliseconds: $0.value) }
    }

    private static func microseconds(_ seconds: Double) -> Int64 {
        Int64(CSVRow.microseconds(seconds))
    }
}
