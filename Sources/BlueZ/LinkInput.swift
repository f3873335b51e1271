import HeartRate

/// Everything a streaming link reacts to, merged into one ordered stream: values (from
/// PropertiesChanged or the AcquireNotify socket), tree changes, the watchdog, a closed socket.
enum LinkInput: Sendable {
    case value(characteristicPath: String, bytes: [UInt8], time: Timestamp)
    case treeChanged
    case silent
    case socketClosed
}
