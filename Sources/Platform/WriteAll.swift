#if canImport(Glibc)
import Glibc
#endif

/// Writes all of `bytes` to `descriptor` (with pwrite(2) from `offset` when given), again after a
/// short write or EINTR. Nil when all was written, else the errno that stopped it (EIO for a
/// write that wrote nothing). The one loop behind the small files Platform writes whole.
public func writeAll(_ descriptor: Int32, _ bytes: [UInt8], at offset: Int? = nil) -> Int32? {
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { buffer in
            if let offset { pwrite(descriptor, buffer.baseAddress!, buffer.count, off_t(offset + written)) } else {
                write(descriptor, buffer.baseAddress!, buffer.count)
            }
        }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return count < 0 ? errno : EIO }
        written += count
    }
    return nil
}
