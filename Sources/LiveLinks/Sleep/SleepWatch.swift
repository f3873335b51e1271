import DBus
import Dispatch
#if canImport(Glibc)
import Glibc
import Session
#endif

/// Follows the machine's sleep while sessions run, the way logind intends: it holds a delay
/// inhibitor lock, and on PrepareForSleep(true) runs `prepare` (links let go, sensor-lost out,
/// sinks settled) within logind's InhibitDelayMaxSec, then closes the lock so the sleep goes on;
/// on PrepareForSleep(false) it takes a new lock and runs `resume`. With no logind on the system
/// bus (containers, CI) it stops at once and says nothing: the run is as it was.
public final class SleepWatch: Sendable {
    private let task: Task<Void, Never>

    /// What a run does around a sleep. `prepare` gets the seconds it may take.
    public struct Actions: Sendable {
        var prepare: @Sendable (Double) async -> Void
        var resume: @Sendable () -> Void
    }

    /// Held back from logind's delay, so the lock is closed before logind stops waiting for it.
    static let releaseMargin: Double = 1
    /// The least `prepare` gets, even when logind's delay is set very short.
    static let minimumBudget: Double = 0.5
    static let why = "publishing sensor-lost and flushing the Live Activity sinks before sleep"

    public init(console: any SessionConsole, actions: Actions) {
        task = Task { await Self.follow(console: console, actions: actions) }
    }

    /// Stops following; the lock, if held, is closed (the run is over).
    public func stop() {
        task.cancel()
    }

    private static func follow(console: any SessionConsole, actions: Actions) async {
        // No system bus at all: the Bluetooth side reports that; sleep has nothing to add.
        guard let connection = try? await BusConnection.connect(to: .system) else { return }
        await watch(connection, console: console, actions: actions)
        await connection.close()
    }

    private static func watch(_ connection: BusConnection, console: any SessionConsole, actions: Actions) async {
        // The rule goes on before the lock is taken: no PrepareForSleep can slip between them.
        guard let signals = try? await connection.signals(matching: Logind.prepareForSleep) else { return }
        var lock: UnixFileDescriptor?
        do {
            lock = try await Logind.inhibitSleep(on: connection, why: why)
        } catch where error.name.map(Logind.absent.contains) ?? false {
            return // no logind here: nothing will announce a sleep
        } catch {
            console.warn("cannot take a sleep delay lock from logind (\(error)); the sleep will not wait for the sinks to flush")
        }
        let delay = await Logind.inhibitDelayMax(on: connection) ?? Logind.defaultInhibitDelayMax
        let budget = max(minimumBudget, delay - releaseMargin)
        for await message in signals {
            guard let sleeping = message.body.first?.bool else { continue }
            if sleeping {
                console.warn("system going to sleep: letting go of the sensors, flushing the sinks")
                await actions.prepare(budget)
                release(&lock)
            } else {
                console.warn("system resumed: reconnecting the sensors")
                if lock == nil { lock = try? await Logind.inhibitSleep(on: connection, why: why) }
                actions.resume()
            }
        }
        release(&lock)
    }

    /// Closing the descriptor is what tells logind this program is ready for the sleep.
    private static func release(_ lock: inout UnixFileDescriptor?) {
        if let descriptor = lock?.take() { close(descriptor) }
        lock = nil
    }
}
