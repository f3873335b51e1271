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
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .target(name: "DBus", dependencies: ["CDBus"]),
        .target(name: "HeartRate"),
        .target(name: "BlueZ", dependencies: ["DBus", "HeartRate"]),
        .target(name: "Trace", dependencies: ["HeartRate"]),
        .target(
            name: "CLI",
            dependencies: ["HeartRate", "Trace", "BlueZ", "DBus"],
            resources: [.copy("Resources/treadmill-12km.trace")]
        ),
        .executableTarget(name: "hrbridge", dependencies: ["CLI"]),
        // Starts private dbus-daemons and peer processes for the D-Bus and BlueZ tests.
        .target(name: "BusTestSupport", path: "Tests/BusTestSupport", exclude: ["Peers"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "BusTestSupport"]),
        .testTarget(name: "BlueZTests", dependencies: ["BlueZ", "DBus", "HeartRate", "BusTestSupport"]),
        .testTarget(name: "HeartRateTests", dependencies: ["HeartRate"]),
        .testTarget(name: "TraceTests", dependencies: ["Trace", "HeartRate"]),
        .testTarget(name: "CLITests", dependencies: ["CLI", "Trace", "HeartRate", "BusTestSupport", "DBus"]),
    ]
)
