import Platform
import Synchronization

/// A buffered byte sink: a file descriptor for the real program, memory for tests.
/// Data goes out in large writes; `flush()` pushes it now (after each line in real-time replay).
/// Each call is atomic under a lock: `run` writes from several straps' sessions and links at once,
/// and a line must never be torn (uncontended, the lock costs nanoseconds per line).
final class ByteOutput: Sendable {
    private enum Target {
        case descriptor(Int32)
        case memory
    }

    private struct Buffers {
        var pending: [UInt8] = []
        var captured: [UInt8] = []
    }

    private let target: Target
    private let buffers: Mutex<Buffers>
    private static let flushThreshold = 1 << 16

    private init(target: Target) {
        self.target = target
        var initial = Buffers()
        initial.pending.reserveCapacity(Self.flushThreshold + 4096)
        buffers = Mutex(initial)
    }

    static func descriptor(_ descriptor: Int32) -> ByteOutput { ByteOutput(target: .descriptor(descriptor)) }
    static func memory() -> ByteOutput { ByteOutput(target: .memory) }

    /// The file descriptor written to; nil for memory.
    var descriptor: Int32? {
        if case let .descriptor(descriptor) = target { return descriptor }
        return nil
    }

    /// Everything written so far (memory targets).
    var captured: [UInt8] {
        buffers.withLock { buffers in
            flush(&buffers)
            return buffers.captured
        }
    }

    /// Everything written so far, as text (memory targets).
    var text: String { String(decoding: captured, as: UTF8.self) }

    func write(_ bytes: [UInt8]) {
        append { $0.append(contentsOf: bytes) }
    }

    func write(_ text: String) {
        append { $0.append(contentsOf: text.utf8) }
    }

    /// Lets a writer append into the buffer directly (no intermediate array).
    func append(_ body: (inout [UInt8]) -> Void) {
        buffers.withLock { buffers in
            body(&buffers.pending)
            if buffers.pending.count >= Self.flushThreshold { flush(&buffers) }
        }
    }

    func flush() {
        buffers.withLock { flush(&$0) }
    }

    private func flush(_ buffers: inout Buffers) {
        guard !buffers.pending.isEmpty else { return }
        switch target {
        case .memory:
            buffers.captured.append(contentsOf: buffers.pending)
        case let .descriptor(descriptor):
            // A closed reader (EPIPE) or full disk: nothing more can be delivered here.
            _ = writeAll(descriptor, buffers.pending)
        }
        buffers.pending.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}
