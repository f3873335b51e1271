import SinkVocabulary
extension NetworkSink {
    /// `--sink airship`: Live Activity pushes through Airship's push API, the activity tracked by name.
    public static func airship(
        settings airship: AirshipSinkSettings, authorization: AirshipAuthorization, http: HTTPClientConfiguration = .init(),
        settings: DeliveryWorker.Settings = .init(), spoolDirectory: String?, log: @escaping @Sendable (String) -> Void
    ) -> NetworkSink {
        NetworkSink(
            name: "airship", settings: settings,
            spool: spoolDirectory.map { Spool(directory: $0, sinkName: "airship-" + airship.appKey, holding: [HTTPRequest.self]) }, log: log,
            makeDelivery: { update throws(SinkError) in try AirshipRequest.delivery(for: update.update, settings: airship) },
            makeTransmitter: { [http] in
                AirshipTransmitter(client: HTTPClient(configuration: http), appKey: airship.appKey, authorization: authorization)
            }
        )
    }
}
