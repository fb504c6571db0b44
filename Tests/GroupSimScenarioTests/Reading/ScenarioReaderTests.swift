import Testing

@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimChecking
@testable import GroupSimReporting

@Suite struct ScenarioReaderTests {
    // MARK: Helpers

    private static let file = "test.yaml"

    private func read(_ text: String) throws(ScenarioError) -> Node {
        try ScenarioReader.read(text, file: Self.file)
    }

    private func location(_ line: Int, _ column: Int) -> GroupSim.Scenario.SourceLocation {
        GroupSim.Scenario.SourceLocation(file: Self.file, line: line, column: column)
    }

    /// The error reading `text` gives, or nil if it reads.
    private func readingError(_ text: String) -> ScenarioError? {
        do {
            _ = try read(text)
            return nil
        } catch {
            return error
        }
    }

    private func readingError(bytes: [UInt8]) -> ScenarioError? {
        do {
            _ = try ScenarioReader.read(bytes: bytes, file: Self.file)
            return nil
        } catch {
            return error
        }
    }

    /// Checks that `text` fails at `line`:`column` with a message containing `message`.
    private func expectError(
        _ text: String, line: Int, column: Int, _ message: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        guard let error = readingError(text) else {
            Issue.record("expected an error for \(text.debugDescription)", sourceLocation: sourceLocation)
            return
        }
        #expect(error.location == location(line, column), "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains(message), "\(error)", sourceLocation: sourceLocation)
    }

    private func scalar(_ text: String, _ kind: Scalar.Kind, _ style: Scalar.Style = .plain) -> Scalar {
        Scalar(text: text, kind: kind, style: style)
    }

    private func string(_ text: String, _ line: Int, _ column: Int, _ style: Scalar.Style = .plain)
        -> Node
    {
        Node(.scalar(scalar(text, .string, style)), at: location(line, column))
    }

    private func entry(_ key: String, _ line: Int, _ column: Int, _ value: Node) -> Node.Entry {
        Node.Entry(key: key, keyLocation: location(line, column), value: value)
    }

    /// The value of `key` in a mapping node.
    private func value(_ node: Node, _ key: String) -> Node? {
        guard case .mapping(let entries) = node.value else { return nil }
        return entries.first { $0.key == key }?.value
    }

    /// The scalar at the end of a path of keys.
    private func scalarAt(_ node: Node, _ keys: String...) -> Scalar? {
        var current: Node? = node
        for key in keys {
            current = current.flatMap { value($0, key) }
        }
        guard case .scalar(let scalar)? = current?.value else { return nil }
        return scalar
    }

    // MARK: Whole files

    @Test func readsTheTopLevelKeysOfTheFormatExample() throws {
        let text = """
            name: pickles-race                  # required
            about: |                            # optional prose
              Alice asks the group to pick a topping...
            seed: 7

            people:                             # required: person -> devices
              alice: [alice-phone]
              bob: [bob-phone, bob-ipad]
              carol:
                devices: [carol-phone, carol-mac]
                name: Carol Jones               # contact name others see

            devices:
              carol-mac: { platform: macos }    # ios (default) | macos
            # or several:  conversations: { family: [alice, bob] }
            network:
              latency: 80ms
              links:
                - { from: bob-phone, to: alice-phone, latency: 10ms }
            """
        let root = try read(text)
        let expected = Node(
            .mapping([
                entry("name", 1, 1, string("pickles-race", 1, 7)),
                entry(
                    "about", 2, 1,
                    string("Alice asks the group to pick a topping...\n", 2, 8, .literalBlock)),
                entry("seed", 4, 1, Node(.scalar(scalar("7", .integer(7))), at: location(4, 7))),
                entry(
                    "people", 6, 1,
                    Node(
                        .mapping([
                            entry(
                                "alice", 7, 3,
                                Node(.sequence([string("alice-phone", 7, 11)]), at: location(7, 10))),
                            entry(
                                "bob", 8, 3,
                                Node(
                                    .sequence([string("bob-phone", 8, 9), string("bob-ipad", 8, 20)]),
                                    at: location(8, 8))),
                            entry(
                                "carol", 9, 3,
                                Node(
                                    .mapping([
                                        entry(
                                            "devices", 10, 5,
                                            Node(
                                                .sequence([
                                                    string("carol-phone", 10, 15),
                                                    string("carol-mac", 10, 28),
                                                ]), at: location(10, 14))),
                                        entry("name", 11, 5, string("Carol Jones", 11, 11)),
                                    ]), at: location(10, 5))),
                        ]), at: location(7, 3))),
                entry(
                    "devices", 13, 1,
                    Node(
                        .mapping([
                            entry(
                                "carol-mac", 14, 3,
                                Node(
                                    .mapping([entry("platform", 14, 16, string("macos", 14, 26))]),
                                    at: location(14, 14)))
                        ]), at: location(14, 3))),
                entry(
                    "network", 16, 1,
                    Node(
                        .mapping([
                            entry("latency", 17, 3, string("80ms", 17, 12)),
                            entry(
                                "links", 18, 3,
                                Node(
                                    .sequence([
                                        Node(
                                            .mapping([
                                                entry("from", 19, 9, string("bob-phone", 19, 15)),
                                                entry("to", 19, 26, string("alice-phone", 19, 30)),
                                                entry("latency", 19, 43, string("10ms", 19, 52)),
                                            ]), at: location(19, 7))
                                    ]), at: location(19, 5))),
                        ]), at: location(17, 3))),
            ]), at: location(1, 1))
        #expect(root == expected)
    }

    @Test func readsTheStepsOfTheFormatExample() throws {
        let text = """
            steps:
              - at: 0ms                          # absolute virtual time
                device: alice-phone
                send: { session: poll, caption: "Pick a topping", summary: "Alice asked", data: { q: topping } }
              - after: 500ms
                device: bob-phone
                reply: { session: poll, data: { bob: tomatoes }, caption: "$me picked tomatoes" }
              - at: 500ms
                race:                            # near-simultaneous
                  within: 5ms
                  steps:
                    - { device: bob-phone, reply: { session: poll, data: { bob: tomatoes } } }
                    - { device: carol-phone, reply: { session: poll, data: { carol: pickles } } }
              - at: 2s
                device: carol-phone
                reinstall: true
            """
        let root = try read(text)
        guard case .sequence(let steps)? = value(root, "steps")?.value else {
            Issue.record("steps is not a sequence")
            return
        }
        #expect(steps.count == 4)
        #expect(value(root, "steps")?.location == location(2, 3))
        #expect(steps[0].location == location(2, 5))

        let send = Node(
            .mapping([
                entry("session", 4, 13, string("poll", 4, 22)),
                entry("caption", 4, 28, string("Pick a topping", 4, 37, .doubleQuoted)),
                entry("summary", 4, 55, string("Alice asked", 4, 64, .doubleQuoted)),
                entry(
                    "data", 4, 79,
                    Node(.mapping([entry("q", 4, 87, string("topping", 4, 90))]), at: location(4, 85))
                ),
            ]), at: location(4, 11))
        let first = Node(
            .mapping([
                entry("at", 2, 5, string("0ms", 2, 9)),
                entry("device", 3, 5, string("alice-phone", 3, 13)),
                entry("send", 4, 5, send),
            ]), at: location(2, 5))
        #expect(steps[0] == first)

        #expect(scalarAt(steps[1], "reply", "caption")?.text == "$me picked tomatoes")
        #expect(scalarAt(steps[1], "reply", "data", "bob")?.text == "tomatoes")
        #expect(scalarAt(steps[2], "race", "within")?.text == "5ms")
        guard case .sequence(let race)? = value(steps[2], "race").flatMap({ value($0, "steps") })?.value
        else {
            Issue.record("race steps is not a sequence")
            return
        }
        #expect(race.count == 2)
        #expect(race[1].location == location(13, 11))
        #expect(scalarAt(race[1], "reply", "data", "carol")?.text == "pickles")
        #expect(scalarAt(steps[3], "reinstall")?.kind == .bool(true))
    }

    // MARK: Block structure

    @Test func sequencesMayStartAtTheirKeysIndentation() throws {
        let root = try read("steps:\n- at: 0ms\n  device: x\n- 3\nexpect:\n  - a\n")
        let steps = Node(
            .sequence([
                Node(
                    .mapping([
                        entry("at", 2, 3, string("0ms", 2, 7)),
                        entry("device", 3, 3, string("x", 3, 11)),
                    ]), at: location(2, 3)),
                Node(.scalar(scalar("3", .integer(3))), at: location(4, 3)),
            ]), at: location(2, 1))
        #expect(value(root, "steps") == steps)
        #expect(value(root, "expect") == Node(.sequence([string("a", 6, 5)]), at: location(6, 3)))
    }

    @Test func nestedSequencesOnOneLine() throws {
        let root = try read("- - a\n  - b\n- c\n")
        let expected = Node(
            .sequence([
                Node(.sequence([string("a", 1, 5), string("b", 2, 5)]), at: location(1, 3)),
                string("c", 3, 3),
            ]), at: location(1, 1))
        #expect(root == expected)
    }

    @Test func emptyValuesAreNull() throws {
        let root = try read("a:\nb:   # nothing\nc:\n  -\n  - x\n")
        #expect(value(root, "a") == Node(.scalar(scalar("", .null)), at: location(1, 3)))
        #expect(value(root, "b") == Node(.scalar(scalar("", .null)), at: location(2, 3)))
        let c = Node(
            .sequence([Node(.scalar(scalar("", .null)), at: location(4, 4)), string("x", 5, 5)]),
            at: location(4, 3))
        #expect(value(root, "c") == c)
    }

    @Test func aValueMayGoOnTheNextLine() throws {
        let root = try read("a:\n  text\nb: 1\n")
        #expect(value(root, "a") == string("text", 2, 3))
    }

    @Test func quotedKeysAreStrings() throws {
        let root = try read("\"a key\": 1\n'it''s': 2\n3: three\n")
        guard case .mapping(let entries) = root.value else {
            Issue.record("not a mapping")
            return
        }
        #expect(entries.map(\.key) == ["a key", "it's", "3"])
    }

    @Test func readsCarriageReturnLineFeedsAndAByteOrderMark() throws {
        let root = try ScenarioReader.read(
            bytes: Array("\u{FEFF}a:\r\n  b: 1\r\n".utf8), file: Self.file)
        #expect(scalarAt(root, "a", "b")?.kind == .integer(1))
        #expect(value(root, "a")?.location == location(2, 3))
    }

    @Test func theRootMayBeAnyNode() throws {
        #expect(try read("hello") == string("hello", 1, 1))
        #expect(try read("[]") == Node(.sequence([]), at: location(1, 1)))
    }

    // MARK: Scalars

    @Test(arguments: [
        ("plain text here", Scalar(text: "plain text here", kind: .string, style: .plain)),
        ("'single'", Scalar(text: "single", kind: .string, style: .singleQuoted)),
        ("'it''s'", Scalar(text: "it's", kind: .string, style: .singleQuoted)),
        ("''", Scalar(text: "", kind: .string, style: .singleQuoted)),
        (#""double""#, Scalar(text: "double", kind: .string, style: .doubleQuoted)),
        (#""a\nb\tc\"d\\e\u00e9""#, Scalar(text: "a\nb\tc\"d\\e\u{e9}", kind: .string, style: .doubleQuoted)),
        (#""\uD83D\uDE00""#, Scalar(text: "\u{1F600}", kind: .string, style: .doubleQuoted)),
        ("\"# not a comment\"", Scalar(text: "# not a comment", kind: .string, style: .doubleQuoted)),
        ("true", Scalar(text: "true", kind: .bool(true), style: .plain)),
        ("false", Scalar(text: "false", kind: .bool(false), style: .plain)),
        ("'true'", Scalar(text: "true", kind: .string, style: .singleQuoted)),
        ("True", Scalar(text: "True", kind: .string, style: .plain)),
        ("null", Scalar(text: "null", kind: .string, style: .plain)),
        ("42", Scalar(text: "42", kind: .integer(42), style: .plain)),
        ("-7", Scalar(text: "-7", kind: .integer(-7), style: .plain)),
        ("007", Scalar(text: "007", kind: .integer(7), style: .plain)),
        ("9223372036854775807", Scalar(text: "9223372036854775807", kind: .integer(.max), style: .plain)),
        ("-9223372036854775808", Scalar(text: "-9223372036854775808", kind: .integer(.min), style: .plain)),
        ("\"42\"", Scalar(text: "42", kind: .string, style: .doubleQuoted)),
        ("1.5", Scalar(text: "1.5", kind: .decimal(1.5), style: .plain)),
        ("-0.25", Scalar(text: "-0.25", kind: .decimal(-0.25), style: .plain)),
        ("1.", Scalar(text: "1.", kind: .string, style: .plain)),
        (".5", Scalar(text: ".5", kind: .string, style: .plain)),
        ("+1", Scalar(text: "+1", kind: .string, style: .plain)),
        ("1e3", Scalar(text: "1e3", kind: .string, style: .plain)),
        ("80ms", Scalar(text: "80ms", kind: .string, style: .plain)),
        ("1.5s", Scalar(text: "1.5s", kind: .string, style: .plain)),
        ("-1", Scalar(text: "-1", kind: .integer(-1), style: .plain)),
        ("-x", Scalar(text: "-x", kind: .string, style: .plain)),
        ("$me picked tomatoes", Scalar(text: "$me picked tomatoes", kind: .string, style: .plain)),
        ("http://x.y/?a=b#frag", Scalar(text: "http://x.y/?a=b#frag", kind: .string, style: .plain)),
        ("a:b", Scalar(text: "a:b", kind: .string, style: .plain)),
        ("x#y", Scalar(text: "x#y", kind: .string, style: .plain)),
        ("trailing   # comment", Scalar(text: "trailing", kind: .string, style: .plain)),
        ("caf\u{e9} \u{1F952}", Scalar(text: "caf\u{e9} \u{1F952}", kind: .string, style: .plain)),
    ])
    func scalarStylesAndTypes(text: String, expected: Scalar) throws {
        let root = try read("key: \(text)\n")
        #expect(value(root, "key") == Node(.scalar(expected), at: location(1, 6)))
    }

    @Test func columnsCountUnicodeScalars() throws {
        let root = try read("\u{e9}\u{1F952}: [x, \"\u{e9}\", y]\n")
        guard case .sequence(let items)? = value(root, "\u{e9}\u{1F952}")?.value else {
            Issue.record("not a sequence")
            return
        }
        #expect(items.map(\.location.column) == [6, 9, 14])
    }

    // MARK: Flow collections

    @Test func flowCollectionsNest() throws {
        let root = try read("a: { data: { q: topping }, list: [a, [b, {}], []], n: -1 }\n")
        let expected = Node(
            .mapping([
                entry(
                    "data", 1, 6,
                    Node(.mapping([entry("q", 1, 14, string("topping", 1, 17))]), at: location(1, 12))),
                entry(
                    "list", 1, 28,
                    Node(
                        .sequence([
                            string("a", 1, 35),
                            Node(
                                .sequence([string("b", 1, 39), Node(.mapping([]), at: location(1, 42))]),
                                at: location(1, 38)),
                            Node(.sequence([]), at: location(1, 47)),
                        ]), at: location(1, 34))),
                entry("n", 1, 52, Node(.scalar(scalar("-1", .integer(-1))), at: location(1, 55))),
            ]), at: location(1, 4))
        #expect(value(root, "a") == expected)
    }

    @Test func flowDetails() throws {
        let root = try read(
            "a: [ x , 'y' , \"z\", ]   # trailing comma and a comment\nb: {k:, j: }\nc: {\"q\":1}\nd: [a b, c]\n")
        #expect(
            value(root, "a")
                == Node(
                    .sequence([
                        string("x", 1, 6), string("y", 1, 10, .singleQuoted), string("z", 1, 16, .doubleQuoted),
                    ]), at: location(1, 4)))
        #expect(scalarAt(root, "b", "k")?.kind == .null)
        #expect(scalarAt(root, "b", "j")?.kind == .null)
        #expect(scalarAt(root, "c", "q")?.kind == .integer(1))
        guard case .sequence(let items)? = value(root, "d")?.value else {
            Issue.record("not a sequence")
            return
        }
        #expect(items.map { $0.value } == [.scalar(scalar("a b", .string)), .scalar(scalar("c", .string))])
    }

    // MARK: Comments and block text

    @Test func commentsAreIgnored() throws {
        let text = """
            # a comment at the top
              # an indented comment
            a: 1 # after a value
            # between
            b: "x # inside quotes" # after quotes
            c: [x, y] # after a flow
            d: 'x#y'
            """
        let root = try read(text)
        #expect(scalarAt(root, "a")?.kind == .integer(1))
        #expect(scalarAt(root, "b")?.text == "x # inside quotes")
        #expect(scalarAt(root, "d")?.text == "x#y")
    }

    @Test(arguments: [
        ("a: |\n  one\n  two\nb: 1\n", "one\ntwo\n"),
        ("a: |\n    indented\n      more\n    back\n", "indented\n  more\nback\n"),
        ("a: |\n  one\n\n  two\n\n\nb: 1\n", "one\n\ntwo\n"),
        ("a: |-\n  one\n  two\n\nb: 1\n", "one\ntwo"),
        ("a: |+\n  one\n\n\nb: 1\n", "one\n\n\n"),
        ("a: |\n\n  after a blank\n", "\nafter a blank\n"),
        ("a: |\nb: 1\n", ""),
        ("a: | # a comment\n  # not a comment\n  x: y - [z]\n", "# not a comment\nx: y - [z]\n"),
        ("a: |\n    text\n  # a comment ends it\nb: 1\n", "text\n"),
        ("a: |\n  \ttab kept\n", "\ttab kept\n"),
        ("a: |\n  no final newline", "no final newline\n"),
    ])
    func blockText(text: String, expected: String) throws {
        let root = try read(text)
        #expect(value(root, "a") == string(expected, 1, 4, .literalBlock))
    }

    @Test func blockTextInSequencesAndAtTheRoot() throws {
        let root = try read("- |\n  x\n- y\n")
        #expect(root == Node(.sequence([string("x\n", 1, 3, .literalBlock), string("y", 3, 3)]), at: location(1, 1)))
        #expect(try read("|\n  x\n   y\n") == string("x\n y\n", 1, 1, .literalBlock))
    }

    // MARK: Rejections

    @Test(arguments: [
        // Anchors, aliases, tags, directives, documents.
        ("a: &x 1\n", 1, 4, "anchors are not supported: found \"&x\""),
        ("&x a: 1\n", 1, 1, "anchors are not supported"),
        ("a: *x\n", 1, 4, "aliases are not supported: found \"*x\""),
        ("a: [1, *x]\n", 1, 8, "aliases are not supported"),
        ("a: !tag 1\n", 1, 4, "tags are not supported: found \"!tag\""),
        ("a: !!str 1\n", 1, 4, "tags are not supported: found \"!!str\""),
        ("a: {b: !!int 1}\n", 1, 8, "tags are not supported"),
        ("%YAML 1.2\na: 1\n", 1, 1, "directives are not supported"),
        ("---\na: 1\n", 1, 1, "document markers (\"---\") are not supported"),
        ("a: 1\n---\nb: 2\n", 2, 1, "document markers (\"---\") are not supported"),
        ("a: 1\n...\n", 2, 1, "document markers (\"...\") are not supported"),
        ("a: |\n---\n", 2, 1, "document markers"),
        // Keys.
        ("a: 1\nb: 2\na: 3\n", 3, 1, "duplicate key \"a\": it is already defined on line 1"),
        ("x:\n  a: 1\n  a: 2\n", 3, 3, "duplicate key \"a\": it is already defined on line 2"),
        ("a: {b: 1,\n", 1, 4, "unclosed \"{\""),
        ("a: {b: 1, b: 2}\n", 1, 11, "duplicate key \"b\": it is already defined on line 1"),
        ("'a': 1\na: 2\n", 2, 1, "duplicate key \"a\""),
        ("name: x\npeople\n", 2, 7, "expected \":\" after the key \"people\""),
        ("name\npeople: x\n", 1, 5, "expected \":\" after the key \"name\""),
        ("a:\n  name\n  b: 1\n", 2, 7, "expected \":\" after the key \"name\""),
        ("a: 1\nname pickles\n", 2, 13, "expected \":\" after the key \"name pickles\""),
        ("a: 1\nb:c\n", 2, 3, "expected a space after \":\" in \"b:c\""),
        ("a: 1\n\"b\"\n", 2, 4, "expected \":\" after the key \"b\""),
        ("a: b: c\n", 1, 5, "unexpected \":\" after \"b\""),
        (": a\n", 1, 1, "expected a key before \":\""),
        ("? a\n", 1, 1, "complex keys"),
        ("a: {b}\n", 1, 6, "expected \":\" after the key \"b\", found \"}\""),
        ("a: {[b]: 1}\n", 1, 5, "a flow collection cannot be a key"),
        // Tabs and indentation.
        ("a:\n\tb: 1\n", 2, 1, "tab in indentation; indent with spaces"),
        ("a:\n  \tb: 1\n", 2, 3, "tab in indentation; indent with spaces"),
        ("a: |\n\ttext\n", 2, 1, "tab in indentation; indent with spaces"),
        ("a: 1\n  b: 2\n", 2, 3, "unexpected indentation: expected 0 spaces, found 2"),
        ("a: x\n  more words\n", 2, 3, "needs \"|\" block text"),
        ("a:\n    b: 1\n  c: 2\n", 3, 3, "inconsistent indentation: expected 0 or 4 spaces, found 2"),
        ("  a: 1\nb: 2\n", 2, 1, "inconsistent indentation: expected 2 spaces, found 0"),
        ("- a\n   - b\n", 2, 4, "unexpected indentation: expected 0 spaces, found 3"),
        ("- a\nb: 1\n", 2, 1, "expected a sequence item \"- \" at this indentation, found the key \"b\""),
        ("a: 1\n- b\n", 2, 1, "expected \"key: value\" at this indentation, found a sequence item"),
        ("a: - b\n", 1, 4, "a sequence cannot start on the line of its key \"a\""),
        ("a: [x]\nb\n", 2, 2, "expected \":\" after the key \"b\""),
        ("[x]\ny: 1\n", 2, 1, "expected the end of the file after the top-level value"),
        ("a: |\n    x\n   y\n", 3, 4, "block text is indented less than its first line"),
        // Scalars.
        ("a: \"x\\qy\"\n", 1, 6, "unknown escape \"\\q\""),
        ("a: \"\\u12\"\n", 1, 5, "bad escape \"\\u\": expected 4 hexadecimal digits"),
        ("a: \"\\uD800\"\n", 1, 5, "bad escape"),
        ("a: \"x\\", 1, 6, "unfinished escape"),
        ("a: \"open\n", 1, 4, "unclosed '\"': expected '\"' before the end of the line"),
        ("a: 'open\n", 1, 4, "unclosed \"'\""),
        ("a: 'x' y\n", 1, 8, "unexpected text after the quoted value: found \"y\""),
        ("a: 99999999999999999999\n", 1, 4, "number too large"),
        ("a: [1, -9223372036854775809]\n", 1, 8, "number too large"),
        ("a: @x\n", 1, 4, "cannot start with \"@\""),
        ("a: >\n  folded\n", 1, 4, "folded block text \">\" is not supported; use \"|\""),
        ("a: |2\n  x\n", 1, 5, "indentation indicators"),
        // Flow collections.
        ("a: b\nc: d\nd: { key: [1, 2] \n", 3, 4, "unclosed \"{\": expected \"}\" before the end of the line"),
        ("a: [1, 2\n", 1, 4, "unclosed \"[\": expected \"]\" before the end of the line"),
        ("a: {b: [1, 2}\n", 1, 13, "expected \",\" or \"]\", found \"}\""),
        ("a: [1 # comment]\n", 1, 4, "unclosed \"[\""),
        ("a: [1,,2]\n", 1, 7, "expected a value or \"]\", found \",\""),
        ("a: [x: y]\n", 1, 6, "a mapping inside a sequence needs braces"),
        ("a: [- x]\n", 1, 5, "a block sequence item \"-\" cannot be used inside a flow collection"),
        ("a: [x] y\n", 1, 8, "unexpected text after the flow collection: found \"y\""),
        ("a: {b: |}\n", 1, 8, "block text \"|\" cannot be used inside a flow collection"),
        ("a: ]\n", 1, 4, "unexpected \"]\""),
        // Empty files.
        ("", 1, 1, "the file is empty: a scenario needs at least name, people and steps"),
        ("\n\n   \n", 1, 1, "the file is empty"),
        ("# only\n  # comments\n", 1, 1, "the file is empty"),
    ])
    func rejections(text: String, line: Int, column: Int, message: String) {
        expectError(text, line: line, column: column, message)
    }

    @Test(arguments: [
        ([0x61, 0x3A, 0x20, 0xFF], 1, 4, "invalid UTF-8: found the byte 0xFF"),
        ([0x61, 0x3A, 0x0A, 0x20, 0xC3, 0xA9, 0xC3], 2, 3, "invalid UTF-8: found the byte 0xC3"),
        ([0xC0, 0x80], 1, 1, "invalid UTF-8: found the byte 0xC0"),
        ([0xED, 0xA0, 0x80], 1, 1, "invalid UTF-8: found the byte 0xED"),
        ([0x61, 0x3A, 0x20, 0x00], 1, 4, "found a NUL character (U+0000)"),
        ([0x61, 0x0A, 0x62, 0x07], 2, 2, "found the control character U+0007"),
        ([0x61, 0x7F], 1, 2, "found the control character U+007F"),
        ([0x61, 0xC2, 0x85], 1, 2, "found the control character U+0085"),
        ([0x61, 0x3A, 0x0D, 0x20, 0x62], 1, 3, "carriage return"),
        ([0x61, 0x0D], 1, 2, "carriage return"),
    ] as [([UInt8], Int, Int, String)])
    func rejectsBytesThatAreNotText(bytes: [UInt8], line: Int, column: Int, message: String) {
        let error = readingError(bytes: bytes)
        #expect(error?.location == location(line, column), "\(String(describing: error))")
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test func stringsAreCheckedForControlCharactersToo() {
        expectError("a: b\u{1B}c\n", line: 1, column: 5, "control character U+001B")
    }

    @Test func errorsRenderAsCompilerDiagnostics() {
        let error = readingError("a: b\nc: d\nsend: { key: [1, 2] \n")
        #expect(error?.description == "test.yaml:3:7: error: unclosed \"{\": expected \"}\" before the end of the line")
    }

    // MARK: Robustness

    @Test func deepFlowNestingIsAnErrorNotACrash() {
        let text = "a: " + String(repeating: "[", count: 100_000)
        expectError(text, line: 1, column: 4 + ScenarioReader.maximumDepth - 1, "nesting deeper than 64 levels")
        expectError("a: " + String(repeating: "{a: ", count: 100_000), line: 1, column: 256, "nesting deeper")
    }

    @Test func nestingUpToTheLimitReads() throws {
        let depth = ScenarioReader.maximumDepth - 1
        let text = "a: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var node = try #require(value(try read(text), "a"))
        for _ in 1..<depth {
            guard case .sequence(let items) = node.value, let inner = items.first else {
                Issue.record("not nested")
                return
            }
            node = inner
        }
        #expect(node.value == .sequence([]))
    }

    @Test func deepBlockNestingIsAnErrorNotACrash() {
        /// `levels` lines, each `step` spaces deeper than the last and holding `content`.
        func staircase(levels: Int, step: Int, _ content: String) -> String {
            let spaces = String(repeating: " ", count: levels * step)
            var text = ""
            for level in 0..<levels {
                text += spaces.prefix(level * step)
                text += content + "\n"
            }
            return text
        }
        expectError(
            staircase(levels: 10_000, step: 1, "k:"), line: 65, column: 65,
            "nesting deeper than 64 levels")
        expectError(
            staircase(levels: 10_000, step: 2, "-"), line: 65, column: 129,
            "nesting deeper than 64 levels")
        expectError(String(repeating: "- ", count: 10_000) + "x", line: 1, column: 129, "nesting deeper")
    }

    @Test func randomBytesNeverCrash() {
        var random = SplitMix64(seed: 0x5CE7_A410)
        for _ in 0..<200 {
            let count = Int(random.next() % 200)
            let bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = readingError(bytes: bytes)
        }
    }

    @Test func randomSyntaxNeverCrashes() {
        // Bytes drawn from the characters that matter to the reader, so that most inputs
        // get past decoding and exercise blocks, flows, quotes and block text.
        let alphabet = Array(" -:,[]{}#'\"|>&*!%?\\\n\t\nab1.".utf8) + [0xC3, 0xA9]
        var random = SplitMix64(seed: 42)
        var read = 0
        for _ in 0..<2_000 {
            let count = Int(random.next() % 80)
            let bytes = (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            if readingError(bytes: bytes) == nil { read += 1 }
        }
        #expect(read > 0)
    }

    @Test func randomLinesOfAValidFileNeverCrash() {
        let lines = [
            "name: x", "  - a: 1", "people:", "  alice: [a, b]", "- - c", "    b: |", "      text",
            "steps:", "- at: 0ms", "  send: { data: { q: t } }", "  x: \"q\\u00e9\"", "# c", "",
            "      deep", "k: 'v''w'", "   - 3",
        ]
        var random = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let count = Int(random.next() % 12)
            let text = (0..<count).map { _ in lines[Int(random.next() % UInt64(lines.count))] }
            _ = readingError(text.joined(separator: "\n"))
        }
    }
}

/// A tiny seeded generator (SplitMix64) so the random inputs are the same on every run.
private struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
