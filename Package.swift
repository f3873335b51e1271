// swift-tools-version:6.0
// The targets follow the data flow (see README "Architecture"): bytes from a strap or a trace
// become samples (HeartRate), samples become Live Activity updates (LiveState), traces are read and
// written (Trace), and the CLI wires them together.
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
        .target(
            name: "CLI",
            dependencies: ["HeartRate", "Trace", "LiveState", "Config"],
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
            name: "CLITests",
            dependencies: ["CLI", "Trace", "HeartRate", "LiveState", "Config", "TestSupport"],
            exclude: ["Fixtures"] // traces and golden outputs, read through #filePath
        ),
    ]
)
