import FoundationEssentials
import Platform

/// Undelivered lifecycle steps of one sink, kept on disk between runs: written at shutdown, loaded
/// and delivered first at the next start. One JSON `Delivery` per line. The file stays until the
/// next shutdown rewrites it, so a crash in between re-sends (harmless: requests are idempotent)
/// rather than loses.
public struct Spool: Sendable {
    public let path: String
    /// The kinds of message its sink's deliveries may hold (an APNs spool's lines hold pushes or whole
    /// requests), in the order a line is tried for them.
    private let messageTypes: [any DeliveryMessage.Type]

    /// `directory/<sink name with every character outside [A-Za-z0-9.-] replaced by _>.ndjson`
    public init(directory: String, sinkName: String, holding messageTypes: [any DeliveryMessage.Type]) {
        path = FilePath.join(directory, Self.safeFileName(sinkName) + ".ndjson")
        self.messageTypes = messageTypes
    }

    /// `name` with every character outside [A-Za-z0-9.-] replaced by `_`: a URL or an address becomes
    /// one file name, readable and never a path.
    public static func safeFileName(_ name: String) -> String {
        String(name.unicodeScalars.map { scalar -> Character in
            scalar.isASCIILetterOrDigit || scalar == "." || scalar == "-"
                ? Character(scalar) : "_"
        })
    }

    /// What the last run left; unreadable lines are reported through `warn` and skipped.
    public func load(warn: (String) -> Void) -> [Delivery] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        var deliveries: [Delivery] = []
        for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() {
            do {
                deliveries.append(try JSONDecoder().decode(SpooledDelivery.self, from: Data(line), configuration: messageTypes).delivery)
            } catch {
                warn("\(path):\(index + 1): unreadable spooled delivery, skipped: \(error)")
            }
        }
        return deliveries
    }

    /// Replaces the spool with `deliveries`, or removes it when there are none.
    public func store(_ deliveries: [Delivery]) throws {
        guard !deliveries.isEmpty else {
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            return
        }
        var text = Data()
        for delivery in deliveries {
            text.append(contentsOf: delivery.spoolLine())
            text.append(UInt8(ascii: "\n"))
        }
        try FileManager.default.createDirectory(atPath: FilePath.parent(of: path), withIntermediateDirectories: true)
        try text.write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// A spool's line read back, with the kinds of message its sink sends as the decoding's configuration.
private struct SpooledDelivery: DecodableWithConfiguration {
    let delivery: Delivery

    init(from decoder: any Decoder, configuration messageTypes: [any DeliveryMessage.Type]) throws {
        delivery = try Delivery.decoded(from: decoder, messageTypes: messageTypes)
    }
}
