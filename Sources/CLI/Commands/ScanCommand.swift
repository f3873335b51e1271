import BlueZ
import Sensors
import SessionState
import LiveLinks
import Platform

/// `hrbridge scan`: discovery filtered on every sensor kind's service, then the sensors seen.
enum ScanCommand {
    static let spec = CommandSpec(
        name: "scan",
        summary: "List nearby heart-rate straps and the sensors that know a workout's distance (Bluetooth LE).",
        options: [
            .init(name: "--timeout", valueName: "S", help: "seconds to scan (default 10)"),
            .init(name: "--json", valueName: nil, help: "one JSON object per sensor instead of a table"),
        ],
        details: """
        Output: address, name, RSSI (dBm, while advertising) and battery when bluetoothd knows it,
        and the kind of sensor by the service it offers (fitness machines, which share one, by the
        machine type in their advertising): \(kindsHelp).
          {"address":"F1:5A:17:00:00:01","name":"HRM-Sim 1","rssi":-60,"battery":null,"kind":"heart rate"}
        A fitness machine sends its name only when asked (in a scan response): it may show none.
        Exit status 69 when Bluetooth is not usable or no strap was found; the message says how to fix it.

        Example:
          hrbridge scan --timeout 5
        """
    )

    /// "heart rate (0x180D; a strap for --device), … (0x1814), …: those for --distance-device", from the registry.
    private static var kindsHelp: String {
        func named(_ kinds: [SensorKind]) -> String {
            kinds.map { "\($0.name) (0x\($0.service.shortForm.uppercased()))" }.joined(separator: ", ")
        }
        let straps = SensorKind.all.filter { !$0.contribution.givesDistance }
        let distance = SensorKind.all.filter(\.contribution.givesDistance)
        return "\(named(straps)) (a strap for --device); \(named(distance)) (for --distance-device)"
    }

    /// Long enough for a strap advertising every 1–2 s to be seen several times.
    static let defaultTimeout = 10.0

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        var seconds = defaultTimeout
        if let text = arguments.value("--timeout") {
            guard let value = Double(text), value > 0, value.isFinite else { throw .usage("--timeout '\(text)' is not a positive number", spec) }
            seconds = value
        }
        let json = arguments.has("--json")
        let found: Result<[SensorSighting], SessionError> = runBlocking { [seconds] in
            do throws(SessionError) { return .success(try await BluetoothAccess.scan(for: seconds)) } catch { return .failure(error) }
        }
        let sensors = try CLIError.catching(found.get())
        guard !sensors.isEmpty else {
            throw .unavailable("no heart-rate strap nor distance sensor found in \(seconds) s.\n\(BluetoothAccess.noStrapHint)")
        }
        for sighting in sensors.sorted(by: { ($0.device.rssi ?? .min) > ($1.device.rssi ?? .min) }) {
            let (device, kind, battery) = (sighting.device, sighting.kind, sighting.battery)
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
}
