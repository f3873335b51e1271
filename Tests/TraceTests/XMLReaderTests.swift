import Foundation
import TestSupport
import Testing
@testable import Trace

/// The reader over the tokenizer: names resolved by namespace, well-formedness across tags, the
/// pull helpers the importers walk documents with, and reading a file through its fixed buffer.
@Suite struct XMLReaderTests {
    static func events(_ document: String) throws -> [String] {
        var reader = XMLReader(XMLByteStream(bytes: Array(document.utf8)))
        var rendered: [String] = []
        while let event = try reader.next() {
            switch event {
            case let .start(element):
                let attributes = element.attributes.map { " \($0.name)=\($0.value)" }.joined()
                rendered.append("<\(element.name)\(attributes)>@\(element.line)")
            case let .end(name, text):
                rendered.append("</\(name)>\(text.isEmpty ? "" : " \"\(text)\"")")
            }
        }
        return rendered
    }

    /// The same names however the file spells their prefixes; a default namespace reset to none
    /// (`xmlns=""`, as TrainerRoad writes) and redeclared prefixes apply to their element only.
    @Test func resolvesNamesByNamespaceNotPrefix() throws {
        let document = """
        <r xmlns="urn:d" xmlns:p="urn:p">
          <p:a p:x="1" y="2"/>
          <q:a xmlns:q="urn:p"/>
          <a xmlns="urn:p"><b/></a>
          <c xmlns=""><d/></c>
          <p:e xmlns:p="urn:other"/>
          <p:f/>
        </r>
        """
        #expect(try Self.events(document) == [
            "<{urn:d}r>@1",
            "<{urn:p}a {urn:p}x=1 y=2>@2", "</{urn:p}a>",
            "<{urn:p}a>@3", "</{urn:p}a>",
            "<{urn:p}a>@4", "<{urn:p}b>@4", "</{urn:p}b>", "</{urn:p}a>",
            "<c>@5", "<d>@5", "</d>", "</c>",
            "<{urn:other}e>@6", "</{urn:other}e>",
            "<{urn:p}f>@7", "</{urn:p}f>",
            "</{urn:d}r>",
        ])
    }

    /// An element's text is its value only when it has no child elements; comments and CDATA
    /// within it do not cut it.
    @Test func endsCarryTheTextOfLeafElements() throws {
        #expect(try Self.events("<a> <b>1<!-- c -->2<![CDATA[3]]></b> x </a>") == ["<a>@1", "<b>@1", "</b> \"123\"", "</a>"])
        #expect(try Self.events("\u{FEFF}<?xml version=\"1.0\"?>\n<!-- before -->\n<a>&#32;</a>\n<!-- after -->\n") == ["<a>@3", "</a> \" \""])
    }

    @Test(arguments: [
        ("<a><b></a>", 1, "end tag </a> where <b> (line 1) must end"),
        ("<a xmlns:p='urn:p'>\n<p:b></p:c>", 2, "end tag </p:c> where <p:b> (line 2) must end"),
        ("<a></a></a>", 1, "end tag </a> closes no element"),
        ("<a>\n<b>\n", 3, "the file ends inside <b> opened at line 2"),
        ("<a/><b/>", 1, "a second root element <b>"),
        ("x<a/>", 1, "text outside the root element"),
        ("<a/>\nx", 2, "text outside the root element"),
        ("<!-- nothing -->\n", 2, "no root element: the file holds no XML element"),
        ("<a>\n<p:b/></a>", 2, "'p:b': namespace prefix 'p' is not declared"),
        ("<a p:x='1'/>", 1, "'p:x': namespace prefix 'p' is not declared"),
        ("<a xmlns:p=''/>", 1, "prefix 'p' in <a> is bound to an empty namespace"),
    ])
    func refusesDocumentsThatAreNotWellFormed(document: String, line: Int, reason: String) {
        #expect(throws: XMLError(line: line, reason: reason)) { try Self.events(document) }
    }

    /// The walker's `nextChild` goes through one element's children, skipping what the caller
    /// leaves unread; `text` reads a value through its end; a reader's error is the file's.
    @Test func walksChildrenSkippingWhatIsNotRead() throws {
        var reader = XMLWalker(XMLByteStream(bytes: Array("<r><a><x><y/></x><b>1</b></a><c>2</c><d/></r>".utf8)), path: "w.xml")
        let root = try #require(try reader.nextChild(inside: 0))
        #expect(root.name.local == "r")
        var seen: [String] = []
        while let child = try reader.nextChild(inside: 1) {
            if child.name.local == "a" {
                while let grandchild = try reader.nextChild(inside: 2) {
                    if grandchild.name.local == "b" { seen.append("a/b=\(try reader.text())") }
                }
            } else {
                seen.append("\(child.name.local)=\(try reader.text())")
            }
        }
        #expect(seen == ["a/b=1", "c=2", "d="])
        #expect(try reader.nextChild(inside: 0) == nil)

        var broken = XMLWalker(XMLByteStream(bytes: Array("<r>\n<a></b></r>".utf8)), path: "w.xml")
        #expect(throws: ImportError(path: "w.xml", location: "line 2", reason: "end tag </b> where <a> (line 2) must end")) {
            while try broken.nextChild(inside: 0) != nil {}
        }
    }

    /// A file is read through a 64 KiB buffer: tokens that straddle its refills read as from memory.
    @Test func readsAFileLargerThanItsBufferAsFromMemory() throws {
        var document = "<r xmlns:p=\"urn:p\">\n"
        var random = SplitMix64(seed: 11)
        while document.utf8.count < 300_000 {
            document += "<p:v n=\"\(random.below(1000))\">&amp;\(String(repeating: "x", count: Int(random.below(90))))</p:v><!-- \(random.below(7)) -->\n"
        }
        document += "</r>\n"
        let directory = try TemporaryDirectory()
        let path = try directory.write("big.xml", document)
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        var fromFile = XMLReader(XMLByteStream(descriptor: handle.fileDescriptor))
        var fromMemory = XMLReader(XMLByteStream(bytes: Array(document.utf8)))
        var count = 0
        while let event = try fromMemory.next() {
            #expect(try fromFile.next() == event)
            count += 1
        }
        #expect(try fromFile.next() == nil)
        #expect(count > 6_000)
    }
}
