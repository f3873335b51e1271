#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file descriptor line by line through one reusable buffer, so memory stays flat
/// however long the trace is.
struct LineReader {
    /// A line longer than this is refused rather than buffered without bound.
    static let maximumLineLength = 1 << 16
    private static let chunkSize = 1 << 16

    enum Failure: Error {
        case lineTooLong
        case readFailed(errno: Int32)
    }

    private let descriptor: Int32
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEndOfFile = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
        self.buffer = [UInt8](repeating: 0, count: Self.chunkSize + Self.maximumLineLength)
    }

    /// Calls `body` with the next line (without `\n` or a trailing `\r`); nil at the end. The
    /// bytes are borrowed from the reader's buffer and valid only during the call.
    mutating func nextLine<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> Result)
        throws -> Result? {
        while true {
            if let newline = findNewline() {
                let lineStart = start
                start = newline + 1
                return try borrow(lineStart..<newline, body)
            }
            if atEndOfFile {
                guard start < end else { return nil }
                let lineStart = start
                start = end
                return try borrow(lineStart..<end, body)
            }
            guard end - start < Self.maximumLineLength else { throw Failure.lineTooLong }
            try fill()
        }
    }

    /// Lends `line` without a trailing `\r`: a CRLF file's last line has one even with no `\n` after it.
    @inline(__always) // once per line: a call of its own passed the body's result through memory again
    private func borrow<Result>(
        _ line: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws(TraceLineError) -> Result
    ) throws(TraceLineError) -> Result {
        let end = !line.isEmpty && buffer[line.upperBound - 1] == UInt8(ascii: "\r") ? line.upperBound - 1 : line.upperBound
        return try buffer.withUnsafeBufferPointer { (bytes) throws(TraceLineError) -> Result in
            try body(UnsafeBufferPointer(rebasing: bytes[line.lowerBound..<end]))
        }
    }

    private func findNewline() -> Int? {
        guard start < end else { return nil }
        return buffer.withUnsafeBufferPointer { pointer -> Int? in
            guard let base = pointer.baseAddress,
                  let found = memchr(base + start, Int32(UInt8(ascii: "\n")), end - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    private mutating func fill() throws {
        if start > 0 {
            let pending = end - start
            buffer.withUnsafeMutableBufferPointer { pointer in
                guard let base = pointer.baseAddress else { return }
                memmove(base, base + start, pending)
            }
            start = 0
            end = pending
        }
        let capacity = buffer.count - end
        let count = buffer.withUnsafeMutableBufferPointer { pointer -> Int in
            read(descriptor, pointer.baseAddress! + end, capacity)
        }
        if count < 0 {
            if errno == EINTR { return }
            throw Failure.readFailed(errno: errno)
        }
        if count == 0 { atEndOfFile = true }
        end += count
    }
}
