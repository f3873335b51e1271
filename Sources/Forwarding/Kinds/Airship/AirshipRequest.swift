import LiveState

/// Turns an update into Airship's push request: `POST {base}/api/push` with API v3's `Accept`, the
/// Live Activity payload, and nothing secret: the authorization is added at send time, so what is
/// queued or spooled holds no credential.
public enum AirshipRequest {
    /// Airship passes the payload to APNs, which refuses more than 4 KB; refused here before it costs a message.
    static let byteLimit = 4096

    public static func delivery(for update: ActivityUpdate, settings: AirshipSinkSettings) throws(SinkError) -> Delivery {
        let body: [UInt8]
        do {
            body = try AirshipPayload(update: update, settings: settings).encoded()
        } catch {
            throw SinkError(sink: "airship", message: "\(update.activityID)#\(update.sequence) not sent: \(error)")
        }
        guard body.count <= byteLimit else {
            throw SinkError(sink: "airship", message: "\(update.activityID)#\(update.sequence) not sent: payload is \(body.count) bytes, "
                + "over \(byteLimit); shorten the workout name or interval label")
        }
        let base = settings.baseURL.hasSuffix("/") ? String(settings.baseURL.dropLast()) : settings.baseURL
        let request = HTTPRequest(
            url: "\(base)/api/push",
            headers: [
                HTTPHeader("Accept", "application/vnd.urbanairship+json; version=3"),
                HTTPHeader("Content-Type", "application/json"),
            ],
            body: body
        )
        return Delivery(for: update, request: request)
    }
}
