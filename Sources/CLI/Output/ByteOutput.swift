#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// A buffered byte sink: a file descriptor for the real program, memory for tests.
/// Data goes out in large writes; `flush()` pushes it now (after each line in real-time replay).
final class ByteOutput {
    private enum Target {
        case descriptor(Int32)
        case memory
    }

    private let target: Target
    private var buffer: [UInt8] = []
    private(set) var captured: [UInt8] = []
    private static let flushThreshold = 1 << 16

    private init(target: Target) {
        self.target = target
        buffer.reserveCapacity(Self.flushThreshold + 4096)
    }

    static func descriptor(_ descriptor: Int32) -> ByteOutput { ByteOutput(target: .descriptor(descriptor)) }
    static func memory() -> ByteOutput { ByteOutput(target: .memory) }

    /// Everything written so far, as text (memory targets).
    var text: String {
        flush()
        return String(decoding: captured, as: UTF8.self)
    }

    func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.flushThreshold { flush() }
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.flushThreshold { flush() }
    }

    /// Lets a writer append into the buffer directly (no intermediate array).
    func append(_ body: (inout [UInt8]) -> Void) {
        body(&buffer)
        if buffer.count >= Self.flushThreshold { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        switch target {
        case .memory:
            captured.append(contentsOf: buffer)
        case let .descriptor(descriptor):
            var written = 0
            while written < buffer.count {
                let count = buffer.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + written, $0.count - written) }
                if count < 0, errno == EINTR { continue }
                // A closed reader (EPIPE) or full disk: nothing more can be delivered here.
                guard count > 0 else { break }
                written += count
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}
