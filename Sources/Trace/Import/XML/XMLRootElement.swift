/// The root element's name from a file's first bytes, for telling formats apart by content: what
/// follows the prolog (XML declaration, comments, DOCTYPE). Only the root's start tag need be whole.
public enum XMLRootElement {
    /// The root's local name (`gpx` for `<gpx …>` and `<g:gpx …>`); nil when `head` does not start
    /// as an XML document.
    public static func localName(in head: [UInt8]) -> String? {
        var tokenizer = XMLTokenizer(XMLByteStream(bytes: head))
        while let token = try? tokenizer.next() {
            switch token.kind {
            case let .start(name, _, _):
                return String(name.split(separator: ":").last ?? Substring(name))
            case let .text(text) where (text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text).trimmingXMLWhitespace.isEmpty:
                continue // whitespace, after a byte-order mark perhaps
            default:
                return nil
            }
        }
        return nil
    }
}
