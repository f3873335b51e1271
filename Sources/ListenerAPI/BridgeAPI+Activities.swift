import Platform
import Config
import HTTPServer
import LiveState

/// The activities and their controls: `GET /v1/activities`, `POST …/pause|resume|end`,
/// `PUT …/label`. Every action goes through `SessionControls` to `LiveSession.apply`, the entry
/// point `hrbridge ctl` (D-Bus) and MQTT's control topic use; this file only says it in HTTP.
extension BridgeAPI {
    /// Each session's activity (running, or the one it ended last) with its state and sequence.
    func activities() -> HTTPResponse {
        let listed = controls.activities().compactMap { entry in entry.activity.map { (entry.target.name, $0) } }
        return .json(HTTPStatus.ok, APIJSON.list("activities", listed.count) { index, json in
            APIJSON.activity(listed[index].1, strap: listed[index].0, into: &json)
        })
    }

    func control(_ action: ControlAction, _ request: RoutedRequest) -> HTTPResponse {
        let activity = request.parameter("activity")
        let (target, outcome) = controls.apply(action, toActivity: activity)
        switch outcome {
        case let .applied(state): return .json(HTTPStatus.ok, APIJSON.activity(state, strap: target?.name ?? ""))
        case .ended: return .json(HTTPStatus.conflict, APIJSON.error("\(activity): \(outcome.refusal!)"))
        case .unknownActivity: return .json(HTTPStatus.notFound, APIJSON.error(outcome.refusal!))
        case let .refused(reason): return .json(HTTPStatus.badRequest, APIJSON.error(reason))
        }
    }

    /// `{"label": TEXT}`: the new interval label ("" clears it), checked as `ctl label` checks it.
    func label(_ request: RoutedRequest) -> HTTPResponse {
        switch LabelBody.parse(request.request.body) {
        case let .failure(problem): .json(HTTPStatus.badRequest, APIJSON.error(problem.description))
        case let .success(action): control(action, request)
        }
    }
}

/// The body of `PUT …/label`, read by the strict JSON reader: an object with exactly the key
/// `label`, a string. Its text goes through `ControlAction.parse` like every surface's.
public enum LabelBody {
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public static func parse(_ bytes: [UInt8]) -> Result<ControlAction, Problem> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            return .failure(Problem(description: "the body is not JSON: line \(error.line), column \(error.column): \(error.reason)"))
        }
        guard case let .object(members) = value else {
            return .failure(Problem(description: "expected {\"label\": TEXT}, got \(value.kindDescription)"))
        }
        if let other = members.first(where: { $0.key != "label" }) {
            return .failure(Problem(description: "unknown key \(other.key.jsonQuoted); expected {\"label\": TEXT}"))
        }
        guard members.count == 1, case let .string(text) = members[0].value else {
            return .failure(Problem(description: "expected {\"label\": TEXT} with one string"))
        }
        return ControlAction.parse(action: "label", text: text).mapError { Problem(description: $0.description) }
    }
}
