import Foundation

/// A private `dbus-daemon` for one test: started on a fresh socket, stopped on `stop()` or
/// when dropped. Nothing touches the machine's real buses.
public final class PrivateBus: @unchecked Sendable {
    public let address: String
    private let daemon: Process

    /// `denyingSendsTo`: a bus whose policy refuses method calls to that name, as the system
    /// bus does to users outside the `bluetooth` group for org.bluez.
    public init(denyingSendsTo deniedName: String? = nil) throws {
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--print-address=1", "--nofork", "--nopidfile"]
        if let deniedName {
            let config = FileManager.default.temporaryDirectory.appendingPathComponent("hrbridge-bus-\(UUID().uuidString).conf")
            try Self.policy(denying: deniedName).write(to: config, atomically: true, encoding: .utf8)
            daemon.arguments = ["--config-file=\(config.path)", "--print-address=1", "--nofork", "--nopidfile"]
        }
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

    private static func policy(denying name: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:tmpdir=/tmp</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
            <deny send_destination="\(name)"/>
          </policy>
        </busconfig>
        """
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
