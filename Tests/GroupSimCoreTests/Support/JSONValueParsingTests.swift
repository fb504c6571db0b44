import Testing
import GroupSim

/// Reading JSON back (shard reports for `groupsim merge`): what `JSONValue` renders
/// parses to the same value, member order included (determinism rule 4, README).
@Suite struct JSONValueParsingTests {
    static let sample = JSONValue.object([
        ("zebra", .int(-42)),
        ("apple", .array([.bool(true), .bool(false), .null, .string("")])),
        ("text", .string("quote \" backslash \\ tab \t newline \n <tag> & é 🥒 \u{2028}")),
        ("nested", .object([("empty", .object([])), ("list", .array([])), ("max", .int(Int64.max)), ("min", .int(Int64.min))])),
    ])

    @Test(arguments: [nil, 2] as [Int?])
    func renderedValuesReadBack(indent: Int?) throws {
        let text = Self.sample.rendered(indent: indent)
        let read = try JSONValue.parse(text)
        #expect(read == Self.sample)
        #expect(read.rendered(indent: indent) == text)
        #expect(read["zebra"] == .int(-42))
        #expect(read["missing"] == nil)
    }

    @Test(arguments: [
        (#""\u00e9\ud83e\udd52\/""#, "é🥒/"),
        (#""a\bb\fc\rd""#, "a\u{08}b\u{0C}c\rd"),
        (" \n\t\"x\"\r\n ", "x"),
    ])
    func escapes(_ text: String, _ expected: String) throws {
        #expect(try JSONValue.parse(text) == .string(expected))
    }

    @Test(arguments: [
        ("", "1:1: expected a JSON value, found the end of the text"),
        ("{\"a\": 1, \"a\": 2}", "1:13: duplicate key \"a\""),
        ("[1, 2.5]", "1:6: only whole numbers are supported"),
        ("[1e3]", "1:3: only whole numbers are supported"),
        ("[01]", "1:4: a number may not start with 0"),
        ("-99999999999999999999", "1:22: number out of range"),
        ("{\n  \"a\": tru\n}", "2:8: expected true"),
        ("[1,]", "1:4: expected a JSON value"),
        ("{\"a\" 1}", "1:6: expected \":\" after \"a\""),
        ("\"\\ud83e\"", "1:8: unpaired surrogate in \\u escape"),
        ("\"\\u12G4\"", "1:6: expected four hex digits after \\u"),
        ("\"line\nbreak\"", "1:6: control character in a string"),
        ("\"open", "1:6: unterminated string"),
        ("[] []", "1:4: unexpected text after the JSON value"),
    ])
    func errorsSayWhere(_ text: String, _ message: String) {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(text) }
        do {
            _ = try JSONValue.parse(text)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func deepNestingIsRefused() {
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(deep) }
    }
}
