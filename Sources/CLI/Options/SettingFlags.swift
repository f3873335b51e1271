import Config

/// The flags that set what a configuration file sets, each taken from the one table of setting
/// names (`SettingNames`), which the file's sections read their keys from.
enum SettingFlag {
    static let device = flag(SettingNames.address)
    static let distanceDevice = flag(SettingNames.distanceSensor)
    static let wheelCircumference = flag(SettingNames.wheelCircumference)
    static let heartRateFrom = flag(SettingNames.heartRateFrom)
    static let workoutName = flag(SettingNames.workoutName)
    static let label = flag(SettingNames.intervalLabel)
    static let sink = flag(SettingNames.sinks)
    static let zones = flag(SettingNames.zoneBoundaries)
    static let endAtTimeLimit = flag(SettingNames.continueAfterTimeLimit)
    static let caFile = flag(SettingNames.certificateAuthorityFile)
    static let listen = flag(SettingNames.listenAddress)
    static let listenTokenFile = flag(SettingNames.listenTokenFile)
    static let listenTokenEnvironment = flag(SettingNames.listenTokenEnvironment)
    static let listenCertificate = flag(SettingNames.listenCertificateFile)
    static let listenKey = flag(SettingNames.listenKeyFile)

    /// Only settings the command line gives are asked for here; another's is a bug.
    private static func flag(_ setting: SettingName) -> String {
        guard let flag = setting.flag else { preconditionFailure("\(setting.section.rawValue).\(setting.key) has no flag") }
        return flag
    }
}
