import Trace

/// A kind of file `hrbridge import` reads: its name on the command line, and how its content is
/// recognised when the name is left out (by what the file holds, never by its extension).
enum ImportFormat: String, CaseIterable, Sendable {
    case csv
    case fit
    case tcx
    case gpx
    /// A `btmon -w` capture: not a recording but a session's raw traffic (BtsnoopImportCommand).
    case btsnoop

    /// What the first bytes of a file say it is; nil when nothing does. Formats with a signature
    /// are asked first; CSV, which has none, last.
    static func recognising(_ head: [UInt8]) -> ImportFormat? {
        if head.starts(with: Array("btsnoop\0".utf8)) { return .btsnoop }
        // FIT: ".FIT" at bytes 8–11 of the file header.
        if head.count >= 12, head[8..<12].elementsEqual(".FIT".utf8) { return .fit }
        // TCX and GPX: XML whose root element, after the prolog, names the format.
        if let root = XMLRootElement.localName(in: head) {
            switch root {
            case "TrainingCenterDatabase": return .tcx
            case "gpx": return .gpx
            default: return nil // XML of another kind
            }
        }
        let text = String(decoding: head, as: UTF8.self)
        // CSV: the first non-blank line is two comma-separated columns.
        let firstLine = text.split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) }
        if let firstLine, firstLine.split(separator: ",", omittingEmptySubsequences: false).count == 2 { return .csv }
        return nil
    }

    /// How many leading bytes `recognising` looks at: enough for an XML prolog and its comments.
    static let headLength = 4096
}
