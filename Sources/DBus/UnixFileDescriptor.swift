#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A file descriptor received in (or to send in) a message. It owns the descriptor and closes
/// it when dropped, unless the holder took it with `take()`.
public final class UnixFileDescriptor: Sendable, Equatable, CustomStringConvertible {
    private let state: Mutex<Int32?>

    /// Takes ownership of `descriptor`.
    public init(owning descriptor: Int32) {
        state = Mutex(descriptor)
    }

    /// The descriptor while still owned here; nil after `take()`.
    public var descriptor: Int32? { state.withLock { $0 } }

    /// Hands the descriptor to the caller, who must close it.
    public func take() -> Int32? {
        state.withLock { current in
            defer { current = nil }
            return current
        }
    }

    deinit {
        if let descriptor = state.withLock({ $0 }) { close(descriptor) }
    }

    /// Identity: two holders are equal only if they are the same holder.
    public static func == (lhs: UnixFileDescriptor, rhs: UnixFileDescriptor) -> Bool { lhs === rhs }

    public var description: String { "fd \(descriptor.map(String.init) ?? "taken")" }
}
