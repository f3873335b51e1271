import Platform

/// One HTTP request, ready to send: what the delivery queue holds and the spool stores.
/// Secrets (bearer tokens) are not part of it: the sink adds them at send time.
public struct HTTPRequest: Sendable, Equatable, Decodable {
    public var method: String
    public var url: String
    public var headers: [HTTPHeader]
    public var body: [UInt8]

    public init(method: String = "POST", url: String, headers: [HTTPHeader], body: [UInt8]) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

extension HTTPRequest: DeliveryMessage {
    /// Lifecycle servers, APNs background pushes, Airship and FCM send one request per update.
    public static let spoolKey = "request"

    public func write(to json: inout JSONBytes) {
        json.beginObject()
        json.key("body")
        json.byteArray(body)
        json.key("headers")
        HTTPHeader.write(headers, to: &json)
        json.key("method")
        json.string(method, escapingSlash: false)
        json.key("url")
        json.string(url, escapingSlash: false)
        json.endObject()
    }
}

public struct HTTPHeader: Sendable, Equatable, Decodable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// `[{"name":…,"value":…},…]`, as a spool line keeps them.
    static func write(_ headers: [HTTPHeader], to json: inout JSONBytes) {
        json.array(headers) { json, header in
            json.beginObject()
            json.key("name")
            json.string(header.name, escapingSlash: false)
            json.key("value")
            json.string(header.value, escapingSlash: false)
            json.endObject()
        }
    }
}

/// What came back: status, headers (names lower-cased) and body, and which HTTP version carried it.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]
    public var httpVersion: HTTPVersion

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = [], httpVersion: HTTPVersion = .http1_1) {
        self.status = status
        self.headers = headers
        self.body = body
        self.httpVersion = httpVersion
    }
}

public enum HTTPVersion: String, Sendable, Equatable {
    case http1_0 = "HTTP/1.0"
    case http1_1 = "HTTP/1.1"
    case http2 = "HTTP/2"
    case other = "HTTP/?"
}

/// The request never got an answer.
public enum HTTPFailure: Error, Sendable, Equatable, CustomStringConvertible {
    case couldNotConnect(String)
    case timedOut(String)
    case tlsRejected(String)
    case notHTTP2(String)
    case transport(String)

    public var description: String {
        switch self {
        case let .couldNotConnect(detail): "could not connect: \(detail)"
        case let .timedOut(detail): "timed out: \(detail)"
        case let .tlsRejected(detail): "TLS verification failed: \(detail)"
        case let .notHTTP2(url): "\(url) did not speak HTTP/2 (APNs requires it)"
        case let .transport(detail): detail
        }
    }
}
