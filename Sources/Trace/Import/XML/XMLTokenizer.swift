/// A pull tokenizer over UTF-8 bytes: each `next()` reads one tag or one run of text. It is linear in
/// the input and keeps nothing between tokens; a token is at most `longestToken` bytes, so memory
/// stays flat however long the recording. Well-formedness across tokens (tags that match, one root)
/// is `XMLReader`'s.
struct XMLTokenizer {
    /// A longer name, attribute value or run of text is refused rather than buffered without bound
    /// (a recording's values are a few bytes; its longest texts are descriptions).
    static let longestToken = 1 << 20

    private var input: XMLByteStream

    init(_ input: XMLByteStream) {
        self.input = input
    }

    /// The line the next token starts on (after the last one: where the file ends).
    var line: Int { input.line }

    /// The next token; nil at the end of the input. Skips comments, processing instructions (the
    /// XML declaration among them) and the DOCTYPE.
    mutating func next() throws(XMLError) -> XMLToken? {
        while true {
            let line = input.line
            guard let byte = try input.peek() else { return nil }
            guard byte == .lessThan else { return XMLToken(kind: .text(try text()), line: line) }
            _ = try input.next()
            switch try input.next() {
            case UInt8(ascii: "/"):
                return XMLToken(kind: try endTag(openedAt: line), line: line)
            case UInt8(ascii: "?"):
                try skip(through: "?>", what: "processing instruction", openedAt: line)
            case UInt8(ascii: "!"):
                if let section = try markupDeclaration(openedAt: line) { return XMLToken(kind: .text(section), line: line) }
            case let first?:
                return XMLToken(kind: try startTag(first: first, openedAt: line), line: line)
            case nil:
                throw XMLError(line: line, reason: "the file ends after '<'")
            }
        }
    }

    // MARK: - Tags

    private mutating func startTag(first: UInt8, openedAt line: Int) throws(XMLError) -> XMLToken.Kind {
        let name = try name(startingWith: first, line: line)
        var attributes: [XMLAttribute] = []
        while true {
            let spaced = try skipWhitespace()
            switch try input.next() {
            case .greaterThan?:
                return .start(name: name, attributes: attributes, isEmpty: false)
            case UInt8(ascii: "/")?:
                guard try input.next() == .greaterThan else { throw XMLError(line: input.line, reason: "'/' not followed by '>' in <\(name)>") }
                return .start(name: name, attributes: attributes, isEmpty: true)
            case let first?:
                guard spaced else { throw XMLError(line: input.line, reason: "no space before attribute in <\(name)>") }
                let attribute = try attribute(startingWith: first, in: name)
                guard !attributes.contains(where: { $0.name == attribute.name }) else {
                    throw XMLError(line: input.line, reason: "attribute '\(attribute.name)' given twice in <\(name)>")
                }
                attributes.append(attribute)
            case nil:
                throw XMLError(line: input.line, reason: "the file ends inside the tag <\(name)> opened at line \(line)")
            }
        }
    }

    private mutating func attribute(startingWith first: UInt8, in element: String) throws(XMLError) -> XMLAttribute {
        let name = try name(startingWith: first, line: input.line)
        try skipWhitespace()
        guard try input.next() == UInt8(ascii: "=") else {
            throw XMLError(line: input.line, reason: "attribute '\(name)' in <\(element)> has no '=value'")
        }
        try skipWhitespace()
        let line = input.line
        guard let quote = try input.next(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw XMLError(line: line, reason: "the value of attribute '\(name)' in <\(element)> is not quoted")
        }
        var value: [UInt8] = []
        while true {
            switch try input.next() {
            case quote?:
                return XMLAttribute(name: name, value: String(decoding: value, as: UTF8.self))
            case .lessThan?:
                throw XMLError(line: input.line, reason: "'<' in the value of attribute '\(name)' (write it as &lt;)")
            case .ampersand?:
                try appendReference(to: &value)
            case let byte? where byte == .tab || byte == .newline || byte == .carriageReturn:
                try append(.space, to: &value) // attribute-value normalization, as XML 1.0 §3.3.3 asks
            case let byte?:
                try append(byte, to: &value)
            case nil:
                throw XMLError(line: input.line, reason: "the file ends inside the value of attribute '\(name)' opened at line \(line)")
            }
        }
    }

    private mutating func endTag(openedAt line: Int) throws(XMLError) -> XMLToken.Kind {
        guard let first = try input.next() else { throw XMLError(line: line, reason: "the file ends after '</'") }
        let name = try name(startingWith: first, line: line)
        try skipWhitespace()
        guard try input.next() == .greaterThan else { throw XMLError(line: input.line, reason: "end tag </\(name)> not closed by '>'") }
        return .end(name: name)
    }

    /// A name as written (`gpxtpx:hr`), after its first byte. Bytes of multi-byte UTF-8 characters are
    /// taken as name characters: names in the wild are ASCII, and a wrong one only fails to match.
    private mutating func name(startingWith first: UInt8, line: Int) throws(XMLError) -> String {
        guard first.isNameByte, !first.isDigit, first != UInt8(ascii: "-"), first != UInt8(ascii: ".") else {
            throw XMLError(line: line, reason: "'\(Unicode.Scalar(first))' cannot start a name")
        }
        var bytes = [first]
        while let byte = try input.peek(), byte.isNameByte {
            try append(byte, to: &bytes)
            _ = try input.next()
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Text

    private mutating func text() throws(XMLError) -> String {
        var bytes: [UInt8] = []
        while let byte = try input.peek(), byte != .lessThan {
            _ = try input.next()
            if byte == .ampersand { try appendReference(to: &bytes) } else { try append(byte, to: &bytes) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// After an `&`: reads the reference up to its `;` and appends the character it stands for.
    private mutating func appendReference(to bytes: inout [UInt8]) throws(XMLError) {
        let line = input.line
        var name: [UInt8] = []
        while true {
            let byte = try input.next()
            if byte == UInt8(ascii: ";") { break }
            guard let byte, byte.isReferenceByte, name.count < XMLReference.longestName else {
                throw XMLError(line: line, reason: "'&' starts no entity or character reference (write it as &amp;)")
            }
            name.append(byte)
        }
        guard let character = XMLReference.character(named: name) else {
            throw XMLError(line: line, reason: "unknown entity or bad character reference '&\(String(decoding: name, as: UTF8.self));'")
        }
        for byte in String(character).utf8 { try append(byte, to: &bytes) }
    }

    // MARK: - Comments, CDATA, DOCTYPE

    /// After `<!`: skips a comment or the DOCTYPE (nil), or returns a CDATA section's content.
    private mutating func markupDeclaration(openedAt line: Int) throws(XMLError) -> String? {
        let malformed = XMLError(line: line, reason: "'<!' starts no comment, CDATA section or DOCTYPE")
        switch try input.peek() {
        case UInt8(ascii: "-"):
            guard try input.skip("--") else { throw malformed }
            try skip(through: "-->", what: "comment", openedAt: line)
        case UInt8(ascii: "["):
            guard try input.skip("[CDATA[") else { throw malformed }
            return try cdataSection(openedAt: line)
        case UInt8(ascii: "D"):
            guard try input.skip("DOCTYPE") else { throw malformed }
            try skipDoctype(openedAt: line)
        default:
            throw malformed
        }
        return nil
    }

    private mutating func cdataSection(openedAt line: Int) throws(XMLError) -> String {
        let terminator = Array("]]>".utf8)
        var bytes: [UInt8] = []
        while let byte = try input.next() {
            try append(byte, to: &bytes)
            if bytes.count >= terminator.count, bytes.suffix(terminator.count).elementsEqual(terminator) {
                return String(decoding: bytes.dropLast(terminator.count), as: UTF8.self)
            }
        }
        throw XMLError(line: input.line, reason: "the file ends inside the CDATA section opened at line \(line)")
    }

    /// Skips up to and including `terminator`, keeping only as many bytes as it is long.
    private mutating func skip(through terminator: String, what: String, openedAt line: Int) throws(XMLError) {
        let terminator = Array(terminator.utf8)
        var recent: [UInt8] = []
        while let byte = try input.next() {
            if recent.count == terminator.count { recent.removeFirst() }
            recent.append(byte)
            if recent == terminator { return }
        }
        throw XMLError(line: input.line, reason: "the file ends inside the \(what) opened at line \(line)")
    }

    /// The DOCTYPE up to its closing `>`, with its internal subset in brackets and quoted literals.
    private mutating func skipDoctype(openedAt line: Int) throws(XMLError) {
        var bracketDepth = 0
        var quote: UInt8?
        while let byte = try input.next() {
            if let open = quote {
                if byte == open { quote = nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
            case UInt8(ascii: "["): bracketDepth += 1
            case UInt8(ascii: "]"): bracketDepth -= 1
            case .greaterThan where bracketDepth == 0: return
            default: break
            }
        }
        throw XMLError(line: input.line, reason: "the file ends inside the DOCTYPE opened at line \(line)")
    }

    // MARK: - Bytes

    /// Whether any whitespace was skipped.
    @discardableResult
    private mutating func skipWhitespace() throws(XMLError) -> Bool {
        var skipped = false
        while let byte = try input.peek(), byte.isXMLWhitespace {
            _ = try input.next()
            skipped = true
        }
        return skipped
    }

    private func append(_ byte: UInt8, to bytes: inout [UInt8]) throws(XMLError) {
        guard bytes.count < Self.longestToken else {
            throw XMLError(line: input.line, reason: "a name, value or text longer than \(Self.longestToken) bytes")
        }
        bytes.append(byte)
    }
}

extension UInt8 {
    static let lessThan = UInt8(ascii: "<")
    static let greaterThan = UInt8(ascii: ">")
    static let ampersand = UInt8(ascii: "&")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")

    var isXMLWhitespace: Bool { self == .space || self == .tab || self == .newline || self == .carriageReturn }
    var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }

    /// ASCII letters and digits, `_ : - .`, and every byte of a multi-byte UTF-8 character.
    fileprivate var isNameByte: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "."), 0x80...0xFF: true
        default: false
        }
    }

    /// What may stand between `&` and `;`: a name's ASCII letters or `#` and digits.
    fileprivate var isReferenceByte: Bool {
        switch self {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "#"): true
        default: false
        }
    }
}
