import FoundationEssentials
import Platform
import SinkVocabulary

/// What the user must provide for `--sink apns`, and where the push server is.
public struct APNsSinkSettings: Sendable, Equatable {
    /// Apple's production host; `--apns-server sandbox` picks the development host, a URL any other
    /// (a local push server in tests).
    public static let productionURL = "https://api.push.apple.com"
    public static let sandboxURL = "https://api.sandbox.push.apple.com"
    static let servers = [(name: "production", url: productionURL), (name: "sandbox", url: sandboxURL)]
    /// Where each of Apple's environments manages broadcast channels (Apple, "Sending channel
    /// management requests to APNs"): a host and port of their own.
    /// Keyed by the push host alone: Apple's push hosts answer on 443 and 2197, and a URL may name either.
    static let managementURLs = ["api.push.apple.com": "https://api-manage-broadcast.push.apple.com:2196",
                                 "api.sandbox.push.apple.com": "https://api-manage-broadcast.sandbox.push.apple.com:2195"]

    public var baseURL: String
    /// The app's bundle id; the topic is `<bundle id>.push-type.liveactivity`.
    public var bundleID: String
    /// The activity's push token (hex), for updates and the end.
    public var deviceToken: String?
    /// A push-to-start token (hex): when set, the start is a push-to-start to it.
    public var pushToStartToken: String?
    /// `relevance-score` for every push, when the app shows several activities.
    public var relevanceScore: Double?
    /// The attributes key a push-to-start carries hrbridge's activity id under, as the app's
    /// `ActivityAttributes` declares it; nil leaves the attributes as they are.
    public var activityIDAttribute: String?
    /// Publish every update on a broadcast channel with this message storage policy (nil: none).
    public var broadcast: MessageStoragePolicy?
    /// The alert a push-to-start shows (ActivityKit requires one to start remotely).
    public var startAlertTitle: String
    public var startAlertBody: String

    public init(baseURL: String = productionURL, bundleID: String, deviceToken: String? = nil, pushToStartToken: String? = nil,
                relevanceScore: Double? = nil, activityIDAttribute: String? = defaultActivityIDAttribute,
                broadcast: MessageStoragePolicy? = nil, startAlertTitle: String = "Workout started",
                startAlertBody: String = "Heart rate is live on the Lock Screen") {
        self.baseURL = baseURL
        self.bundleID = bundleID
        self.deviceToken = deviceToken
        self.pushToStartToken = pushToStartToken
        self.relevanceScore = relevanceScore
        self.activityIDAttribute = activityIDAttribute
        self.broadcast = broadcast
        self.startAlertTitle = startAlertTitle
        self.startAlertBody = startAlertBody
    }

    public var topic: String { "\(bundleID).push-type.liveactivity" }

    /// Where channels are created and deleted: Apple's management host for Apple's push hosts; any
    /// other push server (a local one) takes the management requests at its own URL.
    public var managementURL: String {
        Self.managementURLs[Self.host(of: baseURL)] ?? PushBody.base(baseURL)
    }

    /// `https://api.push.apple.com:2197/` → `api.push.apple.com`: no scheme, port or path, lower case.
    static func host(of url: String) -> String {
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...] }
        let authority = rest.prefix { $0 != "/" }
        return String(authority.prefix { $0 != ":" }).lowercased()
    }

    /// The broadcast channels of this app in this environment.
    public var channelApp: ChannelRegistry.App { ChannelRegistry.App(managementURL: managementURL, bundleID: bundleID) }

    /// Braze names its key `brazeActivityId`; ours says whose id it is.
    public static let defaultActivityIDAttribute = "bridgeActivityID"
}
