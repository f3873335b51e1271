import LiveState
import Sensors
import SinkVocabulary

extension NetworkSink {
    /// `--sink URL`: a lifecycle server speaking lifecycle-server.openapi.json.
    public static func lifecycleServer(
        baseURL: String, token: SecretSource?, environment: [String: String] = [:], http: HTTPClientConfiguration = .init(),
        settings: DeliveryWorker.Settings = .init(), spoolDirectory: String?, log: @escaping @Sendable (String) -> Void
    ) -> NetworkSink {
        NetworkSink(
            name: baseURL, settings: settings, spool: spoolDirectory.map { Spool(directory: $0, sinkName: baseURL, holding: [HTTPRequest.self]) }, log: log,
            makeDelivery: { update throws(SinkError) in try LifecycleRequest.delivery(for: update, baseURL: baseURL) },
            makeTransmitter: { LifecycleTransmitter(client: HTTPClient(configuration: http), tokenSource: token, environment: environment) }
        )
    }
}
