/// The phone's push-to-start token for the broadcast path's starts: the one the app registered at
/// run time (the strap's book), else the configured one; a 410 marks it as the token path's rules
/// say (`TokenRegistry.unregistered`). Used on the broadcast path's delivery thread only.
final class StartTokens {
    private let book: PushTokenBook
    private let configured: TokenRegistry.ConfiguredTokens

    /// `book` nil (no session takes registrations: `replay --fast`): the configured token alone,
    /// its 410 remembered for the run.
    init(book: PushTokenBook?, configured: PushToken?) {
        self.book = book ?? PushTokenBook()
        self.configured = TokenRegistry.ConfiguredTokens(pushToStart: configured)
    }

    var current: PushToken? { book.pushToStartToken(configured: configured) }

    func unregistered(_ token: PushToken, at time: Int64) { book.unregistered(token, at: time) }
}
