import Platform
import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

/// The transport against real clients (curl, Python's http.client and raw sockets) on loopback:
/// what a handler gets, what the limits refuse, and that a slow client is cut off while others
/// are served.
@Suite(.timeLimit(.minutes(1))) struct LiveServerTests {
    static func start(limits: ServerLimits = ServerLimits(), tls: TLSCredentials? = nil,
                      handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws -> (HTTPServer, String) {
        let configuration = HTTPServer.Configuration(
            socket: .address(try ListenAddress(parsing: "127.0.0.1:0")), tls: tls, limits: limits, log: { _ in },
            reject: { .text($0.status, $0.reason + "\n") }
        )
        let server = try HTTPServer.start(configuration, handler: handler)
        let address = try #require(server.boundAddress)
        #expect(address.port != 0)
        return (server, "\(tls == nil ? "http" : "https")://\(address)")
    }

    static let echo: @Sendable (HTTPRequest) -> HTTPResponse = { request in
        let text = "\(request.method) \(request.path) \(request.header("X-Test") ?? "-") \(request.body.count)\n"
        return .text(200, text + String(decoding: request.body, as: UTF8.self))
    }

    /// curl's body and status (`-w`), never failing on an HTTP error.
    static func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
        let output = try runTool("/usr/bin/curl", ["-s", "-S", "--max-time", "10", "-w", "\n%{http_code}"] + arguments)
        let status = output.split(separator: "\n").last.flatMap { Int($0) } ?? 0
        return (status, String(output.dropLast(String(status).count + 1)))
    }

    @Test func curlAndPythonGetWhatTheHandlerAnswers() throws {
        let (server, base) = try Self.start(handler: Self.echo)
        defer { server.stop() }
        let get = try Self.curl(["-H", "X-Test: yes", base + "/some/path?query=1"])
        #expect(get.status == 200 && get.body == "GET /some/path yes 0\n", "\(get)")
        let put = try Self.curl(["-X", "PUT", "-H", "Content-Type: application/json", "--data-binary", #"{"a":1}"#, base + "/p%20q"])
        #expect(put.status == 200 && put.body == "PUT /p q - 7\n{\"a\":1}", "\(put)")
        let python = try runTool("/usr/bin/python3", ["-c", """
            import http.client, sys
            host, port = sys.argv[1].rsplit(":", 1)
            connection = http.client.HTTPConnection(host, int(port), timeout=10)
            for body in (b"first", b"second"):  # two requests on one kept-alive connection
                connection.request("POST", "/x", body=body, headers={"X-Test": "py"})
                response = connection.getresponse()
                print(response.status, response.read().decode().replace("\\n", "|"))
            """, String(base.dropFirst("http://".count))])
        #expect(python == "200 POST /x py 5|first\n200 POST /x py 6|second\n", "\(python)")
    }

    @Test func aBodyOverTheLimitIs413WhetherItsLengthIsDeclaredOrChunked() throws {
        let handled = Counter()
        let (server, base) = try Self.start { request in
            handled.add()
            return Self.echo(request)
        }
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        let large = try directory.write("large", String(repeating: "x", count: 16 * 1024 + 1))
        let declared = try Self.curl(["--data-binary", "@" + large, base + "/"])
        #expect(declared.status == 413 && declared.body.contains("larger than 16 KiB"), "\(declared)")
        let chunked = try Self.curl(["-H", "Transfer-Encoding: chunked", "--data-binary", "@" + large, base + "/"])
        #expect(chunked.status == 413, "\(chunked)")
        let fits = try directory.write("fits", String(repeating: "x", count: 16 * 1024))
        #expect(try Self.curl(["--data-binary", "@" + fits, base + "/"]).status == 200)
        #expect(handled.count == 1, "the handler never saw the large ones")
    }

    /// A client that sends its whole body without `Expect: 100-continue` before it reads (Python's
    /// urllib, many libraries) must get the 413, not a reset from a close while its body still
    /// arrives. Paced as a network would carry it (64 KiB every 10 ms), the body is still coming
    /// when the answer is ready: without the drain each of these lost its answer (broken pipe).
    /// Then urllib itself, and a kept-alive connection (http.client) that is served again after.
    @Test func aClientSendingABodyOverTheLimitWholeGetsThe413() throws {
        let (server, base) = try Self.start(handler: Self.echo)
        defer { server.stop() }
        let output = try runTool("/usr/bin/python3", ["-c", """
            import http.client, socket, sys, time, urllib.error, urllib.request
            host, port = sys.argv[1][len("http://"):].rsplit(":", 1)
            body = b"x" * (1024 * 1024)
            for attempt in range(3):
                client = socket.create_connection((host, int(port)), timeout=10)
                try:
                    client.sendall(b"POST / HTTP/1.1\\r\\nHost: h\\r\\nConnection: close\\r\\nContent-Length: %d\\r\\n\\r\\n" % len(body))
                    for start in range(0, len(body), 65536):
                        client.sendall(body[start:start + 65536])
                        time.sleep(0.01)
                    answer = b""
                    while chunk := client.recv(65536):
                        answer += chunk
                    print("paced", answer.split(b"\\r\\n")[0].decode())
                except OSError as error:
                    print("paced, no answer:", error)
                client.close()
            for attempt in range(3):
                try:
                    urllib.request.urlopen(urllib.request.Request(sys.argv[1] + "/", data=body, method="POST"), timeout=10)
                    print("urllib answered 2xx")
                except urllib.error.HTTPError as error:
                    print("urllib", error.code, error.read().decode().strip())
                except OSError as error:
                    print("urllib, no answer:", error)
            connection = http.client.HTTPConnection(host, int(port), timeout=10)
            for data in (body, b"small"):
                connection.request("POST", "/kept", body=data)
                response = connection.getresponse()
                print("kept", response.status, response.read().decode().split("\\n")[0])
            """, base])
        let expected = Array(repeating: "paced HTTP/1.1 413 Content Too Large", count: 3)
            + Array(repeating: "urllib 413 the body is larger than 16 KiB", count: 3)
            + ["kept 413 the body is larger than 16 KiB", "kept 200 POST /kept - 5"]
        #expect(output.split(separator: "\n").map(String.init) == expected, "\(output)")
    }

    @Test func aClientSendingAByteASecondIsCutOffWhileOthersAreServed() throws {
        var limits = ServerLimits()
        limits.requestSeconds = 2
        let (server, base) = try Self.start(limits: limits, handler: Self.echo)
        defer { server.stop() }
        let slow = Process()
        slow.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        slow.arguments = ["-c", """
            import socket, sys, time
            host, port = sys.argv[1].rsplit(":", 1)
            client = socket.create_connection((host, int(port)))
            start = time.monotonic()
            try:
                for byte in b"GET /slow HTTP/1.1\\r\\nHost: x\\r\\nX-Padding: " + b"y" * 30:
                    client.send(bytes([byte]))
                    time.sleep(1)
                print("never cut off")
            except OSError:
                print("cut off after %.0f s" % (time.monotonic() - start))
            """, String(base.dropFirst("http://".count))]
        let output = Pipe()
        slow.standardOutput = output
        try slow.run()
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try Self.curl([base + "/meanwhile"]).status == 200, "served while the slow one trickles")
        slow.waitUntilExit()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.hasPrefix("cut off after "), "\(said)")
        let seconds = Int(said.dropFirst("cut off after ".count).prefix { $0.isNumber }) ?? 99
        #expect(seconds >= 2 && seconds <= 5, "cut off near the 2 s deadline: \(said)")
    }

    @Test func aStreamedBodyArrivesChunkByChunkAndStoppingClosesIt() throws {
        let stream = CountingStream(chunks: 3)
        let (server, base) = try Self.start { request in
            request.path == "/forever" ? HTTPResponse(status: 200, body: .stream(BlockingStream())) : HTTPResponse(status: 200, body: .stream(stream))
        }
        let whole = try Self.curl([base + "/"])
        #expect(whole.status == 200 && whole.body == "chunk 1\nchunk 2\nchunk 3\n", "\(whole)")
        let released = stream.closed.load(ordering: .relaxed)
        #expect(released, "the library let go of it")
        // A stream that waits for ever holds its connection's thread: stopping must close it first.
        let waiting = Process()
        waiting.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        waiting.arguments = ["-s", "-N", base + "/forever"]
        waiting.standardOutput = FileHandle.nullDevice
        try waiting.run()
        Thread.sleep(forTimeInterval: 0.5)
        let stopped = Date()
        server.stop()
        #expect(Date().timeIntervalSince(stopped) < 3, "stop did not wait on the stream")
        waiting.waitUntilExit()
    }

    @Test func aSecondServerOnTheSamePortSaysWhy() throws {
        let (server, base) = try Self.start(handler: Self.echo)
        defer { server.stop() }
        let taken = try ListenAddress(parsing: String(base.dropFirst("http://".count)))
        let configuration = HTTPServer.Configuration(socket: .address(taken), log: { _ in }, reject: { .text($0.status, $0.reason) })
        #expect(throws: HTTPServerError.self) { try HTTPServer.start(configuration, handler: Self.echo) }
        do {
            _ = try HTTPServer.start(configuration, handler: Self.echo)
        } catch {
            #expect(error.description.contains("Address already in use"), "\(error)")
        }
    }
}

/// Three chunks, then the end.
final class CountingStream: HTTPStream, @unchecked Sendable {
    private let chunks: Int
    private var sent = 0
    let closed = Atomic(false)

    init(chunks: Int) { self.chunks = chunks }

    func next(limit: Int) -> [UInt8]? {
        guard sent < chunks else { return nil }
        sent += 1
        return Array("chunk \(sent)\n".utf8)
    }

    func close() { closed.store(true, ordering: .relaxed) }
}

/// Waits until closed, as an event stream with no events does.
final class BlockingStream: HTTPStream, @unchecked Sendable {
    private let condition = NSCondition()
    private var closed = false

    func next(limit: Int) -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while !closed { condition.wait() }
        return nil
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}

final class Counter: Sendable {
    private let value = Atomic(0)
    func add() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}
