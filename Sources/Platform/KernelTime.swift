#if canImport(Glibc)
import Glibc
#endif

/// A kernel clock's time in nanoseconds since its epoch: one read for the timers and executors.
public func kernelNanoseconds(_ clock: clockid_t) -> Int64 {
    var spec = timespec()
    clock_gettime(clock, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
}

extension Duration {
    /// Whole nanoseconds (the attoseconds below one are dropped).
    public var wholeNanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}
