// swift-tools-version:6.0
// The targets follow the data flow (see docs/architecture.md): bytes from a strap or a trace
// become samples (Sensors: one folder per sensor kind), samples become Live Activity updates (LiveState), updates go out to
// stdout, files, a lifecycle server, APNs (Live Activity and background pushes), Airship, FCM or
// an MQTT broker (Forwarding: one folder per sink kind), traces are read and written (Trace), a
// session runs it all in real time (Session, with what it keeps between runs in SessionState),
// BlueZ links, D-Bus controls and the HTTP API are built on the sessions (LiveLinks, BusControl,
// ListenerAPI), one builder puts a runtime together from a configuration (Assembly), and the CLI
// parses arguments and prints.
import PackageDescription

let package = Package(
    name: "hrbridge",
    products: [
        .executable(name: "hrbridge", targets: ["hrbridge"]),
    ],
    targets: [
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .target(name: "DBus", dependencies: ["CDBus"]),
        // What Foundation would give beyond FoundationEssentials (trimming, percent-encoding, a condition
        // lock, a named thread, path joining), so no product module links Foundation and its ICU data;
        // and what every module shares: the one JSON writer, the one write loop, a listen address.
        .target(name: "Platform", dependencies: ["CSystem"]),
        .target(name: "Sensors"),
        .target(name: "BlueZ", dependencies: ["DBus", "Sensors", "Platform"]),
        .target(name: "Trace", dependencies: ["Sensors", "CSystem", "Platform"]),
        .target(name: "LiveState", dependencies: ["Sensors", "Platform"]),
        // Offline, pure: how well a run of updates served a person (evaluate's scores against the
        // true samples and distance) and the cadence's optimum in hindsight. Only the CLI's evaluate
        // and plot commands link it: nothing on the way from a notification to a sink does.
        .target(name: "Evaluation", dependencies: ["LiveState", "Sensors"]),
        // What a person sees of a running session, pure: the preview page and overlay (Data/, built
        // into the binary), their event streams' messages, the terminal's status lines.
        .target(name: "LiveView", dependencies: ["LiveState", "Sensors", "Platform"], exclude: ["Data"], plugins: ["EmbeddedData"]),
        // OpenSSL's libcrypto signs the APNs provider token (ES256) and FCM's service-account assertion
        // (RS256); libcurl speaks HTTP/2 over
        // verified TLS with a per-sink CA file (URLSession on Linux only reads the system store).
        // Headers only: both are loaded with dlopen when a network sink first needs them (shim.h).
        .systemLibrary(name: "COpenSSL", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // libmosquitto publishes to MQTT brokers (headers only too: dlopen on first use, see shim.h).
        .systemLibrary(name: "CMosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // What a sink kind is to those who set one up (its options, values, secrets' files), without
        // the code that builds it: the configuration reader and the command line read settings by it.
        .target(name: "SinkVocabulary", dependencies: ["Platform"]),
        // libmicrohttpd serves the HTTP listener (--listen): headers only, dlopen on first use (shim.h).
        .systemLibrary(name: "CMicroHTTPD", providers: [.apt(["libmicrohttpd-dev"])]),
        // The listener's transport: the library's daemon, requests and responses, listen addresses and
        // systemd's sockets, the router and the checks before an endpoint. Knows nothing of sessions.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD", "Platform"]),
        .target(
            name: "Forwarding",
            dependencies: ["Sensors", "LiveState", "Platform", "SinkVocabulary", "BlueZ", "DBus", "COpenSSL", "CCurl", "CMosquitto"],
            exclude: ["Kinds/Lifecycle/lifecycle-server.openapi.json"] // the contract, for people and the contract test
        ),
        // The configuration file: a strict JSON reader and the sections (straps, cadence, sinks: what
        // a sink object holds comes from the sink kinds' descriptions, which the caller hands in:
        // Forwarding's SinkKinds.catalog, the table the flags come from too; `listen`: the HTTP listener).
        .target(name: "Config", dependencies: ["LiveState", "Sensors", "SinkVocabulary", "Platform"]),
        // What a session keeps on disk between runs, and the errors of the session's modules: the
        // activity ledger and its state file (locked, synced), the push-token and channel files, where
        // they live. No sink, link or clock: a run, `recover` and the tests read them the same way.
        .target(name: "SessionState", dependencies: ["Sensors", "LiveState", "Forwarding", "Platform"]),
        // A strap's or trace's session in real time, whatever feeds it: the engine's time line, the
        // journal (state file before sinks), recovery, signals, the sink set and the one way sinks are
        // built, the preview hub every session's updates go to, the controls as one vocabulary
        // (SessionControls). No bus, no socket: the links, D-Bus and HTTP surfaces are built on it.
        // BlueZ only for the BLE peripheral sink's counters in its status and the links' silence timeout.
        .target(
            name: "Session",
            dependencies: ["SessionState", "Sensors", "Trace", "LiveState", "LiveView", "Config", "SinkVocabulary", "Forwarding", "BlueZ", "Platform"]
        ),
        // The BlueZ side of run, record and scan: the bus and the mirror, a link per sensor, a strap and
        // its distance sensor on one queue (WorkoutLinks, EventOrder), LinkedSessions for run,
        // RecordedLinks for record, the trace recorder, and logind's sleep inhibitor around them.
        .target(name: "LiveLinks", dependencies: ["Session", "SessionState", "BlueZ", "DBus", "Sensors", "Trace", "Platform"]),
        // io.hrbridge.Bridge1 on D-Bus (what `ctl` calls): the sessions' controls served on a bus.
        .target(name: "BusControl", dependencies: ["Session", "SessionState", "DBus", "LiveState", "LiveView", "Platform"]),
        // The HTTP API on the listener: one route table (BridgeAPI), handlers by concern, Prometheus
        // text, the OpenAPI contract, and starting the listener over HTTPServer.
        .target(
            name: "ListenerAPI",
            dependencies: ["Session", "SessionState", "HTTPServer", "LiveState", "LiveView", "Config", "Forwarding", "SinkVocabulary", "BlueZ", "Platform", "Sensors"],
            exclude: ["bridge-api.openapi.json"] // the listener's contract, for people and the contract test
        ),
        // The one builder of the runtime `run`, `replay` and the service run: from a configuration (a
        // file's or the flags'), the sessions, their links or trace, the controls and the listener.
        .target(name: "Assembly", dependencies: ["Session", "SessionState", "LiveLinks", "BusControl", "ListenerAPI", "Config", "LiveState", "Trace"]),
        .target(
            name: "CLI",
            dependencies: ["Assembly", "Session", "LiveLinks", "BusControl", "SessionState", "Sensors", "Trace", "LiveState", "Evaluation", "LiveView", "Config", "SinkVocabulary", "Forwarding", "HTTPServer", "BlueZ", "DBus", "Platform", "CSystem"],
            // Data/ holds the bundled trace; the plugin turns it into code at build time.
            exclude: ["Data"],
            plugins: ["EmbeddedData"]
        ),
        // A target's Data/ files as code (EmbeddedData.<name>): the bundled trace, the preview page.
        .plugin(name: "EmbeddedData", capability: .buildTool(), dependencies: ["data-to-swift"]),
        .executableTarget(name: "data-to-swift"),
        // glibc calls that need a C wrapper (prctl is variadic).
        .systemLibrary(name: "CSystem"),
        .executableTarget(name: "hrbridge", dependencies: ["CLI", "CSystem", "Platform"]),
        .executableTarget(
            name: "ReplayBenchmark",
            dependencies: ["CLI", "Trace", "Sensors"],
            path: "Benchmarks/ReplayBenchmark"
        ),
        // The FIT file it imports is written by the tests' FITWriter, which the product does not ship.
        .executableTarget(
            name: "FITImportBenchmark",
            dependencies: ["CLI", "Trace", "TestSupport"],
            path: "Benchmarks/FITImportBenchmark"
        ),
        // Fuzzing (Fuzz/README.md), not part of the product: each outside-facing parser's check, run by
        // hrbridge-fuzz under libFuzzer (scripts/fuzz) and by FuzzTests over the committed corpus.
        .target(name: "FuzzTargets", dependencies: ["Sensors", "Trace", "Config", "SinkVocabulary", "Forwarding", "HTTPServer", "Session", "ListenerAPI"], path: "Fuzz/Targets"),
        .executableTarget(name: "hrbridge-fuzz", dependencies: ["FuzzTargets"], path: "Fuzz/Entry"),
        .target(name: "TestSupport", dependencies: ["LiveState", "Sensors"], path: "Tests/TestSupport"),
        // Starts private dbus-daemons and peer processes for the D-Bus, BlueZ and live command tests.
        .target(name: "BusTestSupport", path: "Tests/BusTestSupport", exclude: ["Peers"]),
        // The binary, scripted HTTP servers, a mosquitto broker and test certificates as child
        // processes, for the sink tests and the listener's; Scripts/ holds the servers and validators.
        // A console that keeps what sessions wrote, and two configured straps: for the sessions' tests and the API's.
        .target(name: "SessionTestSupport", dependencies: ["Session", "Config", "Forwarding", "Sensors", "TestSupport"], path: "Tests/SessionTestSupport"),
        .target(name: "ProcessTestSupport", dependencies: ["TestSupport"], path: "Tests/ProcessTestSupport", resources: [.copy("Scripts")]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "BusTestSupport"]),
        .testTarget(name: "BlueZTests", dependencies: ["BlueZ", "DBus", "Sensors", "Platform", "BusTestSupport"]),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors", "TestSupport"]),
        .testTarget(name: "TraceTests", dependencies: ["Trace", "Sensors", "TestSupport"]),
        // The push budget's tests measure what the rule did with evaluate's score.
        .testTarget(name: "LiveStateTests", dependencies: ["LiveState", "Evaluation", "Sensors", "TestSupport"]),
        .testTarget(name: "EvaluationTests", dependencies: ["Evaluation", "LiveState", "Sensors"]),
        .testTarget(name: "LiveViewTests", dependencies: ["LiveView", "LiveState", "Sensors", "TestSupport"]),
        .testTarget(name: "ConfigTests", dependencies: ["Config", "SinkVocabulary", "Forwarding", "LiveState", "TestSupport", "Sensors"]),
        .testTarget(
            name: "ForwardingTests",
            dependencies: ["Forwarding", "CLI", "Session", "SessionState", "Config", "LiveState", "Sensors", "TestSupport", "BusTestSupport", "ProcessTestSupport", "SinkVocabulary"]
        ),
        .testTarget(name: "SessionStateTests", dependencies: ["SessionState", "LiveState", "Sensors", "TestSupport"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport", "Platform"]),
        .testTarget(name: "FuzzTests", dependencies: ["FuzzTargets", "Config", "Forwarding"]),
        .testTarget(
            name: "SessionTests",
            dependencies: ["Session", "SessionState", "CLI", "SinkVocabulary", "Forwarding", "Config", "LiveState", "Sensors", "Trace",
                           "TestSupport", "SessionTestSupport", "ProcessTestSupport", "BlueZ", "ListenerAPI", "LiveView"]
        ),
        // Listener/: the HTTP API through the built binary (its contract, sockets, control surfaces).
        .testTarget(
            name: "ListenerAPITests",
            dependencies: ["ListenerAPI", "Session", "SessionState", "Config", "LiveState", "Sensors", "HTTPServer",
                           "TestSupport", "SessionTestSupport", "BusTestSupport", "ProcessTestSupport", "Forwarding", "CLI"]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["CLI", "Session", "SessionState", "Trace", "Sensors", "LiveState", "Evaluation", "Config", "TestSupport", "BusTestSupport", "DBus", "BlueZ", "Forwarding", "LiveLinks"],
            // Traces and golden outputs, read through #filePath; the browser test's Python driver.
            exclude: ["Fixtures", "Browser/Driver"]
        ),
    ]
)
