import Platform
import struct Forwarding.PushTokenReceipt
import struct Forwarding.PushTokenRefusal
import struct Forwarding.PushTokenRequest
import HTTPServer
import LiveState

/// The app's push tokens over HTTP: `PUT|DELETE /v1/activities/{activity}/push-token` and
/// `/v1/push-to-start-token` (`/v1/straps/{strap}/push-to-start-token` when the run has several
/// straps), each through `SessionControls` to `LiveSession.pushToken`, where MQTT's push-token
/// topics go too; this file only says it in HTTP. Never the token in an answer.
extension BridgeAPI {
    func activityPushToken(_ request: RoutedRequest, registering: Bool) -> HTTPResponse {
        let activity = request.parameter("activity")
        let tokenRequest = PushTokenRequest(registering ? .register(body: request.request.body) : .forget, for: .activity(activity),
                                            origin: Self.origin(request))
        return Self.answer(controls.pushToken(tokenRequest, toActivity: activity), strap: nil)
    }

    func pushToStartToken(_ request: RoutedRequest, registering: Bool) -> HTTPResponse {
        let strap = request.parameters["strap"]
        let tokenRequest = PushTokenRequest(registering ? .register(body: request.request.body) : .forget, for: .pushToStart,
                                            origin: Self.origin(request))
        return Self.answer(controls.pushToken(tokenRequest, toStrap: strap), strap: strap ?? controls.targets.first?.name)
    }

    /// `HTTP PUT /v1/activities/ID/push-token`, for the session's log line.
    private static func origin(_ request: RoutedRequest) -> String { "HTTP \(request.request.method) \(request.request.path)" }

    /// 200 with `{"activity": ID, "change": "registered", "pushToken": "registered"}` (or `"strap"`
    /// for a push-to-start token); a refusal as its kind's status with `{"error": …}`.
    private static func answer(_ result: Result<PushTokenReceipt, PushTokenRefusal>, strap: String?) -> HTTPResponse {
        switch result {
        case let .success(receipt):
            var json = JSONBytes(capacity: 128)
            json.beginObject()
            if let activity = receipt.activity {
                json.key("activity")
                json.string(activity)
            } else if let strap {
                json.key("strap")
                json.string(strap, escapingSlash: false)
            }
            json.key("change")
            json.string(receipt.change.rawValue)
            if let status = receipt.status {
                json.key("pushToken")
                json.string(status.rawValue)
            }
            json.endObject()
            return .json(HTTPStatus.ok, json.bytes)
        case let .failure(refusal):
            let status = switch refusal.kind {
            case .badRequest: HTTPStatus.badRequest
            case .unknownActivity: HTTPStatus.notFound
            case .conflict: HTTPStatus.conflict
            case .unavailable: HTTPStatus.serviceUnavailable
            }
            return .json(status, APIJSON.error(refusal.message))
        }
    }
}
