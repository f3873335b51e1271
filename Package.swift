// swift-tools-version:6.0
// The targets follow the data flow (see README "Architecture"): bytes from a strap or a trace
// become samples (HeartRate), traces are read and written (Trace), and the CLI wires them together.
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
        .target(
            name: "CLI",
            dependencies: ["HeartRate", "Trace", "LiveState"],
            resources: [.copy("Resources/treadmill-12km.trace")]
        ),
        .executableTarget(name: "hrbridge", dependencies: ["CLI"]),
        .testTarget(name: "HeartRateTests", dependencies: ["HeartRate"]),
        .testTarget(name: "TraceTests", dependencies: ["Trace", "HeartRate"]),
        .testTarget(name: "LiveStateTests", dependencies: ["LiveState", "HeartRate"]),
        .testTarget(name: "CLITests", dependencies: ["CLI", "Trace", "HeartRate", "LiveState"]),
    ]
)
