import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimSimulation

/// `StateMap(url:)` reads the query by bytes. Over many seeds of URLs made of the query's
/// own delimiters, percent escapes, pluses and other scripts, it gives what reading the
/// same query character by character gives (the reference below).
@Suite struct StateMapParsingTests {
    /// The query read with `split` on characters: the definition the byte reader keeps.
    /// Every item is kept, by key, a repeated key's values in the URL's order.
    static func reference(_ url: String) -> [Scenario.DataEntry] {
        guard let question = url.firstIndex(of: "?") else { return [] }
        let query = url[url.index(after: question)...].prefix { $0 != "#" }
        let items = query.split(separator: "&", omittingEmptySubsequences: true).map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return Scenario.DataEntry(MessageURL.decode(parts[0]), parts.count > 1 ? MessageURL.decode(parts[1]) : "")
        }
        return items.indices.sorted { (items[$0].key, $0) < (items[$1].key, $1) }.map { items[$0] }
    }

    @Test func bytesReadAsCharactersDo() {
        let pieces = ["?", "&", "=", "#", "a", "b", "q", "topping", "%20", "%3D", "%26", "+", "é", "日本",
                      "https://x.example/p", "%", "%G1"]
        for seed in 1...2_000 {
            var generator = SplitMix64(seed: UInt64(seed))
            let length = Int(generator.next(below: 14))
            let url = (0..<length).map { _ in pieces[Int(generator.next(below: UInt64(pieces.count)))] }.joined()
            #expect(StateMap(url: url).entries == Self.reference(url), "seed \(seed): \(url)")
        }
        #expect(StateMap(url: "https://x.example/?q=topping&bob=tomatoes#top")
            == StateMap([Scenario.DataEntry("bob", "tomatoes"), Scenario.DataEntry("q", "topping")]))
        #expect(StateMap(url: nil).isEmpty)
        #expect(StateMap(url: "no-query").isEmpty)
    }

    /// A repeated query item keeps every value, in the URL's order (issue 35): the URL
    /// reads back the same, the key reads as its last value (what collapsing gave), a check
    /// finds any of its values, and setting the key or applying another state replaces them.
    @Test func repeatedItemsKeepEveryValue() {
        var state = StateMap(url: "https://x.example/?pick=olives&q=topping&pick=pickles&pick=olives")
        #expect(state.values(of: "pick") == ["olives", "pickles", "olives"])
        #expect(state["pick"] == "olives" && state["q"] == "topping" && state.values(of: "none").isEmpty)
        #expect(state.url() == "?pick=olives&pick=pickles&pick=olives&q=topping")
        #expect(StateMap(url: state.url()) == state)
        #expect(state.description == "{pick: olives, pick: pickles, pick: olives, q: topping}")
        #expect(state.contains([Scenario.DataEntry("pick", "pickles"), Scenario.DataEntry("q", "topping")]))
        #expect(!state.contains([Scenario.DataEntry("pick", "tomatoes")]))
        #expect(state != StateMap(url: "?pick=olives&q=topping"), "a repeat is part of the state")

        var applied = StateMap(url: "?pick=tomatoes&z=1")
        applied.apply(StateMap(url: "?pick=a&pick=b"))
        #expect(applied.url() == "?pick=a&pick=b&z=1")
        state["pick"] = "fudge"
        #expect(state.url() == "?pick=fudge&q=topping")
        state["pick"] = nil
        state.apply([Scenario.DataEntry("a", "1")])
        #expect(state.url() == "?a=1&q=topping")
    }

    /// `MessageURL.scheme(of:)` reads ASCII by bytes: over many seeds of URLs made of
    /// scheme characters, colons, CR LF, combining marks (one after a colon makes it another
    /// character) and other scripts, it gives what reading characters gives.
    @Test func schemeByBytesReadsAsCharactersDo() {
        let pieces = ["http", "HTTPS", "data", "a", "Z", "9", "+", "-", ".", ":", "//", "?q=1", "\r\n", "\u{301}", "é", "日本", " ", "_"]
        for seed in 1...3_000 {
            var generator = SplitMix64(seed: UInt64(seed))
            let length = Int(generator.next(below: 8))
            let url = (0..<length).map { _ in pieces[Int(generator.next(below: UInt64(pieces.count)))] }.joined()
            #expect(MessageURL.scheme(of: url) == MessageURL.schemeByCharacters(of: url), "seed \(seed): \(url.unicodeScalars.map(\.value))")
        }
        #expect(MessageURL.scheme(of: "HTTPS://x.example/?q=1") == "https")
        #expect(MessageURL.scheme(of: "?q=1") == nil && MessageURL.scheme(of: ":x") == nil && MessageURL.scheme(of: "9a:x") == nil)
        #expect(MessageURL.scheme(of: "a+b-c.d:x") == "a+b-c.d")
        #expect(MessageURL.scheme(of: "http:\u{301}//x") == nil, "the colon and the mark are one character, not a colon")
    }

    /// `MessageURL.encode` keeps unreserved ASCII and writes every other byte as `%XX`,
    /// as the reference below does scalar by scalar, and a state's URL joins its items
    /// with `&` after the base and `?`.
    @Test func encodingMatchesTheReference() {
        func reference(_ text: String) -> String {
            let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
            var encoded = ""
            for byte in text.utf8 {
                if unreserved.contains(byte) {
                    encoded.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    encoded += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
                }
            }
            return encoded
        }
        let pieces = ["a", "Z", "0", "-", ".", "_", "~", " ", "+", "&", "=", "%", "?", "#", "é", "日本", "\u{301}", "/", ":"]
        for seed in 1...2_000 {
            var generator = SplitMix64(seed: UInt64(seed))
            let length = Int(generator.next(below: 8))
            let text = (0..<length).map { _ in pieces[Int(generator.next(below: UInt64(pieces.count)))] }.joined()
            #expect(MessageURL.encode(text) == reference(text), "seed \(seed): \(text)")
            #expect(MessageURL.decode(Substring(MessageURL.encode(text))) == text, "seed \(seed): \(text)")
        }
        #expect(MessageURL.encode("a b&c") == "a%20b%26c")
        let state = StateMap([Scenario.DataEntry("q", "a b"), Scenario.DataEntry("n", "7")])
        #expect(state.url(base: "https://x.test/p") == "https://x.test/p?n=7&q=a%20b")
        #expect(StateMap().url(base: "https://x.test/p") == "https://x.test/p")
    }

    /// A state's URL is written into its string at once when nothing needs an escape, and
    /// appended piece by piece otherwise: over many seeds of states (short and long, plain
    /// and escaped, with and without a base), both give the base, `?`, and each item
    /// encoded, joined by `&`, in key order.
    @Test func urlWrittenAtOnceMatchesTheItemsJoined() {
        let pieces = ["a", "q", "topping", "Z9", "-._~", "olives", " ", "é", "&", "=", "%", "+"]
        let bases = ["", "https://x.example/poll", "?", "日本"]
        for seed in 1...2_000 {
            var generator = SplitMix64(seed: UInt64(seed))
            func text() -> String {
                (0..<Int(generator.next(below: 4))).map { _ in pieces[Int(generator.next(below: UInt64(pieces.count)))] }.joined()
            }
            let entries = (0..<Int(generator.next(below: 6))).map { _ in Scenario.DataEntry(text(), text()) }
            let state = StateMap(entries)
            let base = bases[Int(generator.next(below: UInt64(bases.count)))]
            let joined = state.entries.map { MessageURL.encode($0.key) + "=" + MessageURL.encode($0.value) }.joined(separator: "&")
            #expect(state.url(base: base) == (state.isEmpty ? base : base + "?" + joined), "seed \(seed): \(state)")
        }
        #expect(StateMap([Scenario.DataEntry("n", "7")]).url() == "?n=7")
    }
}
