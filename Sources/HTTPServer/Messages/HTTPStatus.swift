/// The status codes this server answers with, by name (RFC 9110), so a handler reads as what it means.
public enum HTTPStatus {
    public static let ok = 200
    public static let badRequest = 400
    public static let unauthorized = 401
    public static let notFound = 404
    public static let methodNotAllowed = 405
    public static let conflict = 409
    public static let contentTooLarge = 413
    public static let unsupportedMediaType = 415
    public static let internalServerError = 500
    public static let serviceUnavailable = 503
}
