import Foundation

/// A private `dbus-daemon` for one test: started on a fresh socket, stopped on `stop()` or
/// when dropped. Nothing touches the machine's real buses.
public final class PrivateBus: @unchecked Sendable {
    public let address: String
    private let daemon: Process

    public init() throws {
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--print-address=1", "--nofork", "--nopidfile"]
        let output = Pipe()
        daemon.standardOutput = output
        try daemon.run()
        guard let line = ChildProcess.readLine(from: output.fileHandleForReading), line.hasPrefix("unix:") else {
            daemon.terminate()
            throw TestSupportError("dbus-daemon printed no address")
        }
        address = line
    }

    /// Environment for a child that should see this bus as both its session and system bus.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        return environment
    }

    public func stop() {
        ChildProcess.kill(daemon)
    }

    deinit { stop() }
}

public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
