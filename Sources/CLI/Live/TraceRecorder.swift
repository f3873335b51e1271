import BlueZ
import HeartRate
import Trace

/// `--record` and `record`: every event of one strap written as it arrives (one write per line),
/// before anything else sees it. The header is written with the first event, whose time becomes
/// the trace's start. Times are kept monotonic: a value read before the link's `connected` was
/// stamped is written at the later time, never reordered. After a write failure it stops and
/// reports that once.
final class TraceRecorder: @unchecked Sendable { // used on one strap's events queue only
    private let path: String
    private let selector: BlueZ.StrapSelector
    private var writer: TraceWriter?
    private var lastTime: Timestamp?
    private var failed = false

    init(path: String, selector: BlueZ.StrapSelector) {
        self.path = path
        self.selector = selector
    }

    /// nil, or the failure (once); later events are not written.
    func append(_ event: StrapEvent) -> CLIError? {
        guard !failed else { return nil }
        do {
            if writer == nil {
                var header = TraceHeader(start: event.time)
                switch selector {
                case let .address(address): header.address = address
                case let .name(name): header.name = name
                case .anyHeartRateStrap: break
                }
                writer = try TraceWriter(path: path, header: header)
            }
            var event = event
            if let lastTime, event.time < lastTime { event.time = lastTime }
            lastTime = event.time
            try writer!.append(event)
            return nil
        } catch {
            failed = true
            return .cannotCreate("\(error)")
        }
    }
}
