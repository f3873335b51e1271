import BlueZ
import DBus
import Platform
import Sensors
import Session

/// `hrbridge scan`: discovery filtered on every sensor kind's service, then the sensors seen.
enum ScanCommand {
    static let spec = CommandSpec(
        name: "scan",
        summary: "List nearby heart-rate straps, foot pods and bike sensors (Bluetooth LE).",
        options: [
            .init(name: "--timeout", valueName: "S", help: "seconds to scan (default 10)"),
            .init(name: "--json", valueName: nil, help: "one JSON object per sensor instead of a table"),
        ],
        details: """
        Output: address, name, RSSI (dBm, while advertising) and battery when bluetoothd knows it,
        and the kind of sensor by the service it offers: heart rate (0x180D; a strap for --device),
        running speed and cadence (0x1814, a foot pod) or cycling speed and cadence (0x1816): those
        two for --distance-device.
          {"address":"F1:5A:17:00:00:01","name":"HRM-Sim 1","rssi":-60,"battery":null,"kind":"heart rate"}
        Exit status 69 when Bluetooth is not usable or no strap was found; the message says how to fix it.

        Example:
          hrbridge scan --timeout 5
        """
    )

    /// Long enough for a strap advertising every 1–2 s to be seen several times.
    static let defaultTimeout = 10.0

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        var seconds = defaultTimeout
        if let text = arguments.value("--timeout") {
            guard let value = Double(text), value > 0, value.isFinite else { throw .usage("--timeout '\(text)' is not a positive number", spec) }
            seconds = value
        }
        let json = arguments.has("--json")
        let found: Result<[Sighting], CLIError> = runBlocking { [seconds] in await scan(for: seconds) }
        let sensors = try found.get()
        guard !sensors.isEmpty else {
            throw .unavailable("no heart-rate strap, foot pod or bike sensor found in \(seconds) s.\n\(BluetoothAccess.noStrapHint)")
        }
        for (device, kind, battery) in sensors.sorted(by: { ($0.device.rssi ?? .min) > ($1.device.rssi ?? .min) }) {
            if json {
                var line = JSONLine()
                line.string("address", device.address ?? "")
                line.string("name", device.name ?? "")
                line.optionalInteger("rssi", device.rssi)
                line.optionalInteger("battery", battery)
                line.string("kind", kind.name)
                console.output.write(line.finish())
            } else {
                let rssi = device.rssi.map { "RSSI \($0) dBm" } ?? "RSSI ?"
                let charge = battery.map { "  battery \($0) %" } ?? ""
                console.output.write("\(device.address ?? "?")  \(device.name ?? "(no name)")  \(kind.name)  \(rssi)\(charge)\n")
            }
        }
        console.output.flush()
    }

    private typealias Sighting = (device: Device1, kind: SensorKind, battery: UInt8?)

    private static func scan(for seconds: Double) async -> Result<[Sighting], CLIError> {
        let client: BlueZClient
        do { client = try await BluetoothAccess.open() } catch { return .failure(CLIError(error)) }
        let (tree, running) = (await client.tree, await client.isBlueZRunning)
        if let problem = BluetoothAccess.problem(in: tree, isBlueZRunning: running) { return .failure(.unavailable(problem)) }
        let adapters = tree.adapters.filter(\.powered)
        for adapter in adapters {
            try? await adapter.setDiscoveryFilter(Adapter1.sensorDiscoveryFilter(), on: client.bus)
            do {
                try await adapter.startDiscovery(on: client.bus)
            } catch where error.name == BusErrorName.accessDenied {
                return .failure(.unavailable(BluetoothAccess.permissionDenied))
            } catch where error.name != "org.bluez.Error.InProgress" {
                return .failure(.unavailable("cannot scan on \(adapter.interfaceName): \(error)"))
            } catch {}
        }
        try? await TaskSleep.sleep(for: .seconds(seconds))
        for adapter in adapters { try? await adapter.stopDiscovery(on: client.bus) }
        let final = await client.tree
        // A device's kind by the services it advertises, or offers once connected (a paired sensor
        // that stopped advertising them).
        let sightings = final.devices.compactMap { device -> Sighting? in
            let services = device.uuids + final.services(of: device.path).map(\.uuid)
            guard let kind = SensorKind.all.first(where: { services.contains($0.service) }) else { return nil }
            return (device, kind, final.batteryPercentage(ofDevice: device.path))
        }
        return .success(sightings)
    }
}
