import SinkVocabulary
extension SinkKind {
    /// `--sink file:PATH`, `{"type": "file", "path": …}`: NDJSON appended to a file, synced at each
    /// start and end.
    public static let file = SinkKind(
        name: "file", selector: .prefix("file:", option: "path"),
        summary: "NDJSON lines appended to a file",
        options: [
            SinkOption(key: "path", flag: nil, .path, required: true, help: "the file to append NDJSON lines to"),
        ],
        make: { values, _ throws(SinkSetupError) in
            do {
                return try LineSink.appending(toFile: values.text("path")!)
            } catch let error as SinkError {
                throw .cannotCreate(error.description)
            } catch {
                throw .cannotCreate("\(error)")
            }
        }
    )
}
