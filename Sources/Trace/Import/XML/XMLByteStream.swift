#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of an XML document, pulled one at a time with one byte of look-ahead: from a file
/// through one fixed buffer, so a long recording is never all in memory, or from an array (tests,
/// a file's first bytes). Counts lines for error messages.
public struct XMLByteStream {
    private static let chunkSize = 1 << 16

    private var buffer: [UInt8]
    private var position = 0
    private var end: Int
    /// nil: `buffer` is the whole document.
    private let descriptor: Int32?
    /// The line of the next byte, from 1.
    private(set) var line = 1

    public init(bytes: [UInt8]) {
        buffer = bytes
        end = bytes.count
        descriptor = nil
    }

    /// Reads `descriptor` from its current offset to its end. The caller owns the descriptor and
    /// closes it after reading.
    public init(descriptor: Int32) {
        buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        end = 0
        self.descriptor = descriptor
    }

    /// The next byte, left in place; nil at the end of the document.
    mutating func peek() throws(XMLError) -> UInt8? {
        if position == end, try !refill() { return nil }
        return buffer[position]
    }

    /// The next byte, consumed; nil at the end of the document.
    mutating func next() throws(XMLError) -> UInt8? {
        guard let byte = try peek() else { return nil }
        position += 1
        if byte == UInt8(ascii: "\n") { line += 1 }
        return byte
    }

    /// Whether the next bytes are `expected`, consuming them. A mismatch leaves what matched so far
    /// consumed: callers treat it as malformed markup (`<!-x`), never try something else.
    mutating func skip(_ expected: String) throws(XMLError) -> Bool {
        for byte in expected.utf8 {
            guard try peek() == byte else { return false }
            _ = try next()
        }
        return true
    }

    private mutating func refill() throws(XMLError) -> Bool {
        guard let descriptor else { return false }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw XMLError(line: line, reason: "cannot read the file: \(String(cString: strerror(errno)))")
            }
            position = 0
            end = count
            return count > 0
        }
    }
}
