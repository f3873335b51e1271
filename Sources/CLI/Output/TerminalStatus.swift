#if canImport(Glibc)
import Glibc
#endif
import CSystem
import Dispatch
import LiveView
import Session
import Synchronization

/// The status block at the bottom of a terminal (`StatusArea`, `StatusLines`): redrawn every second
/// and when the terminal is resized (SIGWINCH), with every log line, and every update line when
/// stdout is the same terminal, written above it under one lock, so the two never share a line.
/// Only when stderr is a terminal; `--no-status` leaves it out.
final class TerminalStatus: Sendable {
    /// Ages and countdowns on the block are in whole seconds: a redraw a second keeps them true.
    static let refreshInterval: DispatchTimeInterval = .seconds(1)

    private struct Screen {
        var area = StatusArea()
        var lines: [String] = []
        var stopped = false
    }

    private let log: ByteOutput
    private let descriptor: Int32
    /// Where the sensors are read from, once the sessions exist (`follow`).
    private let sensors = Mutex<(@Sendable () -> [SensorStatus])?>(nil)
    private let screen = Mutex(Screen())
    private let queue = DispatchQueue(label: "hrbridge.status")
    /// A redraw asked for after a line went out and not yet made: one is enough for many lines.
    private let redrawPending = Atomic<Bool>(false)
    /// The redraw timer and the SIGWINCH watcher, set once started.
    private let watchers = Mutex<(timer: (any DispatchSourceTimer)?, resizes: SignalWatcher?)>((nil, nil))

    /// A block for stderr (`log`), drawn once `follow` says what to draw; nil when stderr is no
    /// terminal or one that cannot move its cursor (TERM=dumb, as Emacs' shell sets it). Made
    /// before the sinks, so that a `stdout` sink writing to the same terminal writes above it.
    static func forTerminal(log: ByteOutput, environment: [String: String]) -> TerminalStatus? {
        guard let descriptor = log.descriptor, isatty(descriptor) == 1, environment["TERM"].map({ $0 != "dumb" && !$0.isEmpty }) ?? false else { return nil }
        return TerminalStatus(log: log, descriptor: descriptor)
    }

    /// Whether `output` is a terminal, so update lines written to it must go above the block too.
    static func isTerminal(_ output: ByteOutput) -> Bool {
        output.descriptor.map { isatty($0) == 1 } ?? false
    }

    private init(log: ByteOutput, descriptor: Int32) {
        self.log = log
        self.descriptor = descriptor
    }

    /// Draws `sensors()` from now on: at once, every `refreshInterval`, and on each resize.
    func follow(_ sensors: @escaping @Sendable () -> [SensorStatus]) {
        self.sensors.withLock { $0 = sensors }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: Self.refreshInterval)
        timer.setEventHandler { [weak self] in self?.refresh() }
        timer.resume()
        let resizes = SignalWatcher(signals: [SIGWINCH], queue: queue) { [weak self] _ in self?.refresh() }
        watchers.withLock { $0 = (timer, resizes) }
    }

    /// A log line (or lines) above the block.
    func print(_ text: String) {
        screen.withLock { screen in
            guard !screen.stopped else { return writeNow(text) }
            let size = terminalSize()
            writeNow(screen.area.print(text, then: screen.lines, width: size.columns))
        }
        redrawSoon()
    }

    /// Writes through `write` (stdout's own buffer, flushed) with the block out of the way.
    func above(_ write: () -> Void) {
        screen.withLock { screen in
            guard !screen.stopped else { return write() }
            writeNow(screen.area.remove(width: terminalSize().columns))
            write()
            writeNow(screen.area.replace(with: screen.lines, width: terminalSize().columns))
        }
        redrawSoon()
    }

    /// After an update or log line, the block may be behind it (a new sequence, a loss): read the
    /// sensors again, on the block's queue (this thread may be the session's, which the reading waits for).
    private func redrawSoon() {
        guard !redrawPending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { [self] in
            redrawPending.store(false, ordering: .releasing)
            refresh()
        }
    }

    /// Takes the block away for good; later log lines go straight to stderr.
    func stop() {
        watchers.withLock { watchers in
            watchers.timer?.cancel()
            watchers.resizes?.cancel()
        }
        screen.withLock { screen in
            screen.stopped = true
            writeNow(screen.area.remove(width: terminalSize().columns))
        }
    }

    /// The sensors are read first, outside the lock: a session writing a log line holds its own
    /// queue while it waits for the lock, and reading the sensors waits for that queue.
    private func refresh() {
        guard let read = sensors.withLock({ $0 }) else { return }
        let sensors = read()
        let size = terminalSize()
        let lines = StatusLines.render(sensors, width: size.columns, height: size.rows)
        screen.withLock { screen in
            guard !screen.stopped else { return }
            screen.lines = lines
            writeNow(screen.area.replace(with: lines, width: size.columns))
        }
    }

    private func writeNow(_ text: String) {
        guard !text.isEmpty else { return }
        log.write(text)
        log.flush()
    }

    /// The terminal's size now (read per drawing: a resize between two signals is still seen);
    /// 80 × 24, the VT100's, when it says none.
    private func terminalSize() -> (columns: Int, rows: Int) {
        var columns: Int32 = 0
        var rows: Int32 = 0
        guard hr_terminal_size(descriptor, &columns, &rows) == 0 else { return (80, 24) }
        return (Int(columns), Int(rows))
    }
}
