extension Array where Element == UInt8 {
    /// Makes the array `count` bytes long and lets `body` write them through one pointer. Its storage
    /// is kept when nobody else holds it, so an array reused value after value allocates nothing;
    /// otherwise it copies itself first, and a value someone kept stays as it was. Emptying it and
    /// appending instead went through the array's generic range replacement and checked uniqueness
    /// and capacity for every byte. The bytes `body` does not write are unspecified.
    @inlinable
    public mutating func overwrite<Result>(count: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Result) -> Result {
        if self.count > count {
            removeLast(self.count - count)
        } else if self.count < count {
            append(contentsOf: repeatElement(0, count: count - self.count))
        }
        return withUnsafeMutableBufferPointer { bytes in body(bytes) }
    }
}
