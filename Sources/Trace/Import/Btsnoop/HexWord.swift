import Sensors

extension UInt16 {
    /// `0x002a`: how handles are written in messages and in `--handle`.
    var hexWord: String { "0x\(Hex.encode([UInt8(self >> 8), UInt8(self & 0xFF)]))" }
}
