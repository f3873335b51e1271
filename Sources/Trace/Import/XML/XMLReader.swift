/// A streaming, namespace-aware XML reader: start and end events with names resolved to namespace
/// URI + local name, pulled one at a time. It checks what makes a document well-formed across tags
/// (every end tag closes the element open, one root, nothing left open) and keeps only the open
/// elements and their namespace declarations: memory grows with the nesting depth, not the file.
struct XMLReader {
    enum Event: Sendable, Hashable {
        case start(XMLElement)
        /// `text`: the element's character data when it has no child elements (a value such as
        /// `<Time>…</Time>`), else empty.
        case end(XMLName, text: String)
    }

    private struct OpenElement {
        var qualifiedName: String
        var name: XMLName
        var line: Int
    }

    private var tokenizer: XMLTokenizer
    private var scopes = XMLNamespaceScopes()
    private var open: [OpenElement] = []
    /// The character data of the innermost element, while it has had no child element.
    private var leafText: String? = nil
    /// An empty-element tag (`<a/>`) was returned as a start; its end comes next.
    private var endsAtOnce = false
    private var sawRoot = false

    init(_ input: XMLByteStream) {
        tokenizer = XMLTokenizer(input)
    }

    /// How many elements are open: 1 inside the root.
    var depth: Int { open.count }

    /// The next start or end; nil after the root element and whatever follows it.
    mutating func next() throws(XMLError) -> Event? {
        if endsAtOnce {
            endsAtOnce = false
            return close()
        }
        while let token = try tokenizer.next() {
            switch token.kind {
            case let .text(text):
                try take(text, line: token.line)
            case let .start(qualifiedName, attributes, isEmpty):
                guard !(sawRoot && open.isEmpty) else {
                    throw XMLError(line: token.line, reason: "a second root element <\(qualifiedName)>")
                }
                sawRoot = true
                let resolvedAttributes = try scopes.enter(qualifiedName, attributes: attributes, line: token.line)
                let name = try scopes.resolve(qualifiedName, line: token.line)
                open.append(OpenElement(qualifiedName: qualifiedName, name: name, line: token.line))
                leafText = ""
                endsAtOnce = isEmpty
                return .start(XMLElement(name: name, attributes: resolvedAttributes, line: token.line))
            case let .end(qualifiedName):
                guard let innermost = open.last else {
                    throw XMLError(line: token.line, reason: "end tag </\(qualifiedName)> closes no element")
                }
                guard innermost.qualifiedName == qualifiedName else {
                    throw XMLError(line: token.line, reason: "end tag </\(qualifiedName)> where <\(innermost.qualifiedName)> (line \(innermost.line)) must end")
                }
                return close()
            }
        }
        if let innermost = open.last {
            throw XMLError(line: tokenizer.line, reason: "the file ends inside <\(innermost.qualifiedName)> opened at line \(innermost.line)")
        }
        guard sawRoot else { throw XMLError(line: tokenizer.line, reason: "no root element: the file holds no XML element") }
        return nil
    }

    private mutating func close() -> Event {
        let element = open.removeLast()
        scopes.leave()
        let text = leafText ?? ""
        leafText = nil // the parent has had a child: its text is no value
        return .end(element.name, text: text)
    }

    private mutating func take(_ text: String, line: Int) throws(XMLError) {
        guard !open.isEmpty else {
            // Outside the root only whitespace (and a byte-order mark before it) may stand.
            let allowed = { (scalar: Unicode.Scalar) in scalar == "\u{FEFF}" || (scalar.isASCII && UInt8(scalar.value).isXMLWhitespace) }
            guard let stray = text.unicodeScalars.firstIndex(where: { !allowed($0) }) else { return }
            let linesBefore = text.unicodeScalars[..<stray].count { $0 == "\n" }
            throw XMLError(line: line + linesBefore, reason: "text outside the root element")
        }
        guard let sofar = leafText else { return }
        guard sofar.utf8.count + text.utf8.count <= XMLTokenizer.longestToken else {
            throw XMLError(line: line, reason: "a text longer than \(XMLTokenizer.longestToken) bytes")
        }
        leafText = sofar + text
    }
}

/// A start tag: the element's name and attributes resolved, and where it starts.
struct XMLElement: Sendable, Hashable {
    struct Attribute: Sendable, Hashable {
        var name: XMLName
        var value: String
    }

    var name: XMLName
    var attributes: [Attribute]
    var line: Int

    /// The value of the attribute `local` without a prefix (`lat`, `Sport`).
    func attribute(_ local: String) -> String? {
        attributes.first { $0.name == XMLName("", local) }?.value
    }
}
