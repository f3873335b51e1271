/// Why an FTMS data value (0x2ACD, 0x2AD2) could not be read. The description says what the flags
/// promised and at which byte it should have started, so a user can lay it beside btmon or nRF
/// Connect: "flags bit 2 promises total distance (3 bytes) at byte 4 but 2 bytes follow".
public enum FitnessMachineDataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Fewer than the two flag bytes every value starts with.
    case noFlags(bytesAvailable: Int)
    /// The flags announce `field` (`size` bytes, starting at byte `offset`) but fewer remain.
    case truncated(field: String, flagBit: Int, size: Int, offset: Int, bytesAvailable: Int)

    public var description: String {
        switch self {
        case .noFlags(0):
            return "empty value: no flags"
        case let .noFlags(available):
            return "every value starts with 2 bytes of flags but \(byteCount(available)) came"
        case let .truncated(field, bit, size, offset, available):
            // Bit 0 is the inverted one: clear, it promises the speed (FTMS §4.4.1.1, §4.9.1.1).
            let promise = bit == 0 ? "flags bit 0 (More Data) clear promises" : "flags bit \(bit) promises"
            return "\(promise) \(field) (\(byteCount(size))) at byte \(offset) but \(bytesFollow(available))"
        }
    }
}
