import Platform
import FoundationEssentials
import LiveState

/// The registry's file in the state directory (`<state>/channels/<strap key>.json`):
/// `{"version":1,"channels":[{"channel":ID,"managementServer":URL,"bundleID":B,"storagePolicy":0|1,
/// "createdAt":S,"activity":ID,"deleteAfter":S}]}`, times in Unix seconds, `activity` and
/// `deleteAfter` absent when not set. A channel id is not a secret: phones are given it to join.
extension ChannelRegistry {
    static let formatVersion = 1

    public func encoded() -> [UInt8] {
        var json = JSONBytes(capacity: 128 + 256 * channels.count)
        json.beginObject()
        json.key("version")
        json.integer(Self.formatVersion)
        json.key("channels")
        json.array(channels) { json, channel in
            json.beginObject()
            json.key("channel")
            json.string(channel.id, escapingSlash: false)
            json.key("managementServer")
            json.string(channel.app.managementURL, escapingSlash: false)
            json.key("bundleID")
            json.string(channel.app.bundleID)
            json.key("storagePolicy")
            json.integer(channel.storagePolicy.rawValue)
            json.key("createdAt")
            json.integer(channel.createdAt)
            if let activity = channel.activity {
                json.key("activity")
                json.string(activity, escapingSlash: false)
            }
            if let deleteAfter = channel.deleteAfter {
                json.key("deleteAfter")
                json.integer(deleteAfter)
            }
            json.endObject()
        }
        json.endObject()
        json.raw(UInt8(ascii: "\n"))
        return json.bytes
    }

    /// Reads what `encoded()` wrote; the error names the key path at fault.
    public init(decoding bytes: [UInt8]) throws(ChannelFileError) {
        let file: StoredChannels
        do {
            file = try JSONDecoder().decode(StoredChannels.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw ChannelFileError(message: error.keyPathMessage)
        } catch {
            throw ChannelFileError(message: "\(error)")
        }
        guard file.version == Self.formatVersion else {
            throw ChannelFileError(message: "version: expected \(Self.formatVersion), got \(file.version)")
        }
        var channels: [Channel] = []
        for (index, stored) in file.channels.enumerated() {
            let path = "channels[\(index)]"
            guard Self.isChannelID(stored.channel) else {
                throw ChannelFileError(message: "\(path).channel: expected a base64 channel id, got \(stored.channel.debugDescription)")
            }
            guard let policy = MessageStoragePolicy(rawValue: stored.storagePolicy) else {
                throw ChannelFileError(message: "\(path).storagePolicy: expected 0 or 1, got \(stored.storagePolicy)")
            }
            channels.append(Channel(id: stored.channel, app: App(managementURL: stored.managementServer, bundleID: stored.bundleID),
                                    storagePolicy: policy, createdAt: stored.createdAt, activity: stored.activity,
                                    deleteAfter: stored.deleteAfter))
        }
        self.init(channels: channels)
    }
}

/// Why a channel file could not be read: a key path and what is wrong there.
public struct ChannelFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

private struct StoredChannels: Decodable {
    var version: Int
    var channels: [StoredChannel]
}

private struct StoredChannel: Decodable {
    var channel: String
    var managementServer: String
    var bundleID: String
    var storagePolicy: Int
    var createdAt: Int64
    var activity: String?
    var deleteAfter: Int64?
}

extension ChannelRegistry.Channel {
    /// What an app is told of the channel, over HTTP and on MQTT alike: `"channel": ID,
    /// "storagePolicy": 0|1` and, while an activity is on it, `"activity": ID`; the fields only, in
    /// whatever object the caller opened.
    public func writeAnnouncement(into json: inout JSONBytes) {
        json.key("channel")
        json.string(id, escapingSlash: false)
        json.key("storagePolicy")
        json.integer(storagePolicy.rawValue)
        if let activity {
            json.key("activity")
            json.string(activity, escapingSlash: false)
        }
    }
}
