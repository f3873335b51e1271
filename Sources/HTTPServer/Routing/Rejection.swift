/// Why a request is not answered by its endpoint: a status, a reason for the client and the
/// header fields the status calls for (`Allow` with 405, `WWW-Authenticate` with 401). The API
/// renders it in its own format; the transport only says it (413 while a body arrives).
public struct Rejection: Error, Sendable {
    public var status: Int
    public var reason: String
    public var headers: [(name: String, value: String)]

    public init(_ status: Int, _ reason: String, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.reason = reason
        self.headers = headers
    }
}
