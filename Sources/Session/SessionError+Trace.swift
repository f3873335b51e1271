import SessionState
import Trace

extension SessionError {
    /// A trace that cannot be opened is unreadable; a bad line in it is invalid.
    init(_ error: TraceReadError) {
        switch error {
        case .unreadable: self = .unreadable(error.description)
        case .malformed: self = .invalid(error.description)
        }
    }
}
