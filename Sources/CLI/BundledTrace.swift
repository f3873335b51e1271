import Foundation

/// The trace shipped inside hrbridge so that `hrbridge replay` works with no strap and no file:
/// a 64-minute treadmill run recorded with a Polar strap, imported from
/// shared/recordings/pri_treadmill_12km.hr.csv (polar-running-index 1.0.0 test fixture).
enum BundledTrace {
    static var path: String {
        Bundle.module.path(forResource: "treadmill-12km", ofType: "trace") ?? "treadmill-12km.trace"
    }
}
