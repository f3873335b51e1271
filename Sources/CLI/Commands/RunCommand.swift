import Assembly
import Config
import FoundationEssentials
import LiveState
import Forwarding

/// `hrbridge run`: live straps through the live state, as `replay` drives a trace: one session per
/// strap (its own engine, sinks, state file and queue) fed by that strap's BlueZ link.
enum RunCommand {
    static let spec = CommandSpec(
        name: "run",
        summary: "Stream live heart-rate straps and print (or forward) their Live Activity updates.",
        options: [
            .init(name: "--config", valueName: "PATH", help: "straps, activities, cadence and sinks from this file (default: see below)"),
            .init(name: SettingFlag.device, valueName: "ADDRESS|NAME", help: "strap to use (repeat for several; default: the first found)", repeatable: true),
            DeviceOptions.distanceDeviceOption,
            DeviceOptions.heartRateFromOption,
            .init(name: "--record", valueName: "FILE", help: "also write each strap's raw trace, losslessly (several straps: FILE with the strap before its extension)"),
            ControlBusOption.specOption,
            StatusOption.specOption,
        ] + ListenOptions.specOptions + SessionOptions.specOptions + CadenceOptions.specOptions + SinkOptions.specOptions,
        details: """
        Output: one JSON object per Live Activity update (docs/live-activity-updates.md), as
        'hrbridge replay' prints: start, changes, refreshes, sensor-lost / sensor-back while the
        strap drops out, and the end. Times are the wall clock's. Progress, reconnects and their
        reasons go to stderr. Never gives up on a strap: links that drop, adapters that go off or
        away and bluetoothd restarts are waited out.

        With a configuration file (--config, or the first of the default places when no --device,
        cadence or sink flag is given), every strap of the file runs with its own activity, cadence
        and sinks ('hrbridge config check' shows them). Otherwise --device and the cadence and sink
        flags of 'hrbridge replay' apply to each strap given.

        'hrbridge ctl' pauses, resumes, labels, ends or shows each strap's activity through
        io.hrbridge.Bridge1 on the session bus (--control-bus system for the service, none: off).
        When stderr is a terminal, the bottom lines show each sensor (rate, link, distance, the
        last update and its reason, the next deadline), logs scrolling above; --no-status: off.
        --listen serves the same controls, health and Prometheus metrics over HTTP (or the socket
        systemd passes from hrbridge.socket); off loopback it needs a bearer token (docs/http-api.md).

        SIGINT/SIGTERM end each activity, flush the sinks and stop notifications and disconnect
        (within 2 s); exit 130/143. The activity state file (one per strap, under --state-dir)
        lets the next run end what a killed one left (end:recovered). Exit 69 when Bluetooth
        cannot be used at all (no system bus, permission denied); the message says how to fix it.

        Examples:
          hrbridge run
          hrbridge run --device F1:5A:17:00:00:01 --record today.trace
          hrbridge run --distance-device "Treadmill 42" --heart-rate-from machine
          hrbridge run --device "Polar H10 1234ABCD" --device "HRM-Pro" --sink file:updates.ndjson
          hrbridge run --config ~/.config/hrbridge/config.json
        """
    )

    /// What a flag-driven run must not mix with --config (the file says it per strap): every flag
    /// with a key in the file's straps, cadence, sinks or `http`.
    static let perStrapFlags = SettingNames.strapFlags + CadencePolicy.parameters.map(\.flag) + SinkOptions.kindFlags

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        let status = StatusOption.show(arguments, console: console)
        defer { console.hideStatus() }
        let listenFlags = try ListenOptions.parse(arguments, spec: spec)
        let bridge = if let path = try configurationPath(arguments) {
            try configured(path, console: console)
        } else {
            try ConfigurationFlags.configuration(arguments, straps: DeviceOptions.selectors(arguments, spec: spec), spec: spec)
        }
        let listen = try ListenOptions.merged(listenFlags, bridge.listen, spec: spec)
        let record = arguments.value("--record")
        if let record { try RecordFiles.check(record, for: bridge.straps.map(\.strap), spec: spec) }
        let configuration = try RuntimeOptions.configuration(arguments, bridge: bridge, source: .straps(record: record), listen: listen,
                                                             spec: spec, console: console)
        let runtime = try CLIError.catching(BridgeRuntime.assemble(configuration))
        let controls = runtime.controls
        status?.follow { controls.sensorStatus() }
        defer { console.output.flush() }
        try CLIError.catching(runtime.run())
    }

    /// `--config PATH`; else, when no per-strap flag is given, the first configuration file found
    /// (/etc/hrbridge/config.json, ~/.config/hrbridge/config.json); else nil: the flags say it all.
    private static func configurationPath(_ arguments: ParsedArguments) throws(CLIError) -> String? {
        let flag = perStrapFlags.first { !arguments.allValues($0).isEmpty || arguments.has($0) }
        if let explicit = arguments.value("--config") {
            if let flag { throw .usage("\(flag) and --config exclude each other: the file sets it per strap", spec) }
            return explicit
        }
        guard flag == nil else { return nil }
        return try? ConfigurationFile.locate(explicit: nil, environment: ProcessInfo.processInfo.environment)
    }

    /// The file's straps, activities, cadence and sinks.
    private static func configured(_ path: String, console: Console) throws(CLIError) -> BridgeConfiguration {
        let configuration: BridgeConfiguration
        do {
            configuration = try ConfigurationFile.load(path: path, kinds: SinkKinds.catalog)
        } catch {
            throw error.asCLIError
        }
        console.warn("\(path): \(configuration.straps.count) strap\(configuration.straps.count == 1 ? "" : "s")")
        return configuration
    }
}
