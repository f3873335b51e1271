#if canImport(Glibc)
import Glibc
#endif

/// A small file rewritten in place with one pwrite(2), without a sync: the cheapest write that the
/// kernel keeps if the process dies. No temporary file and rename: ext4 starts the new file's
/// writeback on a rename over an old one (its auto_da_alloc), which would hold up every update
/// (docs/performance.md, "Figures behind choices in the code").
/// The file never shrinks: a shorter text is padded with spaces to the longest written, which a
/// JSON reader skips, so no truncate (ext4 flushes on that too). A write of one page (4 KB) is whole
/// or not at all if the process is killed; a longer one may be cut at a page, so its reader must
/// take unreadable text as "unknown", never as a value. A power cut may lose any of it.
public final class OverwrittenFile {
    public let path: String
    private let mode: mode_t
    private var descriptor: Int32 = -1
    /// The file's length: the longest text written (or found).
    private var length = 0

    public init(path: String, mode: mode_t = 0o600) {
        self.path = path
        self.mode = mode
    }

    deinit { close() }

    /// Replaces the contents with `bytes` (padded with spaces to the file's length).
    public func overwrite(with bytes: [UInt8]) throws(FileSystemError) {
        if descriptor < 0 {
            descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode)
            guard descriptor >= 0 else { throw FileSystemError(path: path, code: errno) }
            var status = stat()
            length = fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
            _ = fchmod(descriptor, mode) // a file another run left keeps its mode otherwise
        }
        var text = bytes
        if text.count < length { text += [UInt8](repeating: UInt8(ascii: " "), count: length - text.count) }
        if let stop = writeAll(descriptor, text, at: 0) { throw FileSystemError(path: path, code: stop.code) }
        length = max(length, text.count)
    }

    /// Removes the file (not synced) and lets it go.
    public func remove() throws(FileSystemError) {
        close()
        if unlink(path) != 0, errno != ENOENT { throw FileSystemError(path: path, code: errno) }
    }

    public func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }
}
