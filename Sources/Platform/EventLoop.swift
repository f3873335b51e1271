#if canImport(Glibc)
import Glibc
#endif
import CSystem

/// One thread for every descriptor the bridge sleeps on between events: each sensor's notification
/// socket and every timer (`ClockTimer`). It waits in epoll_wait(2) and runs the ready descriptor's
/// handler right there, so a value still costs one wake-up, of one thread, whatever the number of
/// sensors. A thread per socket and per timer would add three threads a sensor
/// (docs/performance.md, "A gateway's load").
///
/// A handler must not block for long: while it runs, the other descriptors wait (a socket's data
/// stays queued in the kernel with its receive stamp, so what it says is not changed, only when it
/// is handled). A handler returns false to end its watch: the loop then removes the descriptor and
/// runs `ended` (which closes it) on its own thread, so the loop never meets a closed or reused
/// number. Level-triggered: a handler that leaves data unread is called again.
public final class EventLoop: Sendable {
    /// The process's loop; its thread starts with the first watch.
    public static let shared = EventLoop()

    private let epoll: Int32
    /// Ready descriptors taken per epoll_wait: more wait for the next round, in order.
    private static let batch: Int32 = 16

    private init() {
        epoll = hr_epoll_create1(O_CLOEXEC)
        precondition(epoll >= 0, "epoll_create1 failed: errno \(errno)")
        NamedThread.start("hrbridge.events") { [epoll] in Self.run(epoll) }
    }

    /// Runs `ready` on the loop's thread whenever `descriptor` is readable or hung up, until it
    /// returns false; then `ended`, once, also there. The descriptor must stay open until then.
    public func watch(_ descriptor: Int32, ready: @escaping @Sendable () -> Bool, ended: @escaping @Sendable () -> Void) {
        let watch = Unmanaged.passRetained(Watch(descriptor: descriptor, ready: ready, ended: ended))
        let added = hr_epoll_add(epoll, descriptor, watch.toOpaque())
        precondition(added == 0, "epoll_ctl failed for descriptor \(descriptor): errno \(errno)")
    }

    private static func run(_ epoll: Int32) {
        let contexts = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: Int(batch))
        while true {
            let count = hr_epoll_wait(epoll, contexts, batch)
            if count < 0 {
                precondition(errno == EINTR, "epoll_wait failed: errno \(errno)")
                continue
            }
            for index in 0..<Int(count) {
                let watch = Unmanaged<Watch>.fromOpaque(contexts[index]!)
                let current = watch.takeUnretainedValue()
                guard !current.ready() else { continue }
                _ = hr_epoll_remove(epoll, current.descriptor)
                current.ended()
                watch.release()
            }
        }
    }
}

/// A descriptor's handlers, kept alive (retained once) while it is watched.
private final class Watch {
    let descriptor: Int32
    let ready: @Sendable () -> Bool
    let ended: @Sendable () -> Void

    init(descriptor: Int32, ready: @escaping @Sendable () -> Bool, ended: @escaping @Sendable () -> Void) {
        self.descriptor = descriptor
        self.ready = ready
        self.ended = ended
    }
}
