import Testing
import TestSupport
@testable import Config
import Forwarding

@Suite struct ConfigurationFileTests {
    @Test func explicitPathWinsEvenWhenMissing() throws {
        #expect(try ConfigurationFile.locate(explicit: "/x/c.json", environment: [:], exists: { _ in true }) == "/x/c.json")
    }

    @Test(arguments: [
        (["HOME": "/home/ana"], ["/etc/hrbridge/config.json", "/home/ana/.config/hrbridge/config.json"],
         "/etc/hrbridge/config.json"),
        (["HOME": "/home/ana"], ["/home/ana/.config/hrbridge/config.json"], "/home/ana/.config/hrbridge/config.json"),
        (["HOME": "/home/ana", "XDG_CONFIG_HOME": "/cfg"], ["/cfg/hrbridge/config.json"], "/cfg/hrbridge/config.json"),
        // Absolute, though a combining mark after the "/" makes "/\u{301}" one Character.
        (["HOME": "/home/ana", "XDG_CONFIG_HOME": "/\u{301}cfg"], ["/\u{301}cfg/hrbridge/config.json"], "/\u{301}cfg/hrbridge/config.json"),
    ])
    func searchOrder(environment: [String: String], existing: [String], expected: String) throws {
        #expect(try ConfigurationFile.locate(explicit: nil, environment: environment, exists: existing.contains) == expected)
    }

    @Test func nothingFoundNamesEveryPlaceSearched() {
        #expect(throws: ConfigError.notFound(searched: ["/etc/hrbridge/config.json", "/home/ana/.config/hrbridge/config.json"])) {
            try ConfigurationFile.locate(explicit: nil, environment: ["HOME": "/home/ana"], exists: { _ in false })
        }
    }

    @Test func unreadableFilesSayWhy() throws {
        #expect(throws: ConfigError.unreadable(file: "/nonexistent/c.json", reason: "No such file or directory")) {
            try ConfigurationFile.load(path: "/nonexistent/c.json", kinds: SinkKinds.catalog)
        }
        let directory = try TemporaryDirectory()
        #expect(throws: ConfigError.unreadable(file: directory.url.path, reason: "Is a directory")) {
            try ConfigurationFile.load(path: directory.url.path, kinds: SinkKinds.catalog)
        }
        #expect(throws: ConfigError.unreadable(file: "/dev/zero", reason: "larger than 1024 KiB; not a configuration file")) {
            try ConfigurationFile.load(path: "/dev/zero", kinds: SinkKinds.catalog)
        }
    }
}
