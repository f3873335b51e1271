#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files for the parsers that read a path (the trace reader, the spool): one directory per process,
/// made on first use, each input written over the last. Not removed at exit: libFuzzer leaves by
/// `_exit`; it holds one input's files. One input at a time: the fixed names are shared.
enum ScratchFile {
    static let directory: String = {
        // In memory when there is a /dev/shm: the trace targets write three files per input.
        let parent = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        var template = Array("\(parent)/hrbridge-fuzz-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            fatalError("cannot make a scratch directory under \(parent): \(String(cString: strerror(errno)))")
        }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    static func path(_ name: String) -> String { "\(directory)/\(name)" }

    /// Writes `bytes` to the scratch file `name`, replacing it, and answers its path.
    static func write(_ bytes: [UInt8], to name: String) -> String {
        let path = path(name)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { fatalError("\(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            guard count > 0 else { fatalError("\(path): \(String(cString: strerror(errno)))") }
            written += count
        }
        return path
    }

    static func read(_ name: String) -> [UInt8] {
        let descriptor = open(path(name), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            guard count > 0 else { return bytes }
            bytes += chunk[..<count]
        }
    }
}
