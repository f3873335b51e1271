/// One update with its NDJSON line, encoded once when the session sends it: the state file writes
/// those very bytes (`lastUpdate`), and every sink of the session gets the same value (stdout, a
/// file, MQTT and a lifecycle server all send the same bytes).
public struct EncodedUpdate: Sendable, Equatable {
    public let update: ActivityUpdate
    /// `UpdateLine.encode(update)`, newline included, or why it cannot go out (too large for the phone).
    public let line: Result<[UInt8], LiveStateError>

    public init(_ update: ActivityUpdate) {
        self.update = update
        do throws(LiveStateError) { line = .success(try UpdateLine.encode(update)) } catch { line = .failure(error) }
    }

    /// The line without its newline: a request body, an MQTT payload.
    public func body() throws(LiveStateError) -> [UInt8] {
        var bytes = try line.get()
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        return bytes
    }
}
