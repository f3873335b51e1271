#if canImport(Glibc)
import Glibc
#endif

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
        var written = 0
        while written < line.count {
            let count = line.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw LineOutputError("\(path): write failed: \(Self.systemError())") }
            written += count
        }
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
