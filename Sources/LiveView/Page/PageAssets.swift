/// The preview page and the overlay as the listener serves them: every file built into the binary
/// from Data/ (`EmbeddedData`, Plugins/EmbeddedData), nothing fetched from elsewhere (no CDN, no
/// web font: system font stacks), so the page works offline.
public enum PageAssets {
    public struct File: Sendable {
        public var path: String
        public var contentType: String
        public var body: [UInt8]
    }

    /// `GET /`, `GET /overlay` and what they load. One line per file of Data/.
    public static let files: [File] = [
        File(path: "/", contentType: html, body: Array(EmbeddedData.indexHtml.utf8)),
        File(path: "/overlay", contentType: html, body: Array(EmbeddedData.overlayHtml.utf8)),
        File(path: "/assets/preview.css", contentType: css, body: Array(EmbeddedData.previewCss.utf8)),
        File(path: "/assets/overlay.css", contentType: css, body: Array(EmbeddedData.overlayCss.utf8)),
        File(path: "/assets/preview.js", contentType: javaScript, body: Array(EmbeddedData.previewJs.utf8)),
        File(path: "/assets/overlay.js", contentType: javaScript, body: Array(EmbeddedData.overlayJs.utf8)),
        File(path: "/assets/activity-model.js", contentType: javaScript, body: Array(EmbeddedData.activityModelJs.utf8)),
        File(path: "/assets/activity-view.js", contentType: javaScript, body: Array(EmbeddedData.activityViewJs.utf8)),
        File(path: "/assets/dom.js", contentType: javaScript, body: Array(EmbeddedData.domJs.utf8)),
    ]

    /// The file served at `path`; nil for any other.
    public static func file(at path: String) -> File? {
        files.first { $0.path == path }
    }

    /// Header fields for every page response. The policy lets the pages run only their own scripts
    /// and styles and talk only to this server: were a label ever put into markup, no script in it
    /// could run. `nosniff` keeps a browser from reading a script as anything else.
    public static let securityHeaders: [(name: String, value: String)] = [
        ("Content-Security-Policy",
         "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        // The files change only with the binary: a browser may keep them for a short while.
        ("Cache-Control", "no-cache"),
    ]

    static let html = "text/html; charset=utf-8"
    static let css = "text/css; charset=utf-8"
    static let javaScript = "text/javascript; charset=utf-8"
}
