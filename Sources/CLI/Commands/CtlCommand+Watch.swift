#if canImport(Glibc)
import Glibc
#endif
import CSystem
import DBus
import Dispatch
import LiveView
import Platform
import Session
import Synchronization
import BusControl

/// `hrbridge ctl status --watch`: the status block `run` keeps at the bottom of its terminal, for a
/// bridge running elsewhere (the service), read over io.hrbridge.Bridge1's `Sensors` once a second
/// and redrawn in place on a terminal; on a pipe, each reading as a block of lines and a blank line.
extension CtlCommand {
    /// The block's ages tick in seconds: one reading a second keeps them true.
    static let watchInterval: Duration = .seconds(1)
    /// A pipe has no width: lines as long as they come (still cut, so one line stays one line).
    static let pipeWidth = 1000

    static func watch(strap: String, bus: BusConnection.Bus, system: Bool, console: Console) throws(CLIError) {
        let stopped = Atomic<Bool>(false)
        let signals = SignalWatcher(queue: DispatchQueue(label: "hrbridge.ctl.signals")) { _ in stopped.store(true, ordering: .relaxed) }
        defer { signals.cancel() }
        let screen = WatchScreen(output: console.output)
        let call = BusMethodCall(destination: BridgeControlInterface.busName, path: BridgeControlInterface.path,
                                 interface: BridgeControlInterface.name, method: "Sensors", arguments: [.string(strap)])
        let result: Result<Void, BusError> = runBlocking {
            do throws(BusError) {
                let connection = try await BusConnection.connect(to: bus)
                defer { Task { await connection.close() } }
                while !stopped.load(ordering: .relaxed) {
                    screen.draw(SensorStatus.list(busValue: try await connection.call(call, timeout: callTimeout).first))
                    try? await TaskSleep.sleep(for: watchInterval)
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        screen.finish()
        switch result {
        case .success: break
        case let .failure(error) where screen.hasDrawn && (error.name == BusErrorName.serviceUnknown || error.name == BusErrorName.nameHasNoOwner):
            console.warn("the run has ended")
        case let .failure(error):
            throw failure(error, bus: bus, system: system)
        }
    }
}

/// Where `--watch` draws: in place on a terminal, block after block on a pipe.
private final class WatchScreen: @unchecked Sendable {
    private let output: ByteOutput
    private let terminal: Int32?
    // Touched by the watch loop only, one reading at a time.
    private var area = StatusArea()
    private(set) var hasDrawn = false

    init(output: ByteOutput) {
        self.output = output
        terminal = output.descriptor.flatMap { isatty($0) == 1 ? $0 : nil }
    }

    func draw(_ sensors: [SensorStatus]) {
        hasDrawn = true
        guard let terminal else {
            let lines = StatusLines.render(sensors, width: CtlCommand.pipeWidth, height: sensors.count + 1)
            output.write(lines.map { $0 + "\n" }.joined() + "\n")
            return output.flush()
        }
        var columns: Int32 = 80
        var rows: Int32 = 24
        _ = hr_terminal_size(terminal, &columns, &rows)
        let lines = StatusLines.render(sensors, width: Int(columns), height: Int(rows))
        output.write(area.replace(with: lines.isEmpty ? ["(no sensors)"] : lines, width: Int(columns)))
        output.flush()
    }

    /// The last block stays on the screen; the shell's prompt goes on the line after it.
    func finish() {
        guard terminal != nil, hasDrawn else { return }
        output.write("\n")
        output.flush()
    }
}
