#if canImport(Glibc)
import Glibc
#endif

extension Double {
    /// The value with `digits` decimals, as printf's `%.Nf` writes it (the C library's exact
    /// rounding of the binary value), e.g. `12.35.fixed(1)` is "12.3" or "12.4" just as printf says.
    public func fixed(_ digits: Int) -> String {
        withVaList([Int32(digits), self]) { arguments in
            var buffer = [CChar](repeating: 0, count: 64)
            let needed = Int(vsnprintf(&buffer, buffer.count, "%.*f", arguments))
            if needed >= buffer.count {
                buffer = [CChar](repeating: 0, count: needed + 1)
                _ = withVaList([Int32(digits), self]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
            }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}

extension Int {
    /// At least two digits, zero first (`5` → "05"), as a clock shows minutes and seconds.
    public var twoDigits: String { self < 10 && self >= 0 ? "0\(self)" : String(self) }
}

extension String {
    /// Exactly `width` characters: cut, or filled with spaces on the right (a help column).
    public func padded(to width: Int) -> String {
        count >= width ? String(prefix(width)) : self + String(repeating: " ", count: width - count)
    }
}
