import Sensors
import Trace

/// Every importer's contract: a file it accepts becomes a trace the writer takes and the reader
/// reads back event for event (an import that wrote a trace the reader refuses was issue 15's
/// CSV defect).
extension FuzzTarget {
    static let csv = FuzzTarget(name: "csv", summary: "import csv (bpm, then rr_ms rows), through a trace") { bytes throws(ContractViolation) in
        let text = String(decoding: bytes, as: UTF8.self)
        let start = RecordingImport.defaultStart
        guard let rates = try? CSVRow.parse(text, path: "fuzz.csv", rule: .beatsPerMinute, start: start) else { return }
        let intervals = (try? CSVRow.parse(text, path: "fuzz.csv", rule: .rrMilliseconds, start: start)) ?? []
        try imports(WorkoutRecording(csvHeartRate: rates, rrIntervals: intervals, start: start, source: "fuzz.csv"), "csv")
    }

    static let fit = FuzzTarget(name: "fit", summary: "import fit (binary), through a trace") { bytes throws(ContractViolation) in
        guard let recording = try? WorkoutRecording(fit: bytes, path: "fuzz.fit", source: "fuzz.fit") else { return }
        try imports(recording, "fit")
    }

    static let tcx = FuzzTarget(name: "tcx", summary: "import tcx (XML), through a trace") { bytes throws(ContractViolation) in
        guard let recording = (try? TCXFile.read(XMLByteStream(bytes: bytes), path: "fuzz.tcx", activity: 1))?.recording else { return }
        try imports(recording, "tcx")
    }

    static let gpx = FuzzTarget(name: "gpx", summary: "import gpx (XML), through a trace") { bytes throws(ContractViolation) in
        guard let file = try? GPXFile.read(XMLByteStream(bytes: bytes), path: "fuzz.gpx") else { return }
        try imports(file.recording, "gpx")
    }

    /// A capture becomes a trace per device, each with its own header.
    static let btsnoop = FuzzTarget(name: "btsnoop", summary: "import btsnoop (btmon capture), each device through a trace") { bytes throws(ContractViolation) in
        guard let result = try? BtsnoopImport.convert(bytes, source: "fuzz.btsnoop") else { return }
        for device in result.devices {
            try TraceFile.roundTrip(header: device.header, events: device.events, what: "btsnoop \(device.address)")
        }
    }

    /// As `hrbridge import` writes it (ImportCommand.write): the header names the device and the source.
    private static func imports(_ recording: WorkoutRecording, _ format: String) throws(ContractViolation) {
        let result = RecordingImport.trace(of: recording)
        var header = TraceHeader(start: recording.start, name: recording.device, version: result.version)
        header.source = recording.source
        try TraceFile.roundTrip(header: header, events: result.events, what: "import \(format)")
    }
}
