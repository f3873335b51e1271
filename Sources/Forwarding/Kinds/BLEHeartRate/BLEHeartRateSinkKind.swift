import SinkVocabulary

extension SinkKind {
    /// `--sink ble-heart-rate[:NAME]`, `{"type": "ble-heart-rate", "name": …, "adapter": …}`: hrbridge
    /// as a standard Bluetooth heart-rate sensor and foot pod (docs/rebroadcast.md).
    public static let bleHeartRate = SinkKind(
        name: "ble-heart-rate", selector: .wordWithValue("ble-heart-rate", option: "name"),
        summary: "a Bluetooth LE heart-rate sensor (and foot pod) other devices connect to",
        options: [
            SinkOption(key: "name", flag: nil, .text(.init(expected: "a name of 1 to 29 bytes", accepts: { text in
                (1 ... 29).contains(text.utf8.count) && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
            })), help: "the name centrals see (default: hrbridge)"),
            SinkOption(key: "adapter", flag: "--ble-adapter", .text(.init(expected: "an adapter name such as hci0", accepts: { text in
                text.hasPrefix("hci") && text.count > 3 && text.dropFirst(3).allSatisfy(\.isASCIIDigit)
            })), help: "the adapter to advertise on (default: the first bluetoothd lists)"),
        ],
        make: { values, setup throws(SinkSetupError) in
            try BLEHeartRateSink.start(name: values.text("name") ?? BLEHeartRateSink.defaultName, adapter: values.text("adapter"), log: setup.log)
        }
    )
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
