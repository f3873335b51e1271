#if canImport(Glibc)
import Glibc
#endif
import DBus
import Dispatch
import Platform
import Sensors
import Synchronization

/// Reads the SOCK_SEQPACKET socket AcquireNotify hands out: each datagram is one
/// notification. A thread of its own sleeps in recvmsg(2) until the kernel has one: one wake-up
/// and one system call per notification (where a DispatchSource costs three thread hand-offs:
/// the dispatch manager's epoll, a worker, the re-arm). The kernel stamps each datagram
/// (SO_TIMESTAMP, the wall clock), so reading the clock costs no second call (a real one where
/// the clock source is not the TSC, as in VMs). Values go to the events queue synchronously
/// (`QueueHandOver`), which on an idle serial queue runs right here. EOF or an error (bluetoothd hangs the socket
/// up when the link drops) is reported once. The receive has no timeout (the link's
/// `SilenceWatchdog` watches for silence): a timeout is a kernel timer armed and cancelled on
/// every notification, which the realbluez VM measured as costly (docs/performance.md). The
/// watchdog gets each value's time as soon as it is read, and can ask whether more are waiting.
final class NotificationSocket: Sendable {
    private let descriptor: Int32
    /// Open until the reader thread closes the descriptor; guards `close()` against a reused number.
    private let state = SocketState()

    /// `value` and `closed` run on `queue`. `clock` stamps a value the kernel did not.
    init?(socket: UnixFileDescriptor, mtu: UInt16, queue: DispatchQueue, clock: @escaping @Sendable () -> Timestamp,
          watchdog: SilenceWatchdog, value: @escaping @Sendable ([UInt8], Timestamp) -> Void, closed: @escaping @Sendable () -> Void) {
        guard let descriptor = socket.take() else { return nil }
        self.descriptor = descriptor
        // bluetoothd makes the pair non-blocking and the flag travels with the descriptor:
        // the reader thread must sleep in recv, not see EAGAIN.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_TIMESTAMP, &on, socklen_t(MemoryLayout<Int32>.size))
        let size = max(Int(mtu), 512)
        NamedThread.start("hrbridge.notify") { [state] in
            var reader = DatagramReader(descriptor: descriptor, size: size)
            // One hand-over runs every value, reading it from `latest` (a closure handed to `sync`
            // would be made into a block anew each time: an allocation, a copy and their release).
            let latest = LatestValue()
            let delivery = QueueHandOver(queue: queue) { value(latest.bytes, latest.time) }
            while true {
                let count = reader.receive()
                if count > 0 {
                    reader.copy(count, into: &latest.bytes)
                    latest.time = reader.kernelTimestamp() ?? clock()
                    watchdog.feed(at: latest.time) // before the queue, which a busy consumer may hold
                    delivery.run()
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            reader.release()
            state.isOpen.withLock { open in
                open = false
                Glibc.close(descriptor)
            }
            queue.async { closed() }
        }
        watchdog.watch { [state] in state.hasWaitingValues(descriptor) }
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

    /// Datagrams are queued in the socket (FIONREAD); false once the reader has closed it.
    func hasWaitingValues(_ descriptor: Int32) -> Bool {
        isOpen.withLock { open in
            var bytes: Int32 = 0
            return open && ioctl(descriptor, UInt(FIONREAD), &bytes) == 0 && bytes > 0
        }
    }
}

/// The value the reader thread hands over. Only that thread writes it, and only while no hand-over is
/// under way; the queue's work reads it while the thread waits for it. So its variables skip the
/// dynamic exclusivity check, and the class is Sendable by that hand-over.
private final class LatestValue: @unchecked Sendable {
    @exclusivity(unchecked) var bytes: [UInt8] = []
    @exclusivity(unchecked) var time = Timestamp(microsecondsSinceUnixEpoch: 0)
}

/// One recvmsg(2) per datagram into buffers allocated once, with the SO_TIMESTAMP stamp beside it.
private struct DatagramReader {
    private let descriptor: Int32
    private let data: UnsafeMutableRawBufferPointer
    /// Room for one cmsghdr and a timeval (and some spare).
    private let control = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: MemoryLayout<cmsghdr>.alignment)
    private var controlLength = 0

    init(descriptor: Int32, size: Int) {
        self.descriptor = descriptor
        data = .allocate(byteCount: size, alignment: 1)
    }

    /// The datagram's length, 0 at EOF, -1 on error (errno).
    mutating func receive() -> Int {
        var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
        let count = withUnsafeMutablePointer(to: &vector) { vector in
            var message = msghdr()
            message.msg_iov = vector
            message.msg_iovlen = 1
            message.msg_control = control.baseAddress
            message.msg_controllen = control.count
            let count = recvmsg(descriptor, &message, 0)
            controlLength = count > 0 ? Int(message.msg_controllen) : 0
            return count
        }
        return count
    }

    /// Replaces `value`'s bytes with the datagram's, in place when nobody kept the previous value (the
    /// usual case: the session parses it and lets go): a steady stream then allocates and frees nothing
    /// per notification (a new array each time cost a malloc, a free and the copy).
    func copy(_ count: Int, into value: inout [UInt8]) {
        value.overwrite(count: count) { UnsafeMutableRawBufferPointer($0).copyMemory(from: UnsafeRawBufferPointer(rebasing: data[..<count])) }
    }

    func release() {
        data.deallocate()
        control.deallocate()
    }

    /// The kernel's SCM_TIMESTAMP of the last datagram, if it sent one.
    func kernelTimestamp() -> Timestamp? {
        let headerSize = MemoryLayout<cmsghdr>.size
        var offset = 0
        while offset + headerSize <= controlLength {
            let header = control.load(fromByteOffset: offset, as: cmsghdr.self)
            let length = Int(header.cmsg_len)
            guard length >= headerSize else { return nil }
            if header.cmsg_level == SOL_SOCKET, header.cmsg_type == SCM_TIMESTAMP,
               offset + headerSize + MemoryLayout<timeval>.size <= controlLength {
                let stamp = control.loadUnaligned(fromByteOffset: offset + headerSize, as: timeval.self)
                return Timestamp(microsecondsSinceUnixEpoch: Int64(stamp.tv_sec) * 1_000_000 + Int64(stamp.tv_usec))
            }
            offset += (length + MemoryLayout<Int>.size - 1) & ~(MemoryLayout<Int>.size - 1) // CMSG_ALIGN
        }
        return nil
    }
}
