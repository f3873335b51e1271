extension SinkKind {
    /// `--sink stdout`, `{"type": "stdout"}`: NDJSON on standard output (the journal, under systemd).
    public static let standardOutput = SinkKind(
        name: "stdout", selector: .word("stdout"),
        summary: "NDJSON lines on standard output (the default)",
        options: [],
        make: { _, setup in LineSink(name: "stdout", output: setup.standardOutput) }
    )
}
