import Evaluation
import FoundationEssentials
import LiveState
import Platform

/// `hrbridge plot`: one trace, replayed, drawn as an SVG chart of what the engine did.
enum PlotCommand {
    static let spec = CommandSpec(
        name: "plot",
        summary: "Draw a trace's samples and the Live Activity updates it leads to as an SVG chart.",
        options: [
            .init(name: "-o", valueName: "OUT.svg", help: "file to write (required; '-' for stdout)"),
            .init(name: "--title", valueName: "TEXT", help: "chart title (default: the trace's file name)"),
        ] + CadenceOptions.specOptions,
        positionals: [
            .init(name: "TRACE", help: "trace to replay (as fast as possible)"),
        ],
        details: """
        The chart shows the raw samples (grey), the rate the phone shows (blue steps with the
        ±5 bpm band), a marker per update coloured by reason (squares are priority 10), and
        sensor-lost spans shaded red. Hover a marker in a browser for its time and reason.
        A trace with a distance sensor gets a second panel below, on the same time axis: the
        distance the sensor measured (thin grey) and the distance the phone shows (blue steps).
        To view it as an image: rsvg-convert out.svg -o out.png

        Example:
          hrbridge plot run.trace -o run.svg --threshold 3
        """
    )

    static func run(_ arguments: ParsedArguments, console: Console) throws(CLIError) {
        guard let output = arguments.value("-o") else { throw .usage("missing -o OUT.svg", spec) }
        let feed = try CadenceOptions.feed(arguments, spec: spec)
        let path = arguments.positionals[0]
        let run = try RecordedRun.replay(path, feed: feed, console: console)
        let truth = CadenceScore.Truth()
        let plot = UpdatePlot(
            title: arguments.value("--title") ?? FilePath.lastComponent(of: path),
            run: run, score: run.score(truth: truth), tolerance: truth.toleranceBeatsPerMinute
        )
        let svg = plot.svg()
        if output == "-" {
            console.output.write(svg)
            console.output.flush()
            return
        }
        guard FileManager.default.createFile(atPath: output, contents: Data(svg.utf8)) else {
            throw .cannotCreate("\(output): cannot write the chart")
        }
        console.warn("wrote \(output) (\(run.updates.count) updates)")
    }
}
