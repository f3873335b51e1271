/// What is wrong with a FIT file, and the byte (counted from 0) where the decoder found it. The
/// importer adds the path (`ImportError`); the decoder itself knows only bytes.
struct FITFormatError: Error, Hashable {
    var offset: Int
    var reason: String
}
