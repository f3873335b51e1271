import Testing
@testable import Config
import Forwarding

/// One row per kind of mistake: the file, and every message it must produce (path and expectation).
@Suite struct ConfigErrorTests {
    /// A valid strap to build broken files around.
    static let strap = #"{"address": "C8:5F:33:12:34:56", "workoutName": "Run", "sinks": [{"type": "stdout"}]}"#
    static let apns = #""apns": {"keyFile": "/etc/hrbridge/key.p8", "keyID": "ABC123DEFG", "teamID": "DEF123GHIJ", "bundleID": "com.example.Workout"}"#

    /// The top-level keys and sink types as the sink kinds make them (a new kind adds its own).
    static let topLevelKeys = ConfigurationReader.keys(SinkKinds.catalog).joined(separator: ", ")
    static let sinkTypes = SinkKinds.all.map(\.name).joined(separator: ", ")

    static func withStrap(_ members: String) -> String {
        #"{"straps": [{"address": "C8:5F:33:12:34:56", "workoutName": "Run", "#
            + members + "}]}"
    }

    static func withSink(_ sink: String, extra: String = "") -> String {
        #"{"straps": [{"address": "C8:5F:33:12:34:56", "workoutName": "Run", "sinks": ["# + sink + "]}]" + extra + "}"
    }

    static func withCadence(_ cadence: String) -> String {
        #"{"straps": [\#(strap)], "cadence": {"# + cadence + "}}"
    }

    static let cases: [(String, String, [String])] = [
        // Shape of the file
        ("top level not an object", "[]", ["(top level): expected an object, got an array"]),
        ("no straps", "{}", [#"(top level): missing key "straps" (a list of straps and their activities)"#]),
        ("unknown top-level key, typo", #"{"straps": [\#(strap)], "cadense": {}}"#,
         [#"cadense: unknown key (did you mean "cadence"? expected one of: \#(topLevelKeys))"#]),
        ("unknown keys that only look alike", #"{"straps": [\#(strap)], "\#u{E9}": 1, "e\u0301": 2}"#, [
            "\u{E9}: unknown key (expected one of: \(topLevelKeys))",
            "e\u{301}: unknown key (expected one of: \(topLevelKeys))",
        ]),
        ("unknown keys with a combining mark at an edge", #"{"straps": [\#(strap)], "\u0301http": {}, "cadence\u0301": {}}"#, [
            "\u{301}http: unknown key (did you mean \"http\"? expected one of: \(topLevelKeys))",
            "cadence\u{301}: unknown key (did you mean \"cadence\"? expected one of: \(topLevelKeys))",
        ]),
        ("unknown top-level key", #"{"straps": [\#(strap)], "colour": "red"}"#,
         ["colour: unknown key (expected one of: \(topLevelKeys))"]),
        ("straps not a list", #"{"straps": {}}"#, ["straps: expected an array, got an object"]),
        ("no strap in the list", #"{"straps": []}"#, ["straps: expected at least one strap"]),
        ("strap not an object", #"{"straps": ["H10"]}"#, [#"straps[0]: expected an object, got a string ("H10")"#]),
        // Straps
        ("neither address nor name", #"{"straps": [{"workoutName": "Run", "sinks": [{"type": "stdout"}]}]}"#,
         [#"straps[0]: missing key "address" (AA:BB:CC:DD:EE:FF) or "name" (as the strap advertises it)"#]),
        ("address and name", withStrap(#""name": "H10", "sinks": [{"type": "stdout"}]"#),
         [#"straps[0]: expected "address" or "name", not both (the address is exact; use it alone)"#]),
        ("short address", #"{"straps": [{"address": "C8:5F:33", "workoutName": "Run", "sinks": [{"type": "stdout"}]}]}"#,
         [#"straps[0].address: expected a Bluetooth address like C8:5F:33:12:34:56, got "C8:5F:33""#]),
        ("signed hex in address", #"{"straps": [{"address": "+8:5F:33:12:34:56", "workoutName": "Run", "sinks": [{"type": "stdout"}]}]}"#,
         [#"straps[0].address: expected a Bluetooth address like C8:5F:33:12:34:56, got "+8:5F:33:12:34:56""#]),
        ("fullwidth hex in address", #"{"straps": [{"address": "C8:5F:33:12:34:\#u{FF21}\#u{FF22}", "workoutName": "Run", "sinks": [{"type": "stdout"}]}]}"#,
         ["straps[0].address: expected a Bluetooth address like C8:5F:33:12:34:56, got \"C8:5F:33:12:34:\u{FF21}\u{FF22}\""]),
        ("combining mark after an address's colon", #"{"straps": [{"address": "C8:5F:33:12:34:\u030156", "workoutName": "Run", "sinks": [{"type": "stdout"}]}]}"#,
         ["straps[0].address: expected a Bluetooth address like C8:5F:33:12:34:56, got \"C8:5F:33:12:34:\u{301}56\""]),
        ("blank name", #"{"straps": [{"name": " ", "workoutName": "Run", "sinks": [{"type": "stdout"}]}]}"#,
         ["straps[0].name: expected a non-empty string"]),
        ("no workout name", #"{"straps": [{"name": "H10", "sinks": [{"type": "stdout"}]}]}"#,
         [#"straps[0]: missing key "workoutName" (the workout's name shown on the Lock Screen)"#]),
        ("workout name a number", #"{"straps": [{"name": "H10", "workoutName": 42, "sinks": [{"type": "stdout"}]}]}"#,
         ["straps[0].workoutName: expected a string, got a number (42)"]),
        ("label not a string", withStrap(#""intervalLabel": null, "sinks": [{"type": "stdout"}]"#),
         ["straps[0].intervalLabel: expected a string, got null"]),
        ("activity id prefix with a slash", withStrap(#""activityIDPrefix": "a/b", "sinks": [{"type": "stdout"}]"#),
         [#"straps[0].activityIDPrefix: expected 1 to 32 letters, digits or '-', got "a/b""#]),
        ("names too long for ActivityKit", #"{"straps": [{"name": "H10", "workoutName": "\#(String(repeating: "x", count: 4000))", "#
            + #""intervalLabel": "\#(String(repeating: "y", count: 100))", "sinks": [{"type": "stdout"}]}]}"#,
         ["straps[0]: workoutName and intervalLabel are too long for a Live Activity: attributes + content state are 4252 bytes, "
            + "over ActivityKit's 4096-byte limit: shorten the workout name or interval label"]),
        ("same strap twice, other case",
         #"{"straps": [\#(strap), {"address": "c8:5f:33:12:34:56", "workoutName": "Row", "sinks": [{"type": "stdout"}]}]}"#,
         ["straps[1]: address C8:5F:33:12:34:56 is already used by straps[0]; one sensor feeds one activity"]),
        ("unknown strap key", withStrap(#""sink": [], "sinks": [{"type": "stdout"}]"#),
         [#"straps[0].sink: unknown key (did you mean "sinks"? expected one of: address, name, distanceSensor, wheelCircumference, heartRateFrom, workoutName, intervalLabel, activityIDPrefix, cadence, sinks)"#]),
        // The distance sensor beside a strap
        ("distance sensor is the strap", withStrap(#""distanceSensor": {"address": "c8:5f:33:12:34:56"}, "sinks": [{"type": "stdout"}]"#),
         ["straps[0].distanceSensor: the distance sensor cannot be the strap itself"]),
        ("distance sensor without a selector", withStrap(#""distanceSensor": {}, "sinks": [{"type": "stdout"}]"#),
         [#"straps[0].distanceSensor: missing key "address" (AA:BB:CC:DD:EE:FF) or "name" (as the strap advertises it)"#]),
        ("distance sensor with a bad address", withStrap(#""distanceSensor": {"address": "C8:5F"}, "sinks": [{"type": "stdout"}]"#),
         [#"straps[0].distanceSensor.address: expected a Bluetooth address like C8:5F:33:12:34:56, got "C8:5F""#]),
        ("one pod for two straps",
         #"{"straps": [{"name": "A", "distanceSensor": {"name": "Pod"}, "workoutName": "Run", "sinks": [{"type": "stdout"}]}, {"name": "B", "distanceSensor": {"name": "Pod"}, "workoutName": "Row", "sinks": [{"type": "stdout"}]}]}"#,
         [#"straps[1]: name "Pod" is already used by straps[0]; one sensor feeds one activity"#]),
        ("wheel in millimetres", withStrap(#""wheelCircumference": 2096, "sinks": [{"type": "stdout"}]"#),
         ["straps[0].wheelCircumference: expected metres between 0.5 and 4, got 2096"]),
        ("heart rate from nowhere", withStrap(#""heartRateFrom": "grips", "sinks": [{"type": "stdout"}]"#),
         [#"straps[0].heartRateFrom: expected one of strap, machine, got "grips""#]),
        ("heart rate from no machine", withStrap(#""heartRateFrom": "machine", "sinks": [{"type": "stdout"}]"#),
         [#"straps[0].heartRateFrom: "machine" takes the heart rate from the distanceSensor; none is given"#]),
        // Sinks
        ("no sinks", withStrap(#""intervalLabel": "x""#), [#"straps[0]: missing key "sinks" (where this strap's updates go)"#]),
        ("empty sinks", withStrap(#""sinks": []"#), ["straps[0].sinks: expected at least one sink"]),
        ("sink as a string", withSink(#""stdout""#),
         [#"straps[0].sinks[0]: expected an object with a "type" (\#(sinkTypes)), got a string ("stdout")"#]),
        ("sink without type", withSink(#"{"url": "https://x.example"}"#),
         [#"straps[0].sinks[0]: missing key "type" (one of \#(sinkTypes))"#]),
        ("unknown sink type", withSink(#"{"type": "kafka"}"#),
         [#"straps[0].sinks[0].type: expected one of \#(sinkTypes), got "kafka""#]),
        ("stdout with a path", withSink(#"{"type": "stdout", "path": "/tmp/x"}"#),
         ["straps[0].sinks[0].path: unknown key (expected one of: type)"]),
        ("file sink, relative path", withSink(#"{"type": "file", "path": "out.ndjson"}"#),
         [#"straps[0].sinks[0].path: expected an absolute path, got "out.ndjson""#]),
        ("file sink without path", withSink(#"{"type": "file"}"#),
         [#"straps[0].sinks[0]: missing key "path" (the file to append NDJSON lines to)"#]),
        ("lifecycle over ftp", withSink(#"{"type": "lifecycle", "url": "ftp://x"}"#),
         [#"straps[0].sinks[0].url: expected an https or http URL, got "ftp://x""#]),
        ("lifecycle URL without host", withSink(#"{"type": "lifecycle", "url": "https://"}"#),
         [#"straps[0].sinks[0].url: expected an https or http URL, got "https://""#]),
        ("lifecycle URL with a password", withSink(#"{"type": "lifecycle", "url": "https://me:secret@x.example"}"#),
         ["straps[0].sinks[0].url: expected a URL without user:password (put the token in a file)"]),
        ("relative token file", withSink(#"{"type": "lifecycle", "url": "https://x.example", "tokenFile": "token"}"#),
         [#"straps[0].sinks[0].tokenFile: expected an absolute path or credential:NAME, got "token""#]),
        ("credential outside its directory", withSink(#"{"type": "lifecycle", "url": "https://x.example", "tokenFile": "credential:../shadow"}"#),
         [#"straps[0].sinks[0].tokenFile: expected credential:NAME with a file name, got "credential:../shadow""#]),
        ("credential outside its directory, the slash hidden by a combining mark",
         withSink(#"{"type": "lifecycle", "url": "https://x.example", "tokenFile": "credential:../\u0301x"}"#),
         ["straps[0].sinks[0].tokenFile: expected credential:NAME with a file name, got \"credential:../\u{301}x\""]),
        ("token from file and environment",
         withSink(#"{"type": "lifecycle", "url": "https://x.example", "tokenFile": "/t", "tokenEnvironment": "TOKEN"}"#),
         ["straps[0].sinks[0]: expected tokenFile or tokenEnvironment, not both"]),
        ("token inline", withSink(#"{"type": "lifecycle", "url": "https://x.example", "token": "abc"}"#),
         ["straps[0].sinks[0].token: unknown key (expected one of: type, url, tokenFile, tokenEnvironment)"]),
        ("same sink twice", withSink(#"{"type": "stdout"}, {"type": "stdout"}"#),
         ["straps[0].sinks[1]: the same sink is listed twice"]),
        // APNs team settings
        ("apns sink, no apns settings", withSink(#"{"type": "apns", "deviceTokenFile": "/t"}"#),
         [#"(top level): missing key "apns" (keyFile, keyID, teamID, bundleID), needed by the apns sinks"#]),
        ("apns settings incomplete", #"{"straps": [\#(strap)], "apns": {"keyID": "abc"}}"#, [
            #"apns: missing key "keyFile" (the team's .p8 signing key)"#,
            #"apns.keyID: expected 10 characters A-Z and 0-9 (as the developer account shows it), got "abc""#,
            #"apns: missing key "teamID" (the 10-character team id)"#,
            #"apns: missing key "bundleID" (the app's bundle id)"#,
        ]),
        ("apns bundle id and server",
         #"{"straps": [\#(strap)], "apns": {"keyFile": "/k", "keyID": "ABC123DEFG", "teamID": "DEF123GHIJ", "bundleID": "Workout", "server": "ftp://push"}}"#, [
            #"apns.bundleID: expected a bundle id such as com.example.Workout, got "Workout""#,
            #"apns.server: expected production, sandbox or an https URL, got "ftp://push""#,
        ]),
        ("apns broadcast: a storage policy APNs does not have, a number for the object, a key it does not have",
         withSink(#"{"type": "apns", "broadcast": {"storagePolicy": 2}}, {"type": "apns", "broadcast": 1, "deviceTokenFile": "/t"}, "#
                  + #"{"type": "apns", "broadcast": {"storagePolicy": 1, "stored": true}}"#, extra: ", " + apns), [
            "straps[0].sinks[0].broadcast.storagePolicy: expected 0 (no message stored: only phones reachable then get an update) or "
                + "1 (the most recent message stored: a phone that joins late gets the latest state), got a number (2)",
            #"straps[0].sinks[1].broadcast: expected an object {"storagePolicy": 0 or 1}, got a number (1)"#,
            #"straps[0].sinks[2].broadcast.stored: unknown key (expected one of: storagePolicy)"#,
        ]),
        // Cadence
        ("negative seconds", withCadence(#""staleWindow": -1"#), ["cadence.staleWindow: expected seconds >= 0, got -1"]),
        ("seconds as text", withCadence(#""refreshLead": "20s""#),
         [#"cadence.refreshLead: expected a number of seconds, got a string ("20s")"#]),
        ("fractional bpm", withCadence(#""changeThreshold": 4.5"#), ["cadence.changeThreshold: expected a whole number of bpm, got 4.5"]),
        ("bpm out of range", withCadence(#""zoneBoundaries": [120, 1400]"#),
         ["cadence.zoneBoundaries[1]: expected bpm from 1 to 300, got 1400"]),
        ("zones out of order", withCadence(#""zoneBoundaries": [150, 120]"#),
         ["cadence.zoneBoundaries: expected zone lower bounds in rising order, got [150, 120]"]),
        ("flag as a number", withCadence(#""continueAfterTimeLimit": 1"#),
         ["cadence.continueAfterTimeLimit: expected true or false, got a number (1)"]),
        ("cadence typo", withCadence(#""staleWindw": 90"#),
         [#"cadence.staleWindw: unknown key (did you mean "staleWindow"? expected one of: \#(CadenceSection.keys.joined(separator: ", ")))"#]),
        ("strap cadence checked too", withStrap(#""cadence": {"smoothingWindow": true}, "sinks": [{"type": "stdout"}]"#),
         ["straps[0].cadence.smoothingWindow: expected a number of seconds, got a boolean (true)"]),
        // Cadence, checked by the engine's own CadencePolicy.validated() across keys
        ("refresh after stale, in the file", withCadence(#""staleWindow": 60, "refreshLead": 60"#),
         ["cadence.refreshLead: expected seconds >= 0 and below staleWindow, at most 2592000, got 60.0"]),
        ("strap shortens the stale window under the default refresh lead",
         withStrap(#""cadence": {"staleWindow": 15}, "sinks": [{"type": "stdout"}]"#),
         ["straps[0].cadence.refreshLead: expected seconds >= 0 and below staleWindow, at most 2592000, got 20.0"]),
        ("file's cadence broken for every strap: said once",
         #"{"straps": [\#(strap), {"name": "B", "workoutName": "Row", "sinks": [{"type": "stdout"}]}], "cadence": {"smoothingWindow": 0}}"#,
         ["cadence.smoothingWindow: expected seconds > 0, at most 2592000, got 0.0"]),
        ("longer than the engine allows", withCadence(#""giveUpInterval": 1e9"#),
         ["cadence.giveUpInterval: expected seconds > 0, at most 2592000, got 1000000000.0"]),
        ("activity time limit past what microseconds hold", withCadence(#""activityTimeLimit": 1e16"#),
         ["cadence.activityTimeLimit: expected seconds > 0, at most 2592000, got 1e+16"]),
        // HTTP
        ("http timeouts and CA", #"{"straps": [\#(strap)], "http": {"connectTimeout": 0, "certificateAuthorityFile": "ca.pem"}}"#, [
            #"http.certificateAuthorityFile: expected an absolute path, got "ca.pem""#,
            "http.connectTimeout: expected seconds > 0, got 0",
        ]),
        ("http timeouts past what curl's milliseconds take",
         #"{"straps": [\#(strap)], "http": {"connectTimeout": 1e16, "requestTimeout": 0.0001}}"#, [
            "http.connectTimeout: expected seconds between 0.001 and 600, got 1e+16",
            "http.requestTimeout: expected seconds between 0.001 and 600, got 0.0001",
        ]),
    ]

    @Test(arguments: cases)
    func everyIssueNamesItsPathAndExpectation(name: String, json: String, expected: [String]) {
        do {
            _ = try ConfigurationReader.read(Array(json.utf8), file: "config.json", kinds: SinkKinds.catalog)
            Issue.record("\(name): accepted")
        } catch let .invalid(file, issues) {
            #expect(file == "config.json")
            #expect(issues.map(\.description) == expected, "\(name)")
        } catch {
            Issue.record("\(name): \(error)")
        }
    }

    /// The largest file allowed, all wrong-typed straps: one issue each, in file order.
    @Test func aFullSizeFileOfWrongItemsListsEachOnce() throws {
        let count = (ConfigurationFile.maximumSize - #"{"straps":[]}"#.utf8.count + 1) / 2
        let json = #"{"straps":["# + Array(repeating: "1", count: count).joined(separator: ",") + "]}"
        #expect(json.utf8.count == ConfigurationFile.maximumSize)
        do {
            _ = try ConfigurationReader.read(Array(json.utf8), file: "c.json", kinds: SinkKinds.catalog)
            Issue.record("accepted")
        } catch let .invalid(_, issues) {
            #expect(issues.count == count)
            #expect(issues.last?.description == "straps[\(count - 1)]: expected an object, got a number (1)")
        } catch {
            Issue.record("\(error)")
        }
    }

    /// What keeps that file's check linear (searching the list for each new issue took minutes): the log
    /// finds an issue already reported in a hash set, which holds each reported issue once.
    @Test func issuesAreDeduplicatedThroughAHashSet() {
        let log = IssueLog()
        let cadence = ConfigPath.root.appending("cadence").appending("staleWindow")
        log.report(cadence, "expected seconds > 0")
        log.report(ConfigPath.root.appending("straps").appending(0), "expected an object")
        log.report(cadence, "expected seconds > 0")
        #expect(log.issues.map(\.description) == ["cadence.staleWindow: expected seconds > 0", "straps[0]: expected an object"])
        #expect(log.reported.count == log.issues.count)
    }

    @Test func messagesStartWithTheFile() {
        let error = ConfigError.invalid(file: "/etc/hrbridge/config.json", [
            ConfigIssue(path: ConfigPath.root.appending("straps").appending(1).appending("sinks").appending(0).appending("url"),
                        message: #"expected an https or http URL, got "ftp://x""#),
        ])
        #expect(error.description == #"/etc/hrbridge/config.json: straps[1].sinks[0].url: expected an https or http URL, got "ftp://x""#)
    }

    @Test func syntaxErrorsCarryFileLineAndColumn() {
        #expect(throws: ConfigError.syntax(file: "c.json", JSONSyntaxError(line: 2, column: 11, reason: "trailing comma before '}'"))) {
            try ConfigurationReader.read(Array("{\"straps\": [\n  {\"a\": 1,}\n]}".utf8), file: "c.json", kinds: SinkKinds.catalog)
        }
        #expect(ConfigError.syntax(file: "c.json", JSONSyntaxError(line: 2, column: 11, reason: "r")).description == "c.json:2:11: r")
    }
}
