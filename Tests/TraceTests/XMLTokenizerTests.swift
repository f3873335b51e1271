import Testing
@testable import Trace

/// The tokenizer on its own: what each piece of markup becomes, and every malformation with its line.
@Suite struct XMLTokenizerTests {
    static func tokens(_ document: String) throws -> [String] {
        var tokenizer = XMLTokenizer(XMLByteStream(bytes: Array(document.utf8)))
        var rendered: [String] = []
        while let token = try tokenizer.next() {
            switch token.kind {
            case let .start(name, attributes, isEmpty):
                let attributeText = attributes.map { " \($0.name)=[\($0.value)]" }.joined()
                rendered.append("\(token.line):<\(name)\(attributeText)\(isEmpty ? "/" : "")>")
            case let .end(name):
                rendered.append("\(token.line):</\(name)>")
            case let .text(text):
                rendered.append("\(token.line):\"\(text)\"")
            }
        }
        return rendered
    }

    @Test(arguments: [
        ("<a>x</a>", ["1:<a>", "1:\"x\"", "1:</a>"]),
        ("<a/>", ["1:<a/>"]),
        ("<a  x='1'\ny = \"2\" />", ["1:<a x=[1] y=[2]/>"]),
        ("<ns3:TPX CadenceSensor=\"Footpod\"></ns3:TPX >", ["1:<ns3:TPX CadenceSensor=[Footpod]>", "1:</ns3:TPX>"]),
        // the five predefined entities and character references, in text and in attributes
        ("<a t=\"&lt;&gt;&amp;&apos;&quot;\">&lt;&gt;&amp;&apos;&quot;</a>", ["1:<a t=[<>&'\"]>", "1:\"<>&'\"\"", "1:</a>"]),
        ("<a>&#233;&#xE9;&#x1F3C3;</a>", ["1:<a>", "1:\"éé🏃\"", "1:</a>"]),
        // attribute-value normalization: tab and newline become spaces
        ("<a v=\"1\t2\n3\"/>", ["1:<a v=[1 2 3]/>"]),
        // CDATA is text as written; comments, processing instructions and the DOCTYPE are not tokens
        ("<a><![CDATA[<b>&amp;]]]></a>", ["1:<a>", "1:\"<b>&amp;]\"", "1:</a>"]),
        ("<?xml version=\"1.0\"?><!DOCTYPE a [<!ENTITY e \"]>\">]><!-- <b> -- --><a><?pi x?>1<!--c-->2</a>",
         ["1:<a>", "1:\"1\"", "1:\"2\"", "1:</a>"]),
        // lines count from 1, each token at the line it starts
        ("<a>\n  <b>\n1</b>\n</a>", ["1:<a>", "1:\"\n  \"", "2:<b>", "2:\"\n1\"", "3:</b>", "3:\"\n\"", "4:</a>"]),
        // UTF-8 passes through, in names too
        ("<é a=\"ü\">ß</é>", ["1:<é a=[ü]>", "1:\"ß\"", "1:</é>"]),
    ])
    func tokenizes(document: String, expected: [String]) throws {
        #expect(try Self.tokens(document) == expected)
    }

    @Test(arguments: [
        ("<a>&nbsp;</a>", 1, "unknown entity or bad character reference '&nbsp;'"),
        ("<a>\nAT&T</a>", 2, "'&' starts no entity or character reference (write it as &amp;)"),
        ("<a>&#0;</a>", 1, "unknown entity or bad character reference '&#0;'"),
        ("<a>&#xD800;</a>", 1, "unknown entity or bad character reference '&#xD800;'"),
        ("<a>&#12a;</a>", 1, "unknown entity or bad character reference '&#12a;'"),
        ("<a>&amp", 1, "'&' starts no entity or character reference (write it as &amp;)"),
        ("<a x=1/>", 1, "the value of attribute 'x' in <a> is not quoted"),
        ("<a x=\"1\"y=\"2\"/>", 1, "no space before attribute in <a>"),
        ("<a x=\"1\" x=\"2\"/>", 1, "attribute 'x' given twice in <a>"),
        ("<a x/>", 1, "attribute 'x' in <a> has no '=value'"),
        ("<a x=\"<\"/>", 1, "'<' in the value of attribute 'x' (write it as &lt;)"),
        ("<a\n x=\"1", 2, "the file ends inside the value of attribute 'x' opened at line 2"),
        ("<a\nx=\"1\"", 2, "the file ends inside the tag <a> opened at line 1"),
        ("<a/ >", 1, "'/' not followed by '>' in <a>"),
        ("< a>", 1, "' ' cannot start a name"),
        ("<1a>", 1, "'1' cannot start a name"),
        ("<a></a", 1, "end tag </a> not closed by '>'"),
        ("<", 1, "the file ends after '<'"),
        ("<a></", 1, "the file ends after '</'"),
        ("<!-- open\n\n", 3, "the file ends inside the comment opened at line 1"),
        ("<a><![CDATA[x]]</a>", 1, "the file ends inside the CDATA section opened at line 1"),
        ("<?xml version=\"1.0\"", 1, "the file ends inside the processing instruction opened at line 1"),
        ("<!DOCTYPE a [\n", 2, "the file ends inside the DOCTYPE opened at line 1"),
        ("<!ELEMENT a>", 1, "'<!' starts no comment, CDATA section or DOCTYPE"),
        ("<!-x->", 1, "'<!' starts no comment, CDATA section or DOCTYPE"),
    ])
    func refusesMalformedMarkup(document: String, line: Int, reason: String) {
        #expect(throws: XMLError(line: line, reason: reason)) { try Self.tokens(document) }
    }
}
