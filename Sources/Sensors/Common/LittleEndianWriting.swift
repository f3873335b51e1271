/// Appends `value` least significant byte first, as every GATT value in the SIG's specifications
/// is laid out: what the encoders write and `LittleEndianReader` reads back.
func appendLittleEndian<Value: FixedWidthInteger>(_ value: Value, to bytes: inout [UInt8]) {
    for shift in stride(from: 0, to: Value.bitWidth, by: 8) {
        bytes.append(UInt8(truncatingIfNeeded: value >> shift))
    }
}
