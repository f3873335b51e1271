#if canImport(Glibc)
import Glibc
#endif
import DBus
import Dispatch
import HeartRate

/// Reads the SOCK_SEQPACKET socket AcquireNotify hands out: each datagram is one
/// notification. A DispatchSource wakes us only when one is waiting; EOF or an error (the
/// link dropped: bluetoothd hangs the socket up) is reported once and ends reading.
final class NotificationSocket: @unchecked Sendable {
    private let source: DispatchSourceRead
    private let descriptor: Int32
    private var buffer: [UInt8]

    /// Takes the descriptor from `socket`; `mtu` bounds a notification's size.
    init?(socket: UnixFileDescriptor, mtu: UInt16, characteristicPath: String, queue: DispatchQueue,
          clock: @escaping @Sendable () -> Timestamp, deliver: @escaping @Sendable (LinkInput) -> Void) {
        guard let descriptor = socket.take() else { return nil }
        self.descriptor = descriptor
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        buffer = [UInt8](repeating: 0, count: max(Int(mtu), 512))
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [unowned self] in
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    deliver(.value(characteristicPath: characteristicPath, bytes: Array(buffer[..<count]), time: clock()))
                    continue
                }
                if count < 0, errno == EAGAIN || errno == EINTR { return }
                deliver(.socketClosed)
                source.cancel()
                return
            }
        }
        source.setCancelHandler { Glibc.close(descriptor) }
        source.resume()
    }

    func close() { source.cancel() }

    deinit { source.cancel() }
}
