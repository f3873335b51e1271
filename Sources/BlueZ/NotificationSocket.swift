#if canImport(Glibc)
import Glibc
#endif
import DBus
import Dispatch
import Platform
import Sensors
import Synchronization

/// Reads the SOCK_SEQPACKET socket AcquireNotify hands out: each datagram is one notification.
/// The process's `EventLoop` wakes when the kernel has one, and the value is read, stamped and
/// handed on right there: one wake-up per notification, of one thread for every sensor (a thread
/// per socket cost a thread a sensor for nothing more; a DispatchSource costs three thread
/// hand-offs: the dispatch manager's epoll, a worker, the re-arm). The kernel stamps each datagram
/// (SO_TIMESTAMP, the wall clock), so reading the clock costs no second call (a real one where the
/// clock source is not the TSC, as in VMs). Values go to the events queue synchronously
/// (`QueueHandOver`), which on an idle serial queue runs right here. EOF or an error (bluetoothd
/// hangs the socket up when the link drops) is reported once. The watchdog gets each value's time
/// as soon as it is read, and can ask whether more are waiting: the loop may be busy with another
/// sensor's value.
final class NotificationSocket: Sendable {
    private let descriptor: Int32
    /// Open until the loop closes the descriptor; guards `close()` against a reused number.
    private let state = SocketState()

    /// `value` and `closed` run on `queue`. `clock` stamps a value the kernel did not.
    init?(socket: UnixFileDescriptor, mtu: UInt16, queue: DispatchQueue, clock: @escaping @Sendable () -> Timestamp,
          watchdog: SilenceWatchdog, value: @escaping @Sendable ([UInt8], Timestamp) -> Void, closed: @escaping @Sendable () -> Void) {
        guard let descriptor = socket.take() else { return nil }
        self.descriptor = descriptor
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_TIMESTAMP, &on, socklen_t(MemoryLayout<Int32>.size))
        let reader = SocketReader(descriptor: descriptor, size: max(Int(mtu), 512), queue: queue, clock: clock,
                                  watchdog: watchdog, value: value)
        EventLoop.shared.watch(descriptor, ready: { reader.readOne() }, ended: { [state] in
            reader.release()
            state.isOpen.withLock { open in
                open = false
                Glibc.close(descriptor)
            }
            queue.async { closed() }
        })
        watchdog.watch { [state] in state.hasWaitingValues(descriptor) }
    }

    /// Ends reading: the socket reads as ended, the loop closes it (which releases the notify
    /// session in bluetoothd).
    func close() {
        state.isOpen.withLock { open in
            if open { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    deinit { close() }
}

/// The loop's side of one socket: reads a datagram, stamps it, feeds the watchdog, hands it over.
/// Used by the loop's thread alone.
private final class SocketReader: @unchecked Sendable {
    private var reader: DatagramReader
    private let clock: @Sendable () -> Timestamp
    private let watchdog: SilenceWatchdog
    /// One hand-over runs every value, reading it from `latest` (a closure handed to `sync` would be
    /// made into a block anew each time: an allocation, a copy and their release).
    private let latest = LatestValue()
    private let delivery: QueueHandOver

    init(descriptor: Int32, size: Int, queue: DispatchQueue, clock: @escaping @Sendable () -> Timestamp,
         watchdog: SilenceWatchdog, value: @escaping @Sendable ([UInt8], Timestamp) -> Void) {
        reader = DatagramReader(descriptor: descriptor, size: size)
        self.clock = clock
        self.watchdog = watchdog
        delivery = QueueHandOver(queue: queue) { [latest] in value(latest.bytes, latest.time) }
    }

    /// One datagram (the loop calls again while more wait); false at EOF or an error.
    func readOne() -> Bool {
        let count = reader.receive()
        if count > 0 {
            reader.copy(count, into: &latest.bytes)
            latest.time = reader.kernelTimestamp() ?? clock()
            watchdog.feed(at: latest.time) // before the queue, which a busy consumer may hold
            delivery.run()
            return true
        }
        return count < 0 && (errno == EINTR || errno == EAGAIN)
    }

    func release() { reader.release() }
}

/// Shared by the socket's owner and the loop (whose watch may outlive the owner briefly).
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

/// The value the loop hands over. Only the loop's thread writes it, and only while no hand-over is
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
            // Without waiting: the descriptor is bluetoothd's, non-blocking or not, and the loop must not sleep here.
            let count = recvmsg(descriptor, &message, Int32(MSG_DONTWAIT))
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
