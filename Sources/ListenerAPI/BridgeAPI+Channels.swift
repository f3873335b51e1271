import Platform
import struct Forwarding.ChannelRegistry
import HTTPServer
import LiveState

/// `GET /v1/straps/{strap}/channel`: the broadcast channel a viewer's app starts its Live Activity
/// on (`pushType: .channel(id)`), as MQTT's retained `<prefix>/<strap>/channel` says it too. The id
/// is not a secret; who may read it is the listener's token's business, as for every route.
extension BridgeAPI {
    func channel(_ request: RoutedRequest) -> HTTPResponse {
        let strap = request.parameter("strap")
        let chosen = controls.targets(strap: strap)
        guard let target = chosen.first, chosen.count == 1 else {
            return .json(HTTPStatus.notFound, APIJSON.error("no strap \(strap) in this run; it has \(controls.targets.map(\.name).joined(separator: ", "))"))
        }
        guard let channel = target.session.broadcastChannel() else {
            return .json(HTTPStatus.notFound, APIJSON.error("strap \(target.name) has no broadcast channel: an APNs sink with "
                + "--apns-broadcast makes one before its next start"))
        }
        var json = JSONBytes(capacity: 160)
        json.beginObject()
        json.key("strap")
        json.string(target.name, escapingSlash: false)
        channel.writeAnnouncement(into: &json)
        json.endObject()
        return .json(HTTPStatus.ok, json.bytes)
    }
}
