/// How an importer walks a document: element by element, each method reading the children it knows
/// and leaving the rest to be skipped, with the reader's failures reported as the file's.
struct XMLWalker {
    private var reader: XMLReader
    let path: String

    init(_ input: XMLByteStream, path: String) {
        reader = XMLReader(input)
        self.path = path
    }

    /// How many elements are open: 1 inside the root.
    var depth: Int { reader.depth }

    /// The next child element of the element open at `depth` (0: the root itself), skipping any
    /// deeper content the caller did not read; nil once that element has ended.
    mutating func nextChild(inside depth: Int) throws(ImportError) -> XMLElement? {
        while let event = try next() {
            switch event {
            case let .start(element) where reader.depth == depth + 1: return element
            case .end where reader.depth < depth: return nil
            default: continue
            }
        }
        return nil
    }

    /// The text of the element whose start was just returned, reading through its end.
    mutating func text() throws(ImportError) -> String {
        let depth = reader.depth
        while let event = try next() {
            if case let .end(_, text) = event, reader.depth < depth { return text }
        }
        return ""
    }

    /// The file's failure at `line`.
    func failure(line: Int, _ reason: String) -> ImportError {
        ImportError(path: path, location: "line \(line)", reason: reason)
    }

    private mutating func next() throws(ImportError) -> XMLReader.Event? {
        do {
            return try reader.next()
        } catch {
            throw failure(line: error.line, error.reason)
        }
    }
}
