import BusTestSupport
import Foundation
import Testing
import TestSupport

/// The status block in a real terminal: tmux runs a paced replay (stdout on the same terminal) and
/// `ctl status --watch`; `capture-pane` shows what a person would see.
@Suite(.serialized, .timeLimit(.minutes(2))) struct TerminalStatusTests {
    /// The block's line for the replay's strap: its name, a rate, a link state.
    static func isStatusLine(_ line: String) -> Bool {
        line.hasPrefix("replay ") && line.contains(" bpm  ")
    }

    /// The bundled trace has a foot pod: the block is the strap's line, then the pod's.
    static func endsWithTheBlock(_ lines: [String]) -> Bool {
        lines.count >= 2 && isStatusLine(lines[lines.count - 2]) && lines[lines.count - 1].hasPrefix("  distance sensor")
    }

    @Test func theBlockStaysAtTheBottomWithUpdatesAboveItAndFollowsAResize() async throws {
        let bus = try PrivateBus()
        let directory = try TemporaryDirectory()
        let tmux = try Tmux(width: 100, height: 14, command: [
            FakeStrapBus.binary, "replay", "--speed", "30", "--state-dir", directory.path("state"),
        ], environment: Tmux.environment(["DBUS_SESSION_BUS_ADDRESS"], from: bus.environment))

        let screen = try await tmux.waitFor("the block below an update") { lines in
            Self.endsWithTheBlock(lines) && lines.contains { $0.hasPrefix("{\"event\":\"update\"") }
        }
        // Every other line is a whole update (joined across its wraps) or a whole log line: nothing
        // was written into the middle of another line.
        for line in screen.dropLast(2) where !line.isEmpty {
            let isUpdate = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil
            #expect(isUpdate || line.hasPrefix("hrbridge: "), "a torn line: \(line)\n\(screen.joined(separator: "\n"))")
        }
        let strapLine = screen[screen.count - 2]
        #expect(strapLine.range(of: #"^replay +\d+ bpm  live  [\d.]+ k?m  #\d+ \w+ \d+s ago  next in 0:\d\d$"#, options: .regularExpression) != nil,
                "\(strapLine)")

        // The watch in a second window draws the same block for the same run.
        try tmux.newWindow(command: [FakeStrapBus.binary, "ctl", "status", "--watch"],
                           environment: Tmux.environment(["DBUS_SESSION_BUS_ADDRESS"], from: bus.environment))
        let watched = try await tmux.waitFor("ctl status --watch's line") { lines in lines.contains(where: Self.isStatusLine) }
        #expect(watched.filter(Self.isStatusLine).count == 1, "\(watched)")
        try tmux.selectWindow(0)

        try tmux.resize(width: 40)
        let narrow = try await tmux.waitFor("the block cut to 40 columns") { lines in
            Self.endsWithTheBlock(lines) && lines[lines.count - 2].count <= 39 && lines[lines.count - 2].hasSuffix("…")
        }
        #expect(narrow.suffix(2).allSatisfy { $0.count <= 39 }, "\(narrow.suffix(2))")
        bus.stop()
    }

    @Test func noStatusLeavesTheTerminalToTheUpdates() async throws {
        let directory = try TemporaryDirectory()
        let tmux = try Tmux(width: 100, height: 10, command: [
            FakeStrapBus.binary, "replay", "--speed", "30", "--no-status", "--control-bus", "none", "--state-dir", directory.path("state"),
        ], environment: [:])
        let screen = try await tmux.waitFor("two updates") { lines in lines.filter { $0.hasPrefix("{\"event\"") }.count >= 2 }
        #expect(!screen.contains(where: Self.isStatusLine), "\(screen)")
    }

    @Test func aFileForStderrGetsNoEscapes() throws {
        let directory = try TemporaryDirectory()
        let finished = try FinishedBridge(["replay", "--speed", "3000", "--control-bus", "none", "--state-dir", directory.path("state"),
                                           "--sink", "file:" + directory.path("a.ndjson"), "--sink", "file:" + directory.path("b.ndjson")])
        #expect(finished.status == 0, "\(finished.log)")
        #expect(!finished.log.contains("\u{1B}"), "\(finished.log)")
        #expect(finished.log.contains("done: sent"), "\(finished.log)")
    }
}

/// A detached tmux server of the test's own (its own socket): a terminal of a chosen size whose
/// screen can be read back. Killed with everything in it when the test ends.
final class Tmux {
    private let socket = "hrbridge-test-\(getpid())-\(UUID().uuidString.prefix(8))"

    init(width: Int, height: Int, command: [String], environment: [String: String]) throws {
        try tmux(["new-session", "-d", "-x", "\(width)", "-y", "\(height)", Self.shell(command, environment)])
    }

    /// The command, then a long sleep: the pane stays to be read after the command exits.
    private static func shell(_ command: [String], _ environment: [String: String]) -> String {
        let quoted = (["env"] + environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + command)
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return quoted.joined(separator: " ") + "; sleep 600"
    }

    func newWindow(command: [String], environment: [String: String]) throws {
        try tmux(["new-window", Self.shell(command, environment)])
    }

    /// Only the variables a command needs, beside the terminal's own.
    static func environment(_ names: [String], from all: [String: String]) -> [String: String] {
        all.filter { names.contains($0.key) }
    }

    func selectWindow(_ index: Int) throws { try tmux(["select-window", "-t", ":\(index)"]) }

    func resize(width: Int) throws { try tmux(["resize-window", "-x", "\(width)"]) }

    /// The visible screen of the current window, wrapped lines joined, trailing blank lines left out.
    func screen() throws -> [String] {
        var lines = try tmux(["capture-pane", "-p", "-J"]).components(separatedBy: "\n")
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        return lines.map { $0.replacingOccurrences(of: #"\s+$"#, with: "", options: .regularExpression) }
    }

    /// Reads the screen until `done` holds; the last screen goes into the error otherwise.
    func waitFor(_ what: String, within seconds: Double = 20, _ done: ([String]) -> Bool) async throws -> [String] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        var lines: [String] = []
        while ContinuousClock.now < deadline {
            lines = try screen()
            if done(lines) { return lines }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestSupportError("\(what) within \(seconds) s; the screen:\n\(lines.joined(separator: "\n"))")
    }

    /// Runs tmux with its output into a file, waited for with waitpid: the server it forks keeps
    /// the client's descriptors, so a pipe would never reach its end (nor Foundation's `Process`
    /// see the client exit).
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The test runner's threads block SIGHUP and SIGTERM; a tmux server inheriting that would
        // pass the mask to its panes, and kill-server's SIGHUP would leave them (and it) running.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = (["/usr/bin/tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, argv, environ) == 0 else { throw TestSupportError("cannot start tmux") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard status == 0 else { throw TestSupportError("tmux \(arguments.first ?? ""): status \(status): \(text)") }
        return text
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(atPath: "/tmp/tmux-\(getuid())/\(socket)")
    }
}
