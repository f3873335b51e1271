import Foundation
import LiveState
import TestSupport
import Testing
@testable import Forwarding

/// The push services' bodies and the spool's lines are written by `JSONBytes` as JSONEncoder with
/// sorted keys and slashes as they are writes the same values: each, read back and encoded again by
/// JSONEncoder, is the same bytes. Texts with slashes, quotes, control characters and non-ASCII, a
/// configured key that sorts among the fixed ones, every event, every kind of delivery.
@Suite struct EncoderAgreementTests {
    /// Any JSON value, read and written by Foundation's coders.
    indirect enum AnyJSON: Codable {
        case null
        case bool(Bool)
        case integer(Int64)
        case number(Double)
        case string(String)
        case array([AnyJSON])
        case object([String: AnyJSON])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null }
            else if let value = try? container.decode(Bool.self) { self = .bool(value) }
            else if let value = try? container.decode(Int64.self) { self = .integer(value) }
            else if let value = try? container.decode(Double.self) { self = .number(value) }
            else if let value = try? container.decode(String.self) { self = .string(value) }
            else if let value = try? container.decode([AnyJSON].self) { self = .array(value) }
            else { self = .object(try container.decode([String: AnyJSON].self)) }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case let .bool(value): try container.encode(value)
            case let .integer(value): try container.encode(value)
            case let .number(value): try container.encode(value)
            case let .string(value): try container.encode(value)
            case let .array(value): try container.encode(value)
            case let .object(value): try container.encode(value)
            }
        }
    }

    static func encodedAgain(_ body: [UInt8]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(try JSONDecoder().decode(AnyJSON.self, from: Data(body))), as: UTF8.self)
    }

    static let updates: [ActivityUpdate] = {
        let label = "Intervals 3/8 \"fast\"\tÄ 🏃"
        var updates = SampleUpdates.activity("run/1", count: 3).map { update in
            var update = update
            update.contentState.intervalLabel = label
            update.attributes = WorkoutActivityAttributes(workoutName: "Track/Tempo \\ \u{1}")
            return update
        }
        updates[1].contentState.heartRate = nil
        updates[1].contentState.distanceMeters = 1234.5
        return updates
    }()

    @Test func liveActivityPushesAsJSONEncoderWritesThem() throws {
        let plain = APNsSinkSettings(bundleID: "com.example/app")
        let scored = APNsSinkSettings(bundleID: "com.example.app", relevanceScore: 0.75, activityIDAttribute: "bridge/activity",
                                      startAlertTitle: "Go/now", startAlertBody: "\"Live\"")
        let unnamed = APNsSinkSettings(bundleID: "com.example.app", activityIDAttribute: nil)
        for update in Self.updates {
            for settings in [plain, scored, unnamed] {
                for pushToStart in [false, true] {
                    for channel in [nil, "Y2hhbm5lbC8x"] as [String?] {
                        let body = APNsPayload(update: update, pushToStart: pushToStart, joining: channel, settings: settings)
                        let bytes = try body.encoded()
                        #expect(String(decoding: bytes, as: UTF8.self) == (try Self.encodedAgain(bytes)))
                    }
                }
            }
        }
    }

    @Test func airshipBodiesAsJSONEncoderWritesThem() throws {
        for update in Self.updates {
            for audience in [AirshipSinkSettings.Audience.all, .channel("ios/channel-1")] {
                for settings in [AirshipSinkSettings(appKey: "k", audience: audience),
                                 AirshipSinkSettings(appKey: "k", audience: audience, activityName: "name/1", relevanceScore: 12.5)] {
                    let bytes = try AirshipPayload(update: update, settings: settings).encoded()
                    #expect(String(decoding: bytes, as: UTF8.self) == (try Self.encodedAgain(bytes)))
                }
            }
        }
    }

    @Test func backgroundPushesAsJSONEncoderWritesThem() throws {
        for update in Self.updates {
            for key in ["contentState", "a/b", "event", "Zeta", "état"] {
                let bytes = try BackgroundPushPayload(key: key, update: update).encoded()
                #expect(String(decoding: bytes, as: UTF8.self) == (try Self.encodedAgain(bytes)), "\(key)")
            }
        }
    }

    @Test func fcmMessagesAsJSONEncoderWritesThem() throws {
        for update in Self.updates {
            for target in [FCMMessage.Target.token("token/1"), .topic("gym/strap-a")] {
                let bytes = FCMMessage(update: update, target: target).encoded()
                #expect(String(decoding: bytes, as: UTF8.self) == (try Self.encodedAgain(bytes)))
            }
        }
    }

    @Test func spoolLinesAsJSONEncoderWritesThemAndLoadBack() throws {
        let directory = try TemporaryDirectory()
        let apns = APNsSinkSettings(bundleID: "com.example.app", deviceToken: String(repeating: "ab", count: 32), relevanceScore: 0.5)
        var deliveries: [Delivery] = []
        for update in Self.updates {
            deliveries.append(try #require(try APNsRequest.delivery(for: update, settings: apns, everyEvent: true)))
            deliveries.append(try BroadcastRequest.delivery(for: update, settings: apns))
            deliveries.append(try LifecycleRequest.delivery(for: EncodedUpdate(update), baseURL: "http://127.0.0.1:1/hooks/a"))
            deliveries.append(try MQTTMessages.delivery(for: EncodedUpdate(update), topics: MQTTTopics(prefix: "gym/a", strap: "s"),
                                                        now: SampleUpdates.workoutStart))
        }
        for delivery in deliveries {
            let line = delivery.spoolLine()
            #expect(String(decoding: line, as: UTF8.self) == (try Self.encodedAgain(line)), "\(delivery.label)")
        }
        let spool = Spool(directory: directory.path("spool"), sinkName: "every kind",
                          holding: [MQTTPublications.self, LiveActivityPush.self, BroadcastPush.self, HTTPRequest.self])
        try spool.store(deliveries)
        #expect(spool.load(warn: { Issue.record("\($0)") }) == deliveries)
    }
}
