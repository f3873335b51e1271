import SinkVocabulary
/// Where one strap's updates go on the broker (docs/fleet.md), under a prefix that defaults to
/// `hrbridge/<gateway>`: `<prefix>/<strap>/state` (retained latest update), `<prefix>/<strap>/updates`
/// (every update), `<prefix>/<strap>/control` (commands), `…/push-token` and `…/push-to-start-token`
/// (the app's tokens; these three when enabled), `<prefix>/<strap>/channel` (retained: the broadcast
/// channel phones join, when an APNs sink publishes on one) and `<prefix>/status` (`online`, or
/// `offline` as the last will).
public struct MQTTTopics: Sendable, Equatable {
    public var prefix: String
    /// The strap's topic level: its name or address made safe for a topic and for Home Assistant ids.
    public var strap: String

    public init(prefix: String, strap: String) {
        self.prefix = prefix
        self.strap = strap
    }

    /// `gateway`: the configured gateway or the host name; `source`: the strap as the user named it.
    public init(prefix: String?, gateway: String, source: String?) {
        self.init(prefix: prefix ?? "hrbridge/" + Self.level(gateway), strap: Self.level(source ?? "strap"))
    }

    public var state: String { "\(prefix)/\(strap)/state" }
    public var updates: String { "\(prefix)/\(strap)/updates" }
    public var control: String { "\(prefix)/\(strap)/control" }
    public var pushToken: String { "\(prefix)/\(strap)/push-token" }
    public var pushToStartToken: String { "\(prefix)/\(strap)/push-to-start-token" }
    public var channel: String { "\(prefix)/\(strap)/channel" }
    /// What the sink subscribes to with `--mqtt-control`.
    public var commands: [String] { [control, pushToken, pushToStartToken] }
    public var status: String { "\(prefix)/status" }

    /// A name as one topic level that Home Assistant also takes as an id: lower-case letters, digits,
    /// `-` and `_`, every other run of characters one `-` ("Polar H10 (A0:9E)" → "polar-h10-a0-9e").
    /// Never empty, and never `+`, `#` or `/`, which would turn a topic into a pattern or split it.
    public static func level(_ name: String) -> String {
        var text = ""
        var pendingDash = false
        for scalar in name.lowercased().unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" {
                if pendingDash, !text.isEmpty { text += "-" }
                pendingDash = false
                text.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
        }
        return text.isEmpty ? "unnamed" : text
    }
}

extension SinkOption.TextRule {
    /// Topic levels separated by `/`, none empty, no wildcards (`+`, `#`) and no NUL.
    static let mqttTopicPrefix = Self(expected: "topic levels separated by / (no +, # or empty level)") { text in
        !text.isEmpty && text.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { level in
            !level.isEmpty && !level.unicodeScalars.contains { $0 == "+" || $0 == "#" || $0.value == 0 }
        }
    }

    /// An MQTT client id: printable ASCII without spaces, at most 65535 bytes (the protocol's limit).
    static let mqttClientID = Self(expected: "printable ASCII without spaces") { text in
        !text.isEmpty && text.utf8.count <= 65535 && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7f }
    }
}
