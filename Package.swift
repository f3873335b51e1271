// swift-tools-version:6.0
// The targets follow the data flow (see README "Architecture"): bytes from a strap or a trace
// become samples (HeartRate), samples become Live Activity updates (LiveState), updates go out to
// stdout, files, a lifecycle server or APNs (Forwarding), traces are read and written (Trace), and
// the CLI wires them together.
import PackageDescription

let package = Package(
    name: "hrbridge",
    products: [
        .executable(name: "hrbridge", targets: ["hrbridge"]),
    ],
    targets: [
        .target(name: "HeartRate"),
        .target(name: "Trace", dependencies: ["HeartRate"]),
        .target(name: "LiveState", dependencies: ["HeartRate"]),
        // The configuration file: a strict JSON reader and the sections (straps, cadence, sinks).
        .target(name: "Config", dependencies: ["LiveState"]),
        // OpenSSL's libcrypto signs the APNs provider token (ES256); libcurl speaks HTTP/2 over
        // verified TLS with a per-sink CA file (URLSession on Linux only reads the system store).
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(
            name: "Forwarding",
            dependencies: ["HeartRate", "LiveState", "COpenSSL", "CCurl"],
            exclude: ["Lifecycle/lifecycle-server.openapi.json"] // the contract, for people and the contract test
        ),
        .target(
            name: "CLI",
            dependencies: ["HeartRate", "Trace", "LiveState", "Config", "Forwarding"],
            resources: [.copy("Resources/treadmill-12km.trace")]
        ),
        .executableTarget(name: "hrbridge", dependencies: ["CLI"]),
        .executableTarget(
            name: "ReplayBenchmark",
            dependencies: ["CLI", "Trace", "HeartRate"],
            path: "Benchmarks/ReplayBenchmark"
        ),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "HeartRateTests", dependencies: ["HeartRate", "TestSupport"]),
        .testTarget(name: "TraceTests", dependencies: ["Trace", "HeartRate", "TestSupport"]),
        .testTarget(name: "LiveStateTests", dependencies: ["LiveState", "HeartRate", "TestSupport"]),
        .testTarget(name: "ConfigTests", dependencies: ["Config", "LiveState", "TestSupport"]),
        .testTarget(
            name: "ForwardingTests",
            dependencies: ["Forwarding", "CLI", "Config", "LiveState", "HeartRate", "TestSupport"],
            resources: [.copy("Scripts")]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["CLI", "Trace", "HeartRate", "LiveState", "Config", "TestSupport"],
            exclude: ["Fixtures"] // traces and golden outputs, read through #filePath
        ),
    ]
)
