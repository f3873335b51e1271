import Config
import Forwarding
import LiveState
import Testing
@testable import CLI

/// One table names a setting for the configuration file and for the command line (`SettingNames`,
/// with the cadence's parameters and the sink kinds' options beside it): every flag of `run` has
/// its key there or configures the run itself, every key has its flag or is the file's alone, and
/// a setting given by flag reads as the same setting given by key.
@Suite struct SettingFlagsTests {
    /// `run`'s flags that configure the run, not what it runs: the file holds none of them.
    static let runOwnFlags: Set = ["--config", "--record", "--control-bus", "--no-status", "--state-dir", "--spool", "--sink-grace", "--sink-status"]

    @Test func everyFlagOfRunHasItsKeyOrConfiguresTheRunItself() {
        let withKeys = Set(RunCommand.perStrapFlags + ListenOptions.flags)
        let flags = Set(RunCommand.spec.options.map(\.name))
        #expect(flags.subtracting(withKeys).subtracting(Self.runOwnFlags).isEmpty, "flags with no key: \(flags.subtracting(withKeys).subtracting(Self.runOwnFlags).sorted())")
        #expect(withKeys.subtracting(flags).isEmpty, "keys whose flag run lacks: \(withKeys.subtracting(flags).sorted())")
        #expect(withKeys.isDisjoint(with: Self.runOwnFlags))
    }

    @Test func theKeysWithoutAFlagAreTheFilesAlone() {
        let fileOnly = SettingNames.all.filter { $0.flag == nil }.map { "\($0.section.rawValue).\($0.key)" }
        #expect(fileOnly == ["straps[].activityIDPrefix", "straps[].cadence", "http.connectTimeout", "http.requestTimeout"])
    }

    @Test func aSettingGivenByFlagReadsAsGivenByKey() throws {
        let arguments = try ParsedArguments([
            SettingFlag.device, "C8:5F:33:12:34:56", SettingFlag.distanceDevice, "Stryd", SettingFlag.heartRateFrom, "machine",
            SettingFlag.wheelCircumference, "2.1", SettingFlag.workoutName, "Run", SettingFlag.label, "Warm-up",
            SettingFlag.zones, "114,133", SettingFlag.endAtTimeLimit, SettingFlag.caFile, "/etc/ca.pem", "--threshold", "7",
        ], spec: RunCommand.spec)
        let flagged = try ConfigurationFlags.configuration(arguments, straps: DeviceOptions.selectors(arguments, spec: RunCommand.spec),
                                                           spec: RunCommand.spec)
        let names = SettingNames.self
        let text = """
        {"\(names.certificateAuthorityFile.section.rawValue)": {"\(names.certificateAuthorityFile.key)": "/etc/ca.pem"},
         "straps": [{"\(names.address.key)": "C8:5F:33:12:34:56", "\(names.distanceSensor.key)": {"\(names.name.key)": "Stryd"},
                     "\(names.heartRateFrom.key)": "machine", "\(names.wheelCircumference.key)": 2.1, "\(names.workoutName.key)": "Run",
                     "\(names.intervalLabel.key)": "Warm-up", "\(names.sinks.key)": [{"type": "stdout"}],
                     "\(names.strapCadence.key)": {"\(names.zoneBoundaries.key)": [114, 133], "\(names.continueAfterTimeLimit.key)": false,
                                  "changeThreshold": 7}}]}
        """
        let configured = try ConfigurationReader.read(Array(text.utf8), file: "test.json", kinds: SinkKinds.catalog)
        #expect(flagged == configured)
    }
}
