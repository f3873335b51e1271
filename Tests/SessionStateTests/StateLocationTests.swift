import Testing
@testable import SessionState

/// Where state files live and how they are named.
@Suite struct StateLocationTests {
    @Test(arguments: [
        (["STATE_DIRECTORY": "/var/lib/hrbridge", "XDG_STATE_HOME": "/x", "HOME": "/home/a"], "/var/lib/hrbridge"),
        (["STATE_DIRECTORY": "/var/lib/hrbridge:/var/lib/other"], "/var/lib/hrbridge"),
        (["XDG_STATE_HOME": "/home/a/state", "HOME": "/home/a"], "/home/a/state/hrbridge"),
        (["XDG_STATE_HOME": "relative/ignored", "HOME": "/home/a"], "/home/a/.local/state/hrbridge"),
        (["HOME": "/home/a"], "/home/a/.local/state/hrbridge"),
    ])
    func stateDirectory(environment: [String: String], expected: String) {
        #expect(StateDirectory.path(environment: environment) == expected)
    }

    @Test func keysAreFileNamesAndDistinguishDirectories() {
        #expect(SessionKey.strap("AA:BB:CC:DD:EE:FF") == "strap-AA_BB_CC_DD_EE_FF")
        #expect(SessionKey.strap("Polar H10 1234/x") == "strap-Polar_H10_1234_x")
        #expect(SessionKey.replay(tracePath: "-") == "replay-stdin")
        let one = SessionKey.replay(tracePath: "/a/run.trace")
        #expect(one.hasPrefix("replay-run.trace-") && one.count == "replay-run.trace-".count + 8)
        #expect(one == SessionKey.replay(tracePath: "/a/./run.trace"))
        #expect(one != SessionKey.replay(tracePath: "/b/run.trace"))
        #expect(SessionKey.fnv1a("") == "811c9dc5")
        #expect(SessionKey.fnv1a("a") == "e40c292c")
    }
}
