import Foundation
import ProcessTestSupport
import TestSupport
import Testing
import ListenerAPI

/// The listener's OpenAPI file against the route table, and its validator against exchanges that
/// break it: the contract test of ListenerProcessTests can fail.
@Suite(.timeLimit(.minutes(1))) struct ListenerContractTests {
    static let contract = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/ListenerAPI/bridge-api.openapi.json").path

    @Test func everyRouteIsAnOperationOfTheContractAndNothingElseIs() throws {
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.contract))) as? [String: Any]
        let paths = try #require(document?["paths"] as? [String: [String: Any]])
        let operations = Set(paths.flatMap { path, item in
            item.keys.filter { $0 != "parameters" }.map { "\($0.uppercased()) \(path)" }
        })
        let routes = Set(BridgeAPI.routeTable.map { "\($0.method) \($0.pattern)" })
        #expect(operations == routes)
    }

    @Test(arguments: [
        (#"{"method": "POST", "path": "/v1/activities/a/pause", "requestHeaders": [], "requestBody": "", "status": 200, "responseHeaders": [["Content-Type", "application/json"]], "responseBody": "{\"activity\": 1}"}"#,
         "response"),
        (#"{"method": "POST", "path": "/v1/activities/a/pause", "requestHeaders": [], "requestBody": "", "status": 418, "responseHeaders": [["Content-Type", "application/json"]], "responseBody": "{\"error\": \"x\"}"}"#,
         "418"),
        (#"{"method": "GET", "path": "/metrics", "requestHeaders": [], "requestBody": "", "status": 401, "responseHeaders": [["Content-Type", "application/json"]], "responseBody": "{\"error\": \"x\"}"}"#,
         "WWW-Authenticate"),
    ])
    func theValidatorRejectsWhatBreaksTheContract(line: String, says: String) throws {
        let directory = try TemporaryDirectory()
        let validator = TestScripts.path("validate_openapi_exchanges.py")
        let error = #expect(throws: ToolError.self) {
            try runTool(TestScripts.openAPIPython, [validator, Self.contract, try directory.write("x.ndjson", line + "\n"), "http://127.0.0.1:1"])
        }
        #expect(error?.message.contains(says) == true, "\(error?.message ?? "")")
    }
}
