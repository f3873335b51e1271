import Foundation

/// The trace shipped inside hrbridge so that `hrbridge replay` works with no strap and no file:
/// a 64-minute treadmill run recorded with a Polar strap (see Resources/README.md).
enum BundledTrace {
    static var path: String {
        Bundle.module.path(forResource: "treadmill-12km", ofType: "trace") ?? "treadmill-12km.trace"
    }
}
