import Foundation
import Testing
import TestSupport

/// The preview page and the overlay in a real browser: headless Chromium over the DevTools
/// protocol (Driver/chromium.py, a pipe: no websocket library) against `hrbridge replay --listen`
/// of a trace made for it (Driver/preview_scenario.py): the number, the timer running and frozen,
/// stale, sensor lost, ended and dismissed, a cut network resumed with Last-Event-ID, a label that
/// is markup, the overlay's transparency. One replay, one browser, ~20 s.
@Suite(.timeLimit(.minutes(2))) struct PreviewBrowserTests {
    static let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Driver/preview_scenario.py").path

    @Test func everyStateShowsInChromium() throws {
        let directory = try TemporaryDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.driver, FakeStrapBus.binary, directory.url.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("ok   every update from the first shown, in order, across the cut"), "\(text)")
    }
}
