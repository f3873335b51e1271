/// One update on its way to every sink of a session, with its NDJSON line encoded at most once
/// however many sinks write it (stdout, a file, MQTT and a lifecycle server all send the same bytes).
/// Lazy: a run with push sinks only never encodes it. Used on the session's queue only.
public final class EncodedUpdate {
    public let update: ActivityUpdate

    public init(_ update: ActivityUpdate) { self.update = update }

    /// `UpdateLine.encode(update)`, newline included, or why it cannot go out (too large for the phone).
    public private(set) lazy var line: Result<[UInt8], LiveStateError> = {
        do throws(LiveStateError) { return .success(try UpdateLine.encode(update)) } catch { return .failure(error) }
    }()

    /// The line without its newline: a request body, an MQTT payload.
    public func body() throws(LiveStateError) -> [UInt8] {
        var bytes = try line.get()
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        return bytes
    }
}
