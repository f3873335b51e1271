/// Walks a FIT file once, front to back, and hands each data message to the caller as it is
/// decoded, keeping nothing but the 16 local definitions and the last timestamp: memory stays
/// flat and time linear in the file's size. A chain of FIT files (header, records, CRC, again)
/// reads as one.
///
/// The file CRC is checked at the end of each file, and also when decoding fails inside it: a
/// CRC mismatch is then the error reported, since a corrupt byte explains the odd message
/// better than the message does. What the caller saw before an error must be thrown away.
struct FITDecoder {
    var bytes: [UInt8]

    /// Decodes every message; returns what was skipped on the way (developer fields, fields that
    /// cannot be read as their base type).
    func decode(_ handle: (FITDataMessage) throws(FITFormatError) -> Void) throws(FITFormatError) -> [FITSkip: Int] {
        var skipped: [FITSkip: Int] = [:]
        var start = 0
        repeat {
            let header = try FITFileHeader(bytes, at: start)
            let recordsEnd = start + header.size + header.dataSize
            guard recordsEnd + 2 <= bytes.count else {
                throw FITFormatError(offset: bytes.count, reason: "the file ends before the \(header.dataSize) bytes of records and the CRC its header announces (truncated)")
            }
            do {
                try decodeRecords(from: start + header.size, to: recordsEnd, skipped: &skipped, handle)
            } catch {
                try checkCRC(of: start..<recordsEnd)
                throw error
            }
            try checkCRC(of: start..<recordsEnd)
            start = recordsEnd + 2
        } while start < bytes.count
        return skipped
    }

    private func decodeRecords(from start: Int, to end: Int, skipped: inout [FITSkip: Int],
                               _ handle: (FITDataMessage) throws(FITFormatError) -> Void) throws(FITFormatError)
    {
        var definitions = [FITMessageDefinition?](repeating: nil, count: FITRecordHeader.localTypes)
        var timeline = FITTimeline()
        var offset = start
        while offset < end {
            let headerOffset = offset
            offset += 1
            let localType: Int
            var time: UInt32?
            switch FITRecordHeader(bytes[headerOffset]) {
            case let .definition(type, hasDeveloperFields):
                (definitions[type], offset) = try FITMessageDefinition.read(bytes, at: offset, end: end, hasDeveloperFields: hasDeveloperFields)
                continue
            case let .data(type):
                localType = type
            case let .compressedTimestamp(type, timeOffset):
                localType = type
                guard let resolved = timeline.compressed(offset: timeOffset) else {
                    throw FITFormatError(offset: headerOffset, reason: "compressed timestamp header before any full timestamp")
                }
                time = resolved
            }
            guard let definition = definitions[localType] else {
                throw FITFormatError(offset: headerOffset, reason: "data message of local type \(localType) has no definition before it")
            }
            guard offset + definition.dataSize <= end else {
                throw FITFormatError(offset: headerOffset, reason: "data message runs past the end of the records at byte \(end) (truncated or corrupt)")
            }
            var message = FITDataMessage(definition: definition, bytes: bytes, start: offset, offset: headerOffset, time: time)
            if let stamp = message.field(Self.timestampField)?.integer().flatMap({ UInt32(exactly: $0) }) {
                message.time = stamp
                timeline.sawTimestamp(stamp)
            }
            skipped[.developerFields, default: 0] += definition.developerFieldCount
            skipped[.unreadableFields, default: 0] += definition.unreadableFieldCount
            try handle(message)
            offset += definition.dataSize
        }
    }

    private func checkCRC(of range: Range<Int>) throws(FITFormatError) {
        let stored = UInt16(FITBytes.littleEndian(bytes, at: range.upperBound, size: 2))
        let computed = FITCRC.of(bytes[range])
        guard stored == computed else {
            throw FITFormatError(offset: range.upperBound, reason: "file CRC \(FITBytes.hex(stored)) does not match its bytes' \(FITBytes.hex(computed)) (corrupt)")
        }
    }

    /// Field 253 is the timestamp of every message that has one.
    static let timestampField: UInt8 = 253
}
