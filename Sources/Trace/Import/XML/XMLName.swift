/// A name as XML namespaces define it: the URI its prefix (or the default namespace) stands for,
/// and the local part. `<gpxtpx:hr>` under `xmlns:gpxtpx="…/TrackPointExtension/v2"` and
/// `<hr xmlns="…/TrackPointExtension/v2">` are the same name; the prefix is the file's choice.
struct XMLName: Sendable, Hashable, CustomStringConvertible {
    /// Empty for no namespace.
    var namespace: String
    var local: String

    init(_ namespace: String, _ local: String) {
        self.namespace = namespace
        self.local = local
    }

    /// `{uri}local` (James Clark's notation), or `local` alone for no namespace.
    var description: String { namespace.isEmpty ? local : "{\(namespace)}\(local)" }
}
