import CCurl
import FoundationEssentials
import Platform

/// A blocking HTTP client on one libcurl easy handle, used by one delivery thread. The handle keeps
/// its connection open between requests (APNs asks providers to reuse connections); TLS peer and
/// host verification stay on.
public final class HTTPClient {
    /// nil when libcurl could not be loaded (`unavailable` says why): every request then fails as a
    /// transport error, so the sink retries and spools as for any outage rather than crash.
    private let handle: UnsafeMutableRawPointer?
    private let unavailable: String?
    private let configuration: HTTPClientConfiguration

    public init(configuration: HTTPClientConfiguration) {
        unavailable = hrb_curl_unavailable().map { "libcurl could not be loaded (\(String(cString: $0))); install libcurl4" }
        _ = Self.globalInitialization
        // curl_easy_init fails only when out of memory or without libcurl.
        handle = hrb_curl_easy_init()
        self.configuration = configuration
    }

    deinit { if let handle { hrb_curl_easy_cleanup(handle) } }

    /// libcurl's global state must be set up once, before any thread uses it.
    private static let globalInitialization: Void = { hrb_curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    public func send(_ request: HTTPRequest) -> Result<HTTPResponse, HTTPFailure> {
        guard let handle else { return .failure(.transport("\(request.url): \(unavailable ?? "libcurl could not start a request")")) }
        let collector = ResponseCollector()
        let context = Unmanaged.passRetained(collector)
        defer { context.release() }
        var headerList: UnsafeMutablePointer<curl_slist>?
        // "Expect:" stops libcurl from waiting for 100-continue on HTTP/1.1 posts.
        for header in request.headers + [HTTPHeader("Expect", "")] {
            let line = header.value.isEmpty ? "\(header.name):" : "\(header.name): \(header.value)"
            headerList = hrb_curl_slist_append(headerList, line)
        }
        defer { hrb_curl_slist_free_all(headerList) }
        var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

        hrb_curl_easy_reset(handle)
        hrb_curl_set_string(handle, CURLOPT_URL, request.url)
        hrb_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method)
        hrb_curl_set_long(handle, CURLOPT_POST, 1)
        hrb_curl_set_long(handle, CURLOPT_POSTFIELDSIZE, request.body.count)
        // COPYPOSTFIELDS copies the body now; the trailing zero gives an empty body a valid pointer.
        (request.body + [0]).withUnsafeBytes { bytes in
            _ = hrb_curl_set_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
        }
        hrb_curl_set_slist(handle, CURLOPT_HTTPHEADER, headerList)
        hrb_curl_set_long(handle, CURLOPT_HTTP_VERSION, httpVersionOption(for: request.url))
        hrb_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 1)
        hrb_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 2)
        if let file = configuration.certificateAuthorityFile { hrb_curl_set_string(handle, CURLOPT_CAINFO, file) }
        hrb_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        hrb_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(configuration.connectTimeout * 1000))
        hrb_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Int(configuration.requestTimeout * 1000))
        hrb_curl_set_pointer(handle, CURLOPT_WRITEDATA, context.toOpaque())
        hrb_curl_set_write_callback(handle) { data, size, count, context in
            let collector = Unmanaged<ResponseCollector>.fromOpaque(context!).takeUnretainedValue()
            collector.body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: size * count))
            return size * count
        }
        hrb_curl_set_pointer(handle, CURLOPT_HEADERDATA, context.toOpaque())
        hrb_curl_set_header_callback(handle) { data, size, count, context in
            let collector = Unmanaged<ResponseCollector>.fromOpaque(context!).takeUnretainedValue()
            collector.addHeaderLine(String(decoding: UnsafeRawBufferPointer(start: data, count: size * count), as: UTF8.self))
            return size * count
        }
        let code = errorText.withUnsafeMutableBufferPointer { buffer in
            hrb_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, buffer.baseAddress)
            return hrb_curl_easy_perform(handle)
        }
        hrb_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, nil)
        guard code == CURLE_OK else {
            return .failure(Self.failure(code, detail: String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), url: request.url))
        }
        var status = 0
        var version = 0
        hrb_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
        hrb_curl_get_long(handle, CURLINFO_HTTP_VERSION, &version)
        let httpVersion = Self.httpVersion(version)
        if configuration.requireHTTP2, httpVersion != .http2 { return .failure(.notHTTP2(request.url)) }
        return .success(HTTPResponse(status: status, headers: collector.headers, body: collector.body, httpVersion: httpVersion))
    }

    /// https: offer HTTP/2 through ALPN. Plain http: HTTP/2 with prior knowledge when required
    /// (a local h2c push server), HTTP/1.1 otherwise.
    private func httpVersionOption(for url: String) -> Int {
        if url.lowercased().hasPrefix("https:") { return Int(CURL_HTTP_VERSION_2TLS) }
        return configuration.requireHTTP2 ? Int(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE) : Int(CURL_HTTP_VERSION_1_1)
    }

    private static func httpVersion(_ value: Int) -> HTTPVersion {
        switch value {
        case Int(CURL_HTTP_VERSION_1_0): .http1_0
        case Int(CURL_HTTP_VERSION_1_1): .http1_1
        case Int(CURL_HTTP_VERSION_2_0): .http2
        default: .other
        }
    }

    private static func failure(_ code: CURLcode, detail: String, url: String) -> HTTPFailure {
        let text = "\(url): " + (detail.isEmpty ? String(cString: hrb_curl_easy_strerror(code)) : detail)
        switch code {
        case CURLE_OPERATION_TIMEDOUT: return .timedOut(text)
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST: return .couldNotConnect(text)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CONNECT_ERROR: return .tlsRejected(text)
        default: return .transport(text)
        }
    }
}

/// Gathers one response's header lines and body from libcurl's callbacks. `package`: the
/// server-response fuzz target feeds it header lines as a server could send them.
package final class ResponseCollector {
    var body: [UInt8] = []
    package private(set) var headers: [String: String] = [:]

    package init() {}

    package func addHeaderLine(_ line: String) {
        // A new status line (after a redirect or 100-continue) starts a new header block.
        if line.hasPrefix("HTTP/") { headers = [:]; return }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmed
        headers[name] = value
    }
}
