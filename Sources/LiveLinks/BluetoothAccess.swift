import BlueZ
import DBus
import FoundationEssentials
import Sensors
import SessionState
import Session

/// Opens the system bus and the BlueZ mirror, turning each way that can fail into a message
/// that says what is wrong and how to fix it.
public enum BluetoothAccess {
    public static func open() async throws(SessionError) -> BlueZClient {
        let connection: BusConnection
        do {
            connection = try await BusConnection.connect(to: .system)
        } catch {
            throw .unavailable("cannot reach the system D-Bus: \(error)\nFix: start it ('sudo systemctl start dbus'), or point DBUS_SYSTEM_BUS_ADDRESS at the right socket.")
        }
        do {
            return try await BlueZClient.start(on: connection, clock: { SessionClock.real.now()! })
        } catch where error.name == BusErrorName.accessDenied {
            throw .unavailable(permissionDenied)
        } catch {
            throw .unavailable("cannot follow bluetoothd on the system bus: \(error)")
        }
    }

    public static let permissionDenied = """
        permission denied on the system bus: this user may not talk to org.bluez.
        Fix: add yourself to the 'bluetooth' group ('sudo usermod -aG bluetooth $USER'), then log out and in again.
        """

    /// What stops a scan now, with the fix; nil when an adapter is powered.
    public static func problem(in tree: ObjectTree, isBlueZRunning: Bool) -> String? {
        guard isBlueZRunning else {
            return "bluetoothd is not running (no org.bluez on the system bus).\nFix: 'sudo systemctl start bluetooth'."
        }
        guard let adapter = tree.adapters.first else {
            return "no Bluetooth adapter found.\nFix: plug one in; check 'rfkill list' and 'bluetoothctl list'."
        }
        guard tree.adapters.contains(where: \.powered) else {
            if adapter.powerState == "off-blocked" {
                return "adapter \(adapter.interfaceName) is blocked by rfkill.\nFix: 'rfkill unblock bluetooth', then 'bluetoothctl power on'."
            }
            return "adapter \(adapter.interfaceName) is off.\nFix: 'bluetoothctl power on'."
        }
        return nil
    }

    public static let noStrapHint = "Fix: wake the strap (wet the electrodes and put it on; most sleep when off the chest), keep it near, and try again."
}

extension BluetoothAccess {
    /// `scan`: the sensors nearby after `seconds` of discovery, or why Bluetooth cannot be used.
    public static func scan(for seconds: Double) async throws(SessionError) -> [SensorSighting] {
        let client = try await open()
        let (tree, running) = (await client.tree, await client.isBlueZRunning)
        if let problem = problem(in: tree, isBlueZRunning: running) { throw .unavailable(problem) }
        do throws(SensorScanFailure) {
            return try await client.scanForSensors(seconds: seconds)
        } catch {
            switch error {
            case .accessDenied: throw .unavailable(permissionDenied)
            case let .cannotStart(adapter, error): throw .unavailable("cannot scan on \(adapter): \(error)")
            }
        }
    }
}
