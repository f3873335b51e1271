import HeartRate

/// The seam between a live strap and the rest of the pipeline: StrapEvents in, the same
/// output replay produces (one sample JSON line per 0x2A37 value) out. When the LiveState
/// engine lands, its driver replaces the body of `consume(_:)`; callers stay as they are.
struct StrapEventPipeline {
    let console: Console
    /// Room for a sample line with a few RR intervals without growing.
    static let typicalLineLength = 160

    /// One event, synchronously: the live path calls this from the links' event queue.
    func consume(_ event: StrapEvent) {
        switch event.kind {
        case let .notification(characteristic, value) where characteristic == .heartRateMeasurement:
            do {
                let measurement = try HeartRateMeasurement(parsing: value)
                // A small line buffer of its own: appending into the output's 68 KB buffer
                // copies it (copy-on-write) for every line, which costs ~1.5 ms per sample of
                // guest CPU in the realbluez VM.
                var line: [UInt8] = []
                line.reserveCapacity(Self.typicalLineLength)
                SampleJSON.append(measurement, at: event.time, to: &line)
                console.output.write(line)
                console.output.flush() // live: every sample goes out as it comes
            } catch {
                console.warn("dropped malformed 0x2A37 value \(Hex.encode(value)): \(error)")
            }
        case let .battery(level):
            console.warn("battery \(level.percent) %")
        case let .bodySensorLocation(location):
            console.warn("body sensor location: \(location.name)")
        default:
            break
        }
    }

    /// A whole stream of events (tests, or a source that already is a stream).
    func consume(_ events: AsyncStream<StrapEvent>) async {
        for await event in events { consume(event) }
    }
}
