/// One data message as it lies in the file, with its time resolved; its fields are read in place
/// while the decoder hands it over, nothing is copied.
struct FITDataMessage {
    var globalNumber: UInt16
    /// Seconds since the FIT epoch: the timestamp field (253), or else a compressed timestamp
    /// header's time; nil when the message has neither.
    var time: UInt32?
    /// Where its record header is, for errors about the message.
    var offset: Int
    fileprivate var definition: FITMessageDefinition
    fileprivate var bytes: [UInt8]
    fileprivate var start: Int

    init(definition: FITMessageDefinition, bytes: [UInt8], start: Int, offset: Int, time: UInt32?) {
        globalNumber = definition.globalNumber
        self.definition = definition
        self.bytes = bytes
        self.start = start
        self.offset = offset
        self.time = time
    }

    /// The fields that can be read (those of an unknown base type or odd size are left out).
    var fields: some Sequence<FITField> {
        definition.fields.lazy.compactMap { [bytes, start, definition] field in
            field.baseType.map { FITField(field, baseType: $0, in: bytes, messageStart: start, isBigEndian: definition.isBigEndian) }
        }
    }

    func field(_ number: UInt8) -> FITField? {
        fields.first { $0.number == number }
    }
}
