extension WorkoutRecording {
    /// Decodes a FIT activity file (Garmin's Flexible and Interoperable Data Transfer protocol):
    /// `bytes` as read from `path`, which errors name (`path: byte 1234: reason`); `source` names
    /// the file in the trace's note. Times are the file's own.
    public init(fit bytes: [UInt8], path: String, source: String) throws(ImportError) {
        var reader = FITWorkoutReader()
        do {
            let skipped = try FITDecoder(bytes: bytes).decode { message throws(FITFormatError) in try reader.read(message) }
            self = try reader.recording(source: source, end: bytes.count)
            tolerated = FITSkip.report(skipped.merging(reader.skipped, uniquingKeysWith: +))
        } catch {
            throw ImportError(path: path, location: "byte \(error.offset)", reason: error.reason)
        }
    }
}
