import FoundationEssentials

/// The channel management requests (Apple, "Sending channel management requests to APNs"), on the
/// environment's management host with the same provider token as every push: create and delete.
/// Pure: requests built, answers read; `ChannelKeeper` sends them.
enum ChannelManagement {
    /// `POST /1/apps/<bundle id>/channels` with `{"message-storage-policy": N, "push-type": "LiveActivity"}`.
    static func create(app: ChannelRegistry.App, policy: MessageStoragePolicy) -> HTTPRequest {
        HTTPRequest(url: "\(app.managementURL)/1/apps/\(app.bundleID)/channels",
                    headers: [HTTPHeader("content-type", "application/json")],
                    body: Array(#"{"message-storage-policy":\#(policy.rawValue),"push-type":"LiveActivity"}"#.utf8))
    }

    /// `DELETE /1/apps/<bundle id>/channels` naming the channel in `apns-channel-id`; no body.
    static func delete(_ channel: String, app: ChannelRegistry.App) -> HTTPRequest {
        HTTPRequest(method: "DELETE", url: "\(app.managementURL)/1/apps/\(app.bundleID)/channels",
                    headers: [HTTPHeader("apns-channel-id", channel)], body: [])
    }

    /// The new channel's id from a 2xx answer to `create`: Apple documents 201 with it in the
    /// `apns-channel-id` header; one report saw 200 with it in a JSON body, which is taken too. Nil
    /// when neither holds something that can be a channel id.
    static func createdID(_ response: HTTPResponse) -> String? {
        if let header = response.headers["apns-channel-id"] { return ChannelRegistry.isChannelID(header) ? header : nil }
        guard let body = try? JSONDecoder().decode(CreatedBody.self, from: Data(response.body)),
              let id = body.channelID ?? body.headerName else { return nil }
        return ChannelRegistry.isChannelID(id) ? id : nil
    }

    private struct CreatedBody: Decodable {
        var channelID: String?
        var headerName: String?

        enum CodingKeys: String, CodingKey {
            case channelID = "channel-id"
            case headerName = "apns-channel-id"
        }
    }

    /// APNs' answer that a channel does not exist (deleted from outside, or never in this environment).
    static let notRegistered = "ChannelNotRegistered"
}
