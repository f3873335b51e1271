#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization

/// Where SIGINT and SIGTERM arrive, process-wide: a plain signal handler on whichever thread the
/// kernel picks writes the signal's number into a pipe, and a read source on the pipe calls the
/// watchers on their queues. Dispatch's own signal sources are not used: on Linux they read a
/// signalfd that sees only signals pending for the thread they re-raise to, and that thread may be
/// gone; about one SIGINT in thirty was lost that way under load (a run that never stopped).
enum SignalPipe {
    /// The pipe's ends, made before any handler can run: the handler reads `ends.write`, which must
    /// already be initialised (a first access would run Swift's lazy initialiser in the handler).
    static let ends: (read: Int32, write: Int32) = {
        var fds: [Int32] = [-1, -1]
        // Non-blocking: a handler must never wait; a full pipe (64 KiB of signals unread) drops the
        // byte, and the next one still wakes the reader.
        guard pipe(&fds) == 0 else { fatalError("pipe: \(String(cString: strerror(errno)))") }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        return (fds[0], fds[1])
    }()

    /// Async-signal-safe: one write(2), errno kept for the code the signal interrupted.
    private static let handler: @convention(c) (Int32) -> Void = { number in
        let saved = errno
        var byte = UInt8(truncatingIfNeeded: number)
        _ = write(SignalPipe.ends.write, &byte, 1)
        errno = saved
    }

    struct Watch {
        let signals: [Int32]
        let queue: DispatchQueue
        let handler: @Sendable (Int32) -> Void
    }

    /// The watchers by id, and per signal the number of watchers and the disposition before the first.
    private struct State {
        var watches: [Int: Watch] = [:]
        var nextID = 0
        var installed: [Int32: (count: Int, previous: sigaction)] = [:]
        var reader: (any DispatchSourceRead)?
    }

    private static let state = Mutex(State())

    /// Starts delivering `signals` to `watch.handler` on its queue; the first watcher of a signal
    /// installs the handler, saving what was there.
    static func add(_ watch: Watch) -> Int {
        _ = ends
        return state.withLock { state in
            if state.reader == nil { state.reader = makeReader() }
            for number in watch.signals {
                if let entry = state.installed[number] {
                    state.installed[number] = (entry.count + 1, entry.previous)
                } else {
                    var action = sigaction()
                    action.__sigaction_handler.sa_handler = handler
                    action.sa_flags = SA_RESTART // other threads' system calls go on, not EINTR
                    sigemptyset(&action.sa_mask)
                    var previous = sigaction()
                    sigaction(number, &action, &previous)
                    state.installed[number] = (1, previous)
                }
            }
            state.nextID += 1
            state.watches[state.nextID] = watch
            return state.nextID
        }
    }

    /// Stops delivering to the watcher `id`; the last watcher of a signal restores what it found.
    static func remove(_ id: Int) {
        state.withLock { state in
            guard let watch = state.watches.removeValue(forKey: id) else { return }
            for number in watch.signals {
                guard let entry = state.installed[number] else { continue }
                if entry.count > 1 {
                    state.installed[number] = (entry.count - 1, entry.previous)
                } else {
                    var previous = entry.previous
                    sigaction(number, &previous, nil)
                    state.installed[number] = nil
                }
            }
        }
    }

    /// The one reader of the pipe, for the process's life (a signal may arrive between watchers).
    private static func makeReader() -> any DispatchSourceRead {
        let source = DispatchSource.makeReadSource(fileDescriptor: ends.read, queue: DispatchQueue(label: "hrbridge.signal-pipe"))
        source.setEventHandler {
            var bytes = [UInt8](repeating: 0, count: 64)
            let count = bytes.withUnsafeMutableBytes { read(ends.read, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            let watches = state.withLock { Array($0.watches.values) }
            for byte in bytes[..<count] {
                let number = Int32(byte)
                for watch in watches where watch.signals.contains(number) {
                    watch.queue.async { watch.handler(number) }
                }
            }
        }
        source.resume()
        return source
    }
}
