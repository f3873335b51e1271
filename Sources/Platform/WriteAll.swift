#if canImport(Glibc)
import Glibc
#endif

/// Why `writeAll` stopped before the end: the errno (EIO for a write that wrote nothing) and how
/// many bytes had gone out by then, so a caller can take back a partial line.
public struct WriteStop: Error, Sendable, Equatable {
    public let code: Int32
    public let written: Int
}

/// Writes all of `bytes` to `descriptor` (with pwrite(2) from `offset` when given), again after a
/// short write or EINTR. Nil when all was written, else where and why it stopped. The one write
/// loop: files Platform writes whole, trace lines, appended NDJSON lines, standard output.
public func writeAll(_ descriptor: Int32, _ bytes: [UInt8], at offset: Int? = nil) -> WriteStop? {
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { buffer in
            if let offset { pwrite(descriptor, buffer.baseAddress!, buffer.count, off_t(offset + written)) } else {
                write(descriptor, buffer.baseAddress!, buffer.count)
            }
        }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return WriteStop(code: count < 0 ? errno : EIO, written: written) }
        written += count
    }
    return nil
}
