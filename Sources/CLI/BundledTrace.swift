import Trace

/// The trace shipped inside hrbridge so that `hrbridge replay` works with no strap and no file:
/// a 64-minute treadmill run recorded with a Polar strap, imported from
/// Tests/Fixtures/recordings/pri_treadmill_12km.hr.csv (polar-running-index 1.0.0 test fixture).
enum BundledTrace {
    /// How messages name it.
    static let name = "treadmill-12km.trace"
    /// Its activity state file's key: one for every run of the bundled trace, wherever it starts.
    static let stateKey = "replay-bundled"

    /// The trace's text, built into the binary from Data/ (Plugins/EmbeddedData).
    static var text: String { EmbeddedData.treadmill12kmTrace }

    static func reader() throws(TraceReadError) -> TraceReader {
        try TraceReader(name: name, bytes: Array(text.utf8))
    }
}
