import BlueZ
import Sensors
import Trace
import SessionState

/// `--record` and `record`: every event of one strap (and of the distance sensor beside it, in a
/// version-2 trace) written as it arrives (one write per line), before anything else sees it. The
/// header is written with the first event, whose time becomes the trace's start. Events come in
/// time order (`EventOrder`, which the engine's events pass too). After a write failure it stops
/// and reports that once. Several straps recorded together get a file each (`files(_:for:)`).
// Written only on one strap's events queue; `failure` is read once its links have stopped (waitForAll).
public final class TraceRecorder: @unchecked Sendable {
    private let path: String
    private let selector: SensorSelector
    private let distance: SensorSelector?
    private let heartRateFrom: HeartRateSource
    private var writer: TraceWriter?
    /// The write that failed, with where the trace now ends; nothing is written after it.
    public private(set) var failure: SessionError?

    /// `distance`: the distance sensor whose events share the file (on the same queue);
    /// `heartRateFrom`: whether its own heart rate may stand in for the strap's, which the header says
    /// so that a replay decides as the run did.
    public init(path: String, selector: SensorSelector, distance: SensorSelector? = nil, heartRateFrom: HeartRateSource = .strap) {
        self.path = path
        self.selector = selector
        self.distance = distance
        self.heartRateFrom = heartRateFrom
    }

    /// nil, or the failure (once); later events are not written. The file keeps every whole line
    /// written before it (a half-written line is cut back): a valid trace up to `event`.
    public func append(_ event: SensorEvent) -> SessionError? {
        guard failure == nil else { return nil }
        do {
            if writer == nil {
                var header = TraceHeader(start: event.time)
                (header.address, header.name) = Self.addressAndName(selector)
                if let distance {
                    header.version = TraceHeader.multiSensorVersion
                    (header.distanceAddress, header.distanceName) = Self.addressAndName(distance)
                    if heartRateFrom != .strap { header.heartRateFrom = heartRateFrom }
                }
                writer = try TraceWriter(path: path, header: header)
            }
            try writer!.append(event)
            return nil
        } catch {
            let cut = writer == nil ? "" : "; the trace holds every event before \(UTCTimestampText.format(event.time)) and ends there"
            failure = .unwritable("\(error)\(cut)")
            return failure
        }
    }
}

extension TraceRecorder {
    /// How the header names a sensor: by the address or the name it was asked for ("the first
    /// strap found" names none).
    private static func addressAndName(_ selector: SensorSelector) -> (address: String?, name: String?) {
        switch selector {
        case let .address(address): (address, nil)
        case let .name(name): (nil, name)
        case .anyHeartRateStrap: (nil, nil)
        }
    }
}

extension TraceRecorder {
    /// A recorder per strap, each to its file (`files(_:for:)`), with the distance sensor beside it.
    public static func recorders(_ path: String,
                                 for straps: [(strap: SensorSelector, distance: SensorSelector?, heartRateFrom: HeartRateSource)]) -> [TraceRecorder] {
        zip(straps, files(path, for: straps.map(\.strap))).map {
            TraceRecorder(path: $1, selector: $0.strap, distance: $0.distance, heartRateFrom: $0.heartRateFrom)
        }
    }

    /// The file each strap is recorded to: `path` itself for one strap; for several, the strap
    /// inserted before the extension (`today.trace` → `today.F1-5A-17-00-00-01.trace`,
    /// `today.HRM-Pro.trace`), so that every trace stays one strap's, as replay expects.
    public static func files(_ path: String, for selectors: [SensorSelector]) -> [String] {
        guard selectors.count > 1 else { return selectors.map { _ in path } }
        let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
        let dot = path[slash...].lastIndex(of: ".").flatMap { $0 > slash ? $0 : nil }
        let (stem, suffix) = dot.map { (path[..<$0], path[$0...]) } ?? (path[...], "")
        return selectors.map { "\(stem).\(fileLabel($0))\(suffix)" }
    }

    /// A strap as a file-name part: letters, digits, `-` and `_`; anything else becomes `-`.
    private static func fileLabel(_ selector: SensorSelector) -> String {
        let text = switch selector {
        case let .address(address): address
        case let .name(name): name
        case .anyHeartRateStrap: "any"
        }
        return String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "-" })
    }
}
