#if canImport(Glibc)
import Glibc
#endif

/// Where the listener binds: `HOST:PORT` with an IPv4 address, `[IPv6]:PORT`, or `localhost:PORT`
/// (127.0.0.1). Port 0 asks the kernel for a free one (the bound address is then said on stderr).
/// Host names other than localhost are refused: a listener binds an address, and a name that
/// resolves differently tomorrow would move it.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    public enum Host: Sendable, Hashable {
        case ipv4(in_addr_t)
        /// The 16 bytes of the address.
        case ipv6([UInt8])
    }

    public let host: Host
    public let port: UInt16

    public init(host: Host, port: UInt16) {
        self.host = host
        self.port = port
    }

    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    public init(parsing text: String) throws(Problem) {
        let expected = "expected HOST:PORT (127.0.0.1:8787, [::1]:8787, localhost:8787, 0.0.0.0:8787)"
        guard let colon = text.lastIndex(of: ":") else { throw Problem(description: "\(expected), got \"\(text)\"") }
        var hostText = String(text[..<colon])
        let portText = String(text[text.index(after: colon)...])
        guard !portText.isEmpty, portText.utf8.count <= 5, portText.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let port = UInt16(portText) else {
            throw Problem(description: "\(expected): the port in \"\(text)\" is not a number from 0 to 65535")
        }
        if hostText.first == "[", hostText.last == "]" {
            hostText = String(hostText.dropFirst().dropLast())
            var address = in6_addr()
            guard inet_pton(AF_INET6, hostText, &address) == 1 else {
                throw Problem(description: "\(expected): \"\(hostText)\" is not an IPv6 address")
            }
            host = .ipv6(withUnsafeBytes(of: &address) { Array($0) })
        } else if hostText == "localhost" {
            host = .ipv4(inet_addr("127.0.0.1"))
        } else {
            var address = in_addr()
            guard inet_pton(AF_INET, hostText, &address) == 1 else {
                throw Problem(description: "\(expected): \"\(hostText)\" is not an IPv4 address (an IPv6 one goes in brackets)")
            }
            host = .ipv4(address.s_addr)
        }
        self.port = port
    }

    /// 127.0.0.0/8 or ::1 (and ::ffff:127.x.y.z): reachable from this machine alone.
    public var isLoopback: Bool {
        switch host {
        case let .ipv4(address):
            return withUnsafeBytes(of: address) { $0[0] } == 127
        case let .ipv6(bytes):
            if bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
            return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
        }
    }

    public var isIPv6: Bool { if case .ipv6 = host { true } else { false } }

    public var description: String {
        switch host {
        case var .ipv4(address):
            return Self.text(AF_INET, &address, INET_ADDRSTRLEN) + ":\(port)"
        case let .ipv6(bytes):
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
            return "[" + Self.text(AF_INET6, &address, INET6_ADDRSTRLEN) + "]:\(port)"
        }
    }

    private static func text(_ family: Int32, _ address: UnsafeRawPointer, _ length: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: Int(length))
        guard inet_ntop(family, address, &buffer, socklen_t(length)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The address as a socket address, for the library to bind.
    public func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        switch host {
        case let .ipv4(address):
            var socket = sockaddr_in()
            socket.sin_family = sa_family_t(AF_INET)
            socket.sin_port = port.bigEndian
            socket.sin_addr.s_addr = address
            return withUnsafePointer(to: &socket) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        case let .ipv6(bytes):
            var socket = sockaddr_in6()
            socket.sin6_family = sa_family_t(AF_INET6)
            socket.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &socket.sin6_addr) { $0.copyBytes(from: bytes) }
            return withUnsafePointer(to: &socket) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
    }

    /// The local address of a bound socket (what port 0 became; what systemd bound).
    public init?(boundSocket descriptor: Int32) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            let socket = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self) }
            self.init(host: .ipv4(socket.sin_addr.s_addr), port: UInt16(bigEndian: socket.sin_port))
        case AF_INET6:
            let socket = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self) }
            self.init(host: .ipv6(withUnsafeBytes(of: socket.sin6_addr) { Array($0) }), port: UInt16(bigEndian: socket.sin6_port))
        default:
            return nil
        }
    }
}
