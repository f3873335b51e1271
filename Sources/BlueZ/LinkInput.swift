import Sensors

/// What a streaming link reacts to besides values (those go through `ValueDispatch`), merged
/// into one ordered stream: tree changes, the watchdog, a closed socket, the end of a drain.
enum LinkInput: Sendable {
    case treeChanged
    case silent
    case socketClosed
    /// The link dropped and the socket did not reach its end within `socketDrainTimeout`.
    case drainTimedOut
}
