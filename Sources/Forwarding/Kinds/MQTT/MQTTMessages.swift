import Platform
import LiveState
import Sensors

/// Turns an update into what the MQTT sink publishes (pure: `now` is given): the update's NDJSON line
/// (without its newline) retained on `…/<strap>/state` and, not retained, on `…/<strap>/updates`.
///
/// Times: the engine's dates follow its clock, which in a sped-up replay runs ahead of the wall
/// clock the broker expires messages by. What carries over is the engine's durations, so each is
/// counted from `now`: an update expires when its stale window (`staleDate − timestamp`) has passed,
/// an ended activity's state when its dismissal delay (`dismissalDate − timestamp`) has. In a live
/// run the two readings agree.
public enum MQTTMessages {
    public static func delivery(for encoded: EncodedUpdate, topics: MQTTTopics, now: Timestamp) throws(SinkError) -> Delivery {
        let update = encoded.update
        let line: [UInt8]
        do {
            line = try encoded.body()
        } catch {
            throw SinkError(sink: "mqtt", message: "\(update.activityID)#\(update.sequence) not sent: \(error)")
        }
        let stale = now.adding(seconds: update.staleDate.seconds(since: update.timestamp))
        let dismissed = update.event == .end ? update.dismissalDate.map { now.adding(seconds: $0.seconds(since: update.timestamp)) } : nil
        return Delivery(for: update, message: MQTTPublications([
            MQTTPublication(topic: topics.state, payload: line, retain: true, expires: dismissed),
            MQTTPublication(topic: topics.updates, payload: line, retain: false, expires: stale),
        ]))
    }
}

extension MQTTMessages {
    /// The strap's broadcast channel, retained on `…/<strap>/channel` so an app that subscribes later
    /// learns it: `{"channel": ID, "storagePolicy": 0|1, "activity": ID}` (`activity` absent between
    /// activities), or an empty message, which removes the retained one, once it is deleted. Not an
    /// update of any activity: it supersedes only an unsent one of its own.
    static func channel(_ channel: ChannelRegistry.Channel?, topics: MQTTTopics) -> Delivery {
        var payload: [UInt8] = []
        if let channel {
            var json = JSONBytes(capacity: 128)
            json.beginObject()
            channel.writeAnnouncement(into: &json)
            json.endObject()
            payload = json.bytes
        }
        return Delivery(activityID: channelActivity, sequence: 0, event: "channel", kind: .content,
                        message: MQTTPublications([MQTTPublication(topic: topics.channel, payload: payload, retain: true)]))
    }

    /// What the queue files the channel's publications under: no activity id has a space.
    static let channelActivity = "broadcast channel"
}
