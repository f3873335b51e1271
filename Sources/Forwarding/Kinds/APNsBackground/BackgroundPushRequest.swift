import LiveState

/// Turns an update into a background push: `POST /3/device/<app token>` with `apns-push-type:
/// background`, `apns-priority: 5` always (APNs refuses 10 for a background push), `apns-topic` the
/// bundle id itself, `apns-collapse-id` the activity (iOS keeps only the newest anyway) and
/// `apns-expiration` the stale date: a state past it is worth nothing to the app. The provider token
/// is added at send time.
enum BackgroundPushRequest {
    /// APNs' limit on `apns-collapse-id`.
    static let collapseIDLimit = 64

    static func delivery(for update: ActivityUpdate, deviceToken: String, bundleID: String, key: String,
                         baseURL: String) throws(SinkError) -> Delivery {
        let body = try PushBody.encode(update, sink: "apns-background", service: "APNs") {
            try BackgroundPushPayload(key: key, update: update).encoded()
        }
        let request = HTTPRequest(
            url: "\(PushBody.base(baseURL))/3/device/\(deviceToken)",
            headers: [
                HTTPHeader("apns-push-type", "background"),
                HTTPHeader("apns-topic", bundleID),
                HTTPHeader("apns-priority", String(ActivityUpdate.normalPriority)),
                HTTPHeader("apns-collapse-id", String(decoding: update.activityID.utf8.prefix(collapseIDLimit), as: UTF8.self)),
                HTTPHeader("apns-expiration", String(APNsPayload.unixSeconds(update.staleDate))),
                HTTPHeader("content-type", "application/json"),
            ],
            body: body
        )
        // Never urgent: a background push goes at priority 5 whatever it replaced.
        return Delivery(activityID: update.activityID, sequence: update.sequence, event: update.event.rawValue,
                        kind: update.event == .update ? .content : .lifecycle, urgent: false, message: request)
    }
}
