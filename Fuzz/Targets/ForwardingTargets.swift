import Forwarding

extension FuzzTarget {
    /// What a lifecycle server or APNs sends back: the body's error text and APNs reason, and the
    /// header lines libcurl hands over (split at the first CR LF or LF of the input: header, body).
    static let serverResponse = FuzzTarget(name: "server-response", summary: "lifecycle/APNs error bodies and response header lines") { bytes throws(ContractViolation) in
        let split = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        let headerBlock = String(decoding: bytes[..<split], as: UTF8.self)
        let body = Array(bytes[min(split + 1, bytes.endIndex)...])
        let collector = ResponseCollector()
        for line in headerBlock.split(separator: "\r", omittingEmptySubsequences: false) { collector.addHeaderLine(String(line)) }
        for name in collector.headers.keys where name != name.lowercased() {
            throw ContractViolation("response headers: name \(name) is not lower-cased, so a lookup misses it")
        }
        _ = APNsClient.errorBody(body)
        let text = LifecycleTransmitter.errorText(body)
        guard (text == nil) == body.isEmpty else {
            throw ContractViolation("lifecycle error text \(String(describing: text)) for a body of \(body.count) bytes")
        }
    }

    /// The spool a run left, holding any kind of message: every line that loads, stored again and loaded, is the same delivery,
    /// and a stored spool loads without a warning.
    static let spool = FuzzTarget(name: "spool", summary: "the delivery spool file, stored and loaded again") { bytes throws(ContractViolation) in
        _ = ScratchFile.write(bytes, to: "fuzz.ndjson")
        let spool = Spool(directory: ScratchFile.directory, sinkName: "fuzz",
                          holding: [MQTTPublications.self, LiveActivityPush.self, BroadcastPush.self, HTTPRequest.self])
        let loaded = spool.load { _ in }
        guard !loaded.isEmpty else { return }
        do {
            try spool.store(loaded)
        } catch {
            throw ContractViolation("spool: storing what was loaded failed: \(error)")
        }
        var warnings: [String] = []
        let again = spool.load { warnings.append($0) }
        try expectSame(warnings, [], "spool stored and loaded: warnings")
        try expectSame(loaded, again, "spool stored and loaded")
    }

    /// The push tokens a run left (`<state>/push-tokens/<key>.json`): what reads, written and read
    /// again, is the same registry, and writing it again gives the same bytes.
    static let pushTokens = FuzzTarget(name: "push-tokens", summary: "the push-token file, written and read again") { bytes throws(ContractViolation) in
        guard let registry = try? TokenRegistry(decoding: bytes) else { return }
        let written = registry.encoded()
        do {
            let again = try TokenRegistry(decoding: written)
            try expectSame(registry, again, "push tokens written and read")
            try expectSame(written, again.encoded(), "push tokens written twice")
        } catch let violation as ContractViolation {
            throw violation
        } catch {
            throw ContractViolation("push tokens: what was written does not read back: \(error)")
        }
    }
}
