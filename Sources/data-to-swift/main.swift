#if canImport(Glibc)
import Glibc
#endif

/// `data-to-swift OUTPUT.swift FILE...`: the build-time half of Plugins/EmbeddedData. Writes
/// `enum EmbeddedData` with one `static let` per file, named from the file's name in lowerCamelCase
/// (`treadmill-12km.trace` → `treadmill12kmTrace`, `preview.js` → `previewJs`), holding its text as
/// a raw string literal delimited by one more `#` than any run of them after a quote in the text,
/// so nothing in it can end the literal (the last line break before the closing delimiter is not
/// part of a multiline literal: the text comes out exactly). A literal compiles in a fraction of
/// the time a byte array of the same size would. Text only: UTF-8, lines ending in LF.
func fail(_ message: String) -> Never {
    let line = "data-to-swift: \(message)\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    exit(1)
}

func read(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else { fail("cannot open \(path): \(String(cString: strerror(errno)))") }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count == 0 { break }
        bytes += buffer[0..<count]
    }
    guard ferror(file) == 0 else { fail("cannot read \(path)") }
    return bytes
}

/// `treadmill-12km.trace` → `treadmill12kmTrace`: the name's letters and digits, each later part capitalised.
func identifier(_ name: String) -> String {
    let parts = name.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
    guard let first = parts.first, let initial = first.first, initial.isLetter else {
        fail("\(name): a data file's name must start with a letter")
    }
    return first.lowercased() + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
}

/// The file's text as a raw multiline literal.
func literal(_ path: String) -> String {
    let bytes = read(path)
    guard let text = String(validating: bytes, as: UTF8.self) else { fail("\(path) is not UTF-8") }
    // A multiline literal reads a CR LF as LF: the text would not be the file's.
    guard !bytes.contains(UInt8(ascii: "\r")) else { fail("\(path) has a carriage return; lines must end in LF") }
    var longestRun = 0
    var run = -1 // -1: not after a quote
    for byte in bytes {
        if byte == UInt8(ascii: "\"") { run = 0 } else if byte == UInt8(ascii: "#"), run >= 0 { run += 1; longestRun = max(longestRun, run) } else { run = -1 }
    }
    let hashes = String(repeating: "#", count: longestRun + 1)
    return "\(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)"
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else { fail("usage: data-to-swift OUTPUT.swift FILE...") }
var names: Set<String> = []
var members = ""
for path in arguments.dropFirst(2) {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let member = identifier(name)
    guard names.insert(member).inserted else { fail("\(name): another file's name gives the same '\(member)'") }
    members += "    /// Data/\(name)\n    static let \(member) = \(literal(path))\n"
}
let source = """
// Generated at build time from the files under Data/ by data-to-swift (Plugins/EmbeddedData):
// edit those files, not this.
enum EmbeddedData {
\(members)}

"""
guard let output = fopen(arguments[1], "wb") else { fail("cannot write \(arguments[1]): \(String(cString: strerror(errno)))") }
let written = source.utf8.withContiguousStorageIfAvailable { fwrite($0.baseAddress, 1, $0.count, output) } ?? 0
guard written == source.utf8.count, fclose(output) == 0 else { fail("cannot write \(arguments[1])") }
