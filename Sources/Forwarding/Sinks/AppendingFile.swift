#if canImport(Glibc)
import Glibc
#endif
import Platform

/// A file opened for appending (created 0644 if missing), written with one write(2) per line so
/// concurrent appenders never interleave lines, and fsync'ed on request.
final class AppendingFile: LineOutput {
    let path: String
    private var descriptor: Int32

    init(path: String) throws(SinkError) {
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        self.path = path
        guard descriptor >= 0 else {
            throw SinkError(sink: "file:\(path)", message: "cannot open for appending: \(Self.systemError())")
        }
    }

    func write(_ line: [UInt8]) throws(LineOutputError) {
        if let stop = writeAll(descriptor, line) {
            if stop.written > 0 { removePartialLine(line[..<stop.written]) }
            throw LineOutputError("\(path): write failed: \(String(cString: strerror(stop.code)))")
        }
    }

    /// A line cut off half-way (a full disk) would leave the file unreadable as NDJSON from there:
    /// it is cut back, but only when the file still ends with exactly those bytes (another
    /// appender's line after it is never touched). Read through a second descriptor on the same
    /// file (ours is write-only, and the path may name another file by now).
    private func removePartialLine(_ partial: ArraySlice<UInt8>) {
        let reader = open(path, O_RDONLY | O_CLOEXEC)
        guard reader >= 0 else { return }
        defer { _ = Glibc.close(reader) }
        var ours = stat()
        var theirs = stat()
        guard fstat(descriptor, &ours) == 0, fstat(reader, &theirs) == 0, ours.st_ino == theirs.st_ino, ours.st_dev == theirs.st_dev,
              ours.st_size >= partial.count
        else { return }
        let start = ours.st_size - off_t(partial.count)
        var tail = [UInt8](repeating: 0, count: partial.count)
        let count = tail.withUnsafeMutableBytes { pread(reader, $0.baseAddress!, partial.count, start) }
        guard count == partial.count, tail.elementsEqual(partial) else { return }
        _ = ftruncate(descriptor, start)
    }

    func syncLifecycle() throws(LineOutputError) {
        guard fsync(descriptor) == 0 else { throw LineOutputError("\(path): fsync failed: \(Self.systemError())") }
    }

    func close() {
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = Glibc.close(descriptor)
        descriptor = -1
    }

    deinit { close() }

    static func systemError() -> String { String(cString: strerror(errno)) }
}
