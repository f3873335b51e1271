import PackagePlugin

/// Turns the CLI's bundled trace (`Sources/CLI/Data/*.trace`, data kept as data) into Swift source
/// at build time: hrbridge carries it in the binary, with no resource bundle (Foundation's Bundle)
/// and no file to install beside it. `trace-to-swift` writes the code; SwiftPM reruns it when the
/// trace changes.
@main
struct BundledTraceCode: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target _: Target) throws -> [Command] {
        let trace = context.package.directoryURL.appending(path: "Sources/CLI/Data/treadmill-12km.trace")
        let output = context.pluginWorkDirectoryURL.appending(path: "BundledTrace+Text.swift")
        return [
            .buildCommand(
                displayName: "Turning \(trace.lastPathComponent) into Swift",
                executable: try context.tool(named: "trace-to-swift").url,
                arguments: [trace.path(), output.path()],
                inputFiles: [trace],
                outputFiles: [output]
            ),
        ]
    }
}
