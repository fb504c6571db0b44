import Testing
@testable import GroupSimCore

/// The escapes that once lived beside their callers (the JUnit attribute, the shell's
/// `$'...'` word) and the one thousands separator, now each written once in Core.
@Suite struct EscaperTests {
    @Test func xmlAttributeKeepsLineBreaksAsReferences() {
        #expect(Escaper.xmlAttribute("a\"b<\n\t\r\u{01}&") == "a&quot;b&lt;&#10;&#9;&#13;?&amp;")
        #expect(Escaper.xml("a\n\u{01}") == "a\n?")
    }

    @Test func shellWordsWithControlCharactersAreDollarQuoted() {
        #expect(ShellWord.quote("it's\n\u{1B}[1m\u{202E}") == "$'it\\'s\\n\\x1B[1m\\xE2\\x80\\xAE'")
        #expect(ShellWord.quote("it's") == "'it'\\''s'")
        #expect(Escaper.terminal("a\tb\n\u{1B}") == "a\tb\n\\u{1B}")
    }

    @Test(arguments: [(0, "0"), (999, "999"), (1_000, "1,000"), (-41_200, "-41,200"), (Int.min, "-9,223,372,036,854,775,808")])
    func thousandsSeparators(_ number: Int, _ text: String) {
        #expect(number.grouped == text)
    }

    @Test func bytesThatAreNotUTF8AreRefusedByPlace() throws {
        #expect(throws: JSONValue.ParseError(line: 2, column: 3, message: "bytes that are not UTF-8 text")) {
            try JSONValue.parse(Array("[\n\"é".utf8) + [0xFF, 0x22, 0x5D])
        }
        #expect(try JSONValue.parse(Array("[\"é\"]".utf8)) == .array([.string("é")]))
    }
}
