import Foundation
import LiveView
import Testing

@Suite struct PageAssetsTests {
    static let dataFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/LiveView/Data")

    @Test func everyFileOfDataIsServedByteForByte() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.dataFolder.path).sorted()
        #expect(PageAssets.files.count == names.count, "a file in Data/ that no route serves, or a route for none")
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: Self.dataFolder.appendingPathComponent(name)))
            let served = PageAssets.files.filter { $0.body == bytes }
            #expect(served.count == 1, "\(name)")
        }
    }

    @Test func nothingIsFetchedFromElsewhere() {
        for file in PageAssets.files {
            // The SVG namespace is a name, not an address anything is fetched from.
            let text = String(decoding: file.body, as: UTF8.self).replacingOccurrences(of: "\"http://www.w3.org/2000/svg\"", with: "")
            for outside in ["http://", "https://", "@import", "@font-face", "src=\"//", "href=\"//"] {
                #expect(!text.contains(outside), "\(file.path) mentions \(outside)")
            }
            // Markup from data would be a way in for a label like <script>: the scripts never write any.
            #expect(!text.contains("innerHTML") && !text.contains("insertAdjacentHTML") && !text.contains("document.write"), "\(file.path)")
        }
    }

    @Test func thePagesLoadOnlyServedFilesAndTheirScriptsImportOnlyServedFiles() {
        let served = Set(PageAssets.files.map(\.path))
        for file in PageAssets.files {
            let text = String(decoding: file.body, as: UTF8.self)
            let references = text.matches(of: /(?:href|src)="([^"]+)"|from "\.\/([^"]+)"/).map { match in
                match.output.1.map(String.init) ?? "/assets/" + (match.output.2.map(String.init) ?? "")
            }
            for reference in references { #expect(served.contains(reference), "\(file.path) loads \(reference)") }
        }
        #expect(PageAssets.file(at: "/")?.contentType == "text/html; charset=utf-8")
        #expect(PageAssets.file(at: "/assets/preview.js")?.contentType == "text/javascript; charset=utf-8")
        #expect(PageAssets.file(at: "/etc/passwd") == nil)
    }
}
