import FoundationEssentials
import SinkVocabulary

/// What `--sink airship` sends with: the API host, the app, who receives it and how the app tracks
/// its activity. The credentials are `AirshipAuthorization`, added at send time.
public struct AirshipSinkSettings: Sendable, Equatable {
    public static let servers = [(name: "us", url: "https://go.urbanairship.com"), (name: "eu", url: "https://go.airship.eu")]

    public enum Audience: Sendable, Equatable {
        /// Every iOS channel of the app (Airship's `"all"`).
        case all
        /// One iOS channel (an install of the app).
        case channel(String)
    }

    public var baseURL: String
    public var appKey: String
    public var audience: Audience
    /// The name the app tracks the activity under (`trackLiveActivity(_:name:)`); nil: the activity id.
    public var activityName: String?
    public var relevanceScore: Double?
    /// The alert a remote start shows (ActivityKit requires one to start an activity remotely).
    public var startAlertTitle: String
    public var startAlertBody: String

    public init(baseURL: String = servers[0].url, appKey: String, audience: Audience, activityName: String? = nil,
                relevanceScore: Double? = nil, startAlertTitle: String = "Workout started",
                startAlertBody: String = "Heart rate is live on the Lock Screen") {
        self.baseURL = baseURL
        self.appKey = appKey
        self.audience = audience
        self.activityName = activityName
        self.relevanceScore = relevanceScore
        self.startAlertTitle = startAlertTitle
        self.startAlertBody = startAlertBody
    }
}

/// How hrbridge proves it may push for the app: the master secret (HTTP Basic with the app key) or a
/// bearer token with `X-UA-Appkey`. Read from a file or the environment when the sink starts.
public enum AirshipAuthorization: Sendable, Equatable {
    case masterSecret(String)
    case bearer(String)

    func headers(appKey: String) -> [HTTPHeader] {
        switch self {
        case let .masterSecret(secret):
            [HTTPHeader("Authorization", "Basic " + Data("\(appKey):\(secret)".utf8).base64EncodedString())]
        case let .bearer(token):
            [HTTPHeader("Authorization", "Bearer \(token)"), HTTPHeader("X-UA-Appkey", appKey)]
        }
    }
}
