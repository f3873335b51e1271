#if canImport(Glibc)
import Glibc
#endif
import DBus
import Dispatch
import Foundation
import HeartRate
import Synchronization

/// Reads the SOCK_SEQPACKET socket AcquireNotify hands out: each datagram is one
/// notification. A thread of its own sleeps in recv(2) until the kernel has one: one wake-up
/// per notification, where a DispatchSource costs three thread hand-offs (measured: the
/// dispatch manager's epoll, a worker, the re-arm). Values go to the events queue with
/// `sync`, which on an idle serial queue runs right here. EOF or an error (bluetoothd hangs
/// the socket up when the link drops) is reported once.
final class NotificationSocket: Sendable {
    private let descriptor: Int32
    /// Open until the reader thread closes the descriptor; guards `close()` against a reused number.
    private let state = SocketState()

    /// `value` and `closed` run on `queue`.
    init?(socket: UnixFileDescriptor, mtu: UInt16, queue: DispatchQueue, clock: @escaping @Sendable () -> Timestamp,
          value: @escaping @Sendable ([UInt8], Timestamp) -> Void, closed: @escaping @Sendable () -> Void) {
        guard let descriptor = socket.take() else { return nil }
        self.descriptor = descriptor
        // bluetoothd makes the pair non-blocking and the flag travels with the descriptor:
        // the reader thread must sleep in recv, not see EAGAIN.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        let size = max(Int(mtu), 512)
        let thread = Thread { [state] in
            var buffer = [UInt8](repeating: 0, count: size)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    let bytes = Array(buffer[..<count])
                    let time = clock()
                    queue.sync { value(bytes, time) }
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            state.isOpen.withLock { open in
                open = false
                Glibc.close(descriptor)
            }
            queue.async { closed() }
        }
        thread.name = "hrbridge.notify"
        thread.start()
    }

    /// Ends reading: the blocked recv returns, the thread closes the socket (which releases
    /// the notify session in bluetoothd).
    func close() {
        state.isOpen.withLock { open in
            if open { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    deinit { close() }
}

/// Shared by the socket's owner and its reader thread (which may outlive the owner briefly).
private final class SocketState: Sendable {
    let isOpen = Mutex(true)
}
