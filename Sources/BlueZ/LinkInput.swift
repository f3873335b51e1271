import HeartRate

/// What a streaming link reacts to besides values (those go through `ValueDispatch`), merged
/// into one ordered stream: tree changes, the watchdog, a closed socket.
enum LinkInput: Sendable {
    case treeChanged
    case silent
    case socketClosed
}
