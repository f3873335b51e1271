/// A setting as the configuration file and the command line name it: its key (in `section`) and
/// its flag. The file's sections take their keys from here and the command line its flags, so one
/// setting cannot be named two ways. nil `flag`: only the file says it.
public struct SettingName: Sendable, Hashable {
    public enum Section: String, Sendable, CaseIterable {
        case strap = "straps[]"
        case cadence = "cadence"
        case http = "http"
        case listen = "listen"
    }

    public let section: Section
    public let key: String
    public let flag: String?

    init(_ section: Section, _ key: String, flag: String?) {
        self.section = section
        self.key = key
        self.flag = flag
    }
}

/// Every setting with a fixed name, in the order the file's sections list their keys. Two tables
/// of their own name their flag and key the same way: the cadence's numbers (`CadencePolicy.parameters`)
/// and a sink's options (its kind's `SinkDescription`).
public enum SettingNames {
    public static let address = SettingName(.strap, "address", flag: "--device")
    public static let name = SettingName(.strap, "name", flag: "--device")
    public static let distanceSensor = SettingName(.strap, "distanceSensor", flag: "--distance-device")
    public static let wheelCircumference = SettingName(.strap, "wheelCircumference", flag: "--wheel-circumference")
    public static let heartRateFrom = SettingName(.strap, "heartRateFrom", flag: "--heart-rate-from")
    public static let workoutName = SettingName(.strap, "workoutName", flag: "--workout-name")
    public static let intervalLabel = SettingName(.strap, "intervalLabel", flag: "--label")
    /// Only the file: the flags' straps share one set of settings, and their ids differ without it.
    public static let activityIDPrefix = SettingName(.strap, "activityIDPrefix", flag: nil)
    /// A strap's own cadence over the file's: the flags' cadence is every strap's (the `cadence` keys).
    public static let strapCadence = SettingName(.strap, "cadence", flag: nil)
    public static let sinks = SettingName(.strap, "sinks", flag: "--sink")

    public static let zoneBoundaries = SettingName(.cadence, "zoneBoundaries", flag: "--zones")
    /// The flag turns it off (the default is on): `--end-at-time-limit` is `false` here.
    public static let continueAfterTimeLimit = SettingName(.cadence, "continueAfterTimeLimit", flag: "--end-at-time-limit")

    public static let certificateAuthorityFile = SettingName(.http, "certificateAuthorityFile", flag: "--ca-file")
    /// Only the file: the defaults suit every server met so far; a deployment that needs others has a file.
    public static let connectTimeout = SettingName(.http, "connectTimeout", flag: nil)
    public static let requestTimeout = SettingName(.http, "requestTimeout", flag: nil)

    public static let listenAddress = SettingName(.listen, "address", flag: "--listen")
    public static let listenTokenFile = SettingName(.listen, "tokenFile", flag: "--listen-token-file")
    public static let listenTokenEnvironment = SettingName(.listen, "tokenEnvironment", flag: "--listen-token-env")
    public static let listenCertificateFile = SettingName(.listen, "certificateFile", flag: "--listen-tls-cert")
    public static let listenKeyFile = SettingName(.listen, "keyFile", flag: "--listen-tls-key")

    public static let all: [SettingName] = [
        address, name, distanceSensor, wheelCircumference, heartRateFrom, workoutName, intervalLabel, activityIDPrefix, strapCadence, sinks,
        zoneBoundaries, continueAfterTimeLimit,
        certificateAuthorityFile, connectTimeout, requestTimeout,
        listenAddress, listenTokenFile, listenTokenEnvironment, listenCertificateFile, listenKeyFile,
    ]

    /// The keys of `section`'s object, in table order (what the file's reader allows there).
    static func keys(of section: SettingName.Section) -> [String] {
        all.filter { $0.section == section }.map(\.key)
    }

    /// The flags that set something the file sets per strap (its straps, their cadence and sinks, `http`).
    public static var strapFlags: [String] {
        var seen: Set<String> = []
        return all.filter { $0.section != .listen }.compactMap(\.flag).filter { seen.insert($0).inserted }
    }
}
