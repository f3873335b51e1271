import BlueZ
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
        let found: Result<[SensorSighting], SessionError> = runBlocking { [seconds] in
            do throws(SessionError) { return .success(try await BluetoothAccess.scan(for: seconds)) } catch { return .failure(error) }
        }
        let sensors = try CLIError.catching(found.get())
        guard !sensors.isEmpty else {
            throw .unavailable("no heart-rate strap, foot pod or bike sensor found in \(seconds) s.\n\(BluetoothAccess.noStrapHint)")
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
