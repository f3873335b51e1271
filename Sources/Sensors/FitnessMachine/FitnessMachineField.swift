/// The fields of one FTMS data characteristic (Treadmill Data, Indoor Bike Data, …), in wire order:
/// what each field's row in the specification's table says (FTMS 1.0 §4.4.1 for 0x2ACD, §4.9.1 for
/// 0x2AD2; GATT Specification Supplement, the characteristic's field table). A kind's `Field` enum
/// lists its rows; `FitnessMachineFields` reads a value by walking them.
public protocol FitnessMachineField: CaseIterable, Hashable, Sendable where AllCases == [Self] {
    /// The flags bit that announces the field. Several fields share a bit (Inclination and Ramp
    /// Angle Setting, the three Expended Energy fields, …): they come and go together.
    var flagBit: Int { get }
    /// Octets on the wire: 1, 2 or 3 (uint24).
    var size: Int { get }
    /// sint16 rather than uint.
    var isSigned: Bool { get }
    /// In words, for errors: "instantaneous speed".
    var name: String { get }
}

extension FitnessMachineField {
    /// FTMS §4.4.1.1 / §4.9.1.1: bit 0 is More Data, the one inverted bit. Clear, the value ends a
    /// record and carries the Instantaneous Speed; set, the speed is left out and the record goes on
    /// in the next notification (§4.19: records longer than the ATT_MTU are split). Every other
    /// bit announces its field when set.
    func isPresent(flags: UInt16) -> Bool {
        let set = flags & (1 << flagBit) != 0
        return flagBit == FitnessMachineFields<Self>.moreDataBit ? !set : set
    }
}

/// One FTMS data value read field by field: the flags, then each field its bit announces, in the
/// table's order, little-endian. Reserved flag bits (13–15) and bytes after the last announced field
/// are ignored, as FTMS lets later versions append fields; a value shorter than its flags promise is
/// refused with the field, the bit and the byte offset where it should start.
public struct FitnessMachineFields<Field: FitnessMachineField>: Sendable, Hashable {
    /// Flags bit 0, More Data.
    public static var moreDataBit: Int { 0 }

    public let flags: UInt16
    /// Raw values by `Field.allCases` index: sign-extended for sint16, nil where not announced.
    private var values: [Int?]

    public init<Bytes: Collection>(parsing bytes: Bytes) throws(FitnessMachineDataError)
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var reader = LittleEndianReader(bytes)
        guard let flags = reader.readUInt16() else { throw .noFlags(bytesAvailable: reader.remaining) }
        self.flags = flags
        values = Array(repeating: nil, count: Field.allCases.count)
        for (index, field) in Field.allCases.enumerated() where field.isPresent(flags: flags) {
            let offset = reader.index - bytes.startIndex
            let available = reader.remaining
            guard available >= field.size else {
                throw .truncated(field: field.name, flagBit: field.flagBit, size: field.size, offset: offset, bytesAvailable: available)
            }
            var raw = 0
            for shift in stride(from: 0, to: field.size * 8, by: 8) { raw |= Int(reader.readUInt8()!) << shift }
            if field.isSigned, raw >= 1 << (field.size * 8 - 1) { raw -= 1 << (field.size * 8) }
            values[index] = raw
        }
    }

    /// More Data (bit 0): this value carries no Instantaneous Speed and its record goes on.
    public var moreData: Bool { flags & (1 << Self.moreDataBit) != 0 }

    /// The field's raw value; nil when the flags leave it out.
    public subscript(field: Field) -> Int? {
        values[Field.allCases.firstIndex(of: field)!]
    }

    /// The field's raw value, nil also when it holds `notAvailable`, the specification's "Data Not
    /// Available" for it (0x7FFF, 0xFFFF, 0xFF as the field's section says).
    public func value(_ field: Field, unlessNotAvailable notAvailable: Int) -> Int? {
        self[field].flatMap { $0 == notAvailable ? nil : $0 }
    }
}
