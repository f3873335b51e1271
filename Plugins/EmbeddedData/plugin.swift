import Foundation
import PackagePlugin

/// Turns every file under a target's `Data/` folder (data kept as data: the CLI's bundled trace, the
/// preview page's HTML, CSS and scripts) into Swift source at build time, as `EmbeddedData.<name>`:
/// hrbridge carries them in the binary, with no resource bundle (Foundation's Bundle) and no file
/// to install beside it. `data-to-swift` writes the code; SwiftPM reruns it when a file changes.
/// A target using it lists `exclude: ["Data"]` so the files are not taken for sources.
@main
struct EmbeddedDataPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // Sources/<target>/Data: every target using the plugin lives at SwiftPM's default path.
        let folder = context.package.directoryURL.appending(path: "Sources/\(target.name)/Data")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedData.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(target.name)'s Data/ (\(files.count) files)",
                executable: try context.tool(named: "data-to-swift").url,
                arguments: [output.path()] + files.map { $0.path() },
                inputFiles: files,
                outputFiles: [output]
            ),
        ]
    }
}
