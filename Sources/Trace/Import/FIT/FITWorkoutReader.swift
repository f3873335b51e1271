import Sensors

/// Reads a FIT file's data messages, in file order, into a `WorkoutRecording`: records become
/// samples (only the values the file holds), hrv messages beats, timer events pauses; `file_id`
/// and the creator's `device_info` name the device; `sport` and `session` say whether cadence
/// counts one foot (running). Everything else is counted as skipped.
struct FITWorkoutReader {
    private var samples: [WorkoutRecording.Sample] = []
    private var beats = RRBeatChain()
    private var timer = TimerPauses()
    private var device = FITDeviceName()
    private var sports: Set<Int64> = []
    /// The last time the file gave, in any message: where beats start before the first record.
    private var latestTime: Timestamp?
    private(set) var skipped: [FITSkip: Int] = [:]

    mutating func read(_ message: FITDataMessage) throws(FITFormatError) {
        let time = message.time.map(FITTimeline.timestamp)
        if let time { latestTime = time }
        switch message.globalNumber {
        case FITProfile.Message.record: try readRecord(message, time: time)
        case FITProfile.Message.hrv: try readHRV(message)
        case FITProfile.Message.event: try readEvent(message, time: time)
        case FITProfile.Message.fileID:
            device.read(message, manufacturer: FITProfile.FileID.manufacturer, product: FITProfile.FileID.product,
                        productName: FITProfile.FileID.productName)
        case FITProfile.Message.deviceInfo where message.field(FITProfile.DeviceInfo.deviceIndex)?.integer() == FITProfile.DeviceInfo.creator:
            device.read(message, manufacturer: FITProfile.DeviceInfo.manufacturer, product: FITProfile.DeviceInfo.product,
                        productName: FITProfile.DeviceInfo.productName)
        case FITProfile.Message.sport: readSport(message, field: FITProfile.Sport.sport)
        case FITProfile.Message.session: readSport(message, field: FITProfile.Sport.sessionSport)
        default: skipped[.unreadMessages, default: 0] += 1
        }
    }

    private mutating func readRecord(_ message: FITDataMessage, time: Timestamp?) throws(FITFormatError) {
        guard let time else {
            throw FITFormatError(offset: message.offset, reason: "record without a time (no timestamp field 253, no compressed timestamp header)")
        }
        if let previous = samples.last?.time, time < previous {
            throw FITFormatError(offset: message.offset, reason: "record time \(UTCTimestampText.format(time)) goes back before the previous record's \(UTCTimestampText.format(previous))")
        }
        var sample = WorkoutRecording.Sample(time: time)
        var speed: Int64?, enhancedSpeed: Int64?
        for field in message.fields {
            switch field.number {
            case FITDecoder.timestampField: continue
            case FITProfile.Record.heartRate: sample.heartRate = value(field).map { Int($0) }
            case FITProfile.Record.cadence: sample.cadence = value(field).map { Int($0) }
            case FITProfile.Record.distance: sample.distance = value(field).map { Double($0) / 100 }
            case FITProfile.Record.speed: speed = value(field)
            case FITProfile.Record.enhancedSpeed: enhancedSpeed = value(field)
            default: skipped[.unreadRecordFields, default: 0] += 1
            }
        }
        sample.speed = (enhancedSpeed ?? speed).map { Double($0) / 1000 }
        samples.append(sample)
    }

    private mutating func readHRV(_ message: FITDataMessage) throws(FITFormatError) {
        guard let intervals = message.field(FITProfile.HRV.time) else { return }
        guard let floor = samples.last?.time ?? latestTime else {
            throw FITFormatError(offset: message.offset, reason: "hrv message before any time in the file: its beats cannot be placed")
        }
        let start = samples.first?.time ?? floor
        for index in 0..<intervals.count {
            guard let milliseconds = value(intervals, at: index) else { continue }
            beats.append(milliseconds: milliseconds, start: start, floor: floor)
        }
    }

    private mutating func readEvent(_ message: FITDataMessage, time: Timestamp?) throws(FITFormatError) {
        guard message.field(FITProfile.Event.event)?.integer() == FITProfile.Event.timer,
              let type = message.field(FITProfile.Event.eventType)?.integer(),
              [FITProfile.Event.start, FITProfile.Event.stop, FITProfile.Event.stopAll].contains(type) else { return }
        guard let time else {
            throw FITFormatError(offset: message.offset, reason: "timer event without a time (no timestamp field 253, no compressed timestamp header)")
        }
        if let previous = timer.lastEventTime, time < previous {
            throw FITFormatError(offset: message.offset, reason: "timer event time \(UTCTimestampText.format(time)) goes back before the previous timer event's \(UTCTimestampText.format(previous))")
        }
        if type == FITProfile.Event.start { timer.started(at: time) } else { timer.stopped(at: time) }
    }

    private mutating func readSport(_ message: FITDataMessage, field: UInt8) {
        if let sport = message.field(field)?.integer() { sports.insert(sport) }
    }

    /// A value hrbridge reads; an invalid one is counted and absent.
    private mutating func value(_ field: FITField, at index: Int = 0) -> Int64? {
        let value = field.integer(at: index)
        if value == nil { skipped[.invalidValues, default: 0] += 1 }
        return value
    }

    /// The recording, once every message is read. `end` is the file's length, where an error
    /// about the whole file points.
    func recording(source: String, end: Int) throws(FITFormatError) -> WorkoutRecording {
        guard let first = samples.first else {
            throw FITFormatError(offset: end, reason: "no record message: the file holds no samples to import")
        }
        var recording = WorkoutRecording(start: min(first.time, timer.pauses.first?.start ?? first.time), source: source, device: device.name)
        recording.samples = samples
        // FIT counts a runner's cadence in strides (one foot) per minute; a foot pod, and so the
        // trace, in steps. Other sports' cadence (a bike's crank) is per revolution, as written.
        if sports == [FITProfile.Sport.running] {
            for index in recording.samples.indices { recording.samples[index].cadence = recording.samples[index].cadence.map { $0 * 2 } }
        }
        recording.beats = beats.beats
        recording.pauses = timer.pauses
        return recording
    }
}
