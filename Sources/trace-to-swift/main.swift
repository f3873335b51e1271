#if canImport(Glibc)
import Glibc
#endif

/// `trace-to-swift TRACE OUTPUT.swift`: the build-time half of the bundled trace
/// (Plugins/BundledTraceCode). Writes `extension BundledTrace { static let text = … }` with the
/// file's bytes as a raw string literal, delimited by one more `#` than any run of them after a
/// quote in the text, so nothing in it can end the literal (the last line break before the closing
/// delimiter is not part of a multiline literal: the text comes out exactly). A literal compiles in
/// a fraction of the time a byte array of the same size would.
func fail(_ message: String) -> Never {
    let line = "trace-to-swift: \(message)\n"
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

let arguments = CommandLine.arguments
guard arguments.count == 3 else { fail("usage: trace-to-swift TRACE OUTPUT.swift") }
let bytes = read(arguments[1])
guard let text = String(validating: bytes, as: UTF8.self) else { fail("\(arguments[1]) is not UTF-8") }
// A multiline literal reads a CR LF as LF: the text would not be the file's.
guard !bytes.contains(UInt8(ascii: "\r")) else { fail("\(arguments[1]) has a carriage return; a trace's lines end in LF") }

var longestRun = 0
var run = -1 // -1: not after a quote
for byte in bytes {
    if byte == UInt8(ascii: "\"") { run = 0 } else if byte == UInt8(ascii: "#"), run >= 0 { run += 1; longestRun = max(longestRun, run) } else { run = -1 }
}
let hashes = String(repeating: "#", count: longestRun + 1)
let name = arguments[1].split(separator: "/").last.map(String.init) ?? arguments[1]
let source = """
// Generated at build time from \(name) by trace-to-swift (Plugins/BundledTraceCode): edit the
// trace, not this.
extension BundledTrace {
    static let text = \(hashes)\"\"\"
\(text)
\"\"\"\(hashes)
}

"""
guard let output = fopen(arguments[2], "wb") else { fail("cannot write \(arguments[2]): \(String(cString: strerror(errno)))") }
let written = source.utf8.withContiguousStorageIfAvailable { fwrite($0.baseAddress, 1, $0.count, output) } ?? 0
guard written == source.utf8.count, fclose(output) == 0 else { fail("cannot write \(arguments[2])") }
