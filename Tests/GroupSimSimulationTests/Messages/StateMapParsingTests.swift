import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimSimulation

/// `StateMap(url:)` reads the query by bytes. Over many seeds of URLs made of the query's
/// own delimiters, percent escapes, pluses and other scripts, it gives what reading the
/// same query character by character gives (the reference below).
@Suite struct StateMapParsingTests {
    /// The query read with `split` on characters: the definition the byte reader keeps.
    static func reference(_ url: String) -> StateMap {
        var state = StateMap()
        guard let question = url.firstIndex(of: "?") else { return state }
        let query = url[url.index(after: question)...].prefix { $0 != "#" }
        for item in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            state[MessageURL.decode(parts[0])] = parts.count > 1 ? MessageURL.decode(parts[1]) : ""
        }
        return state
    }

    @Test func bytesReadAsCharactersDo() {
        let pieces = ["?", "&", "=", "#", "a", "b", "q", "topping", "%20", "%3D", "%26", "+", "é", "日本",
                      "https://x.example/p", "%", "%G1"]
        for seed in 1...2_000 {
            var generator = SplitMix64(seed: UInt64(seed))
            let length = Int(generator.next(below: 14))
            let url = (0..<length).map { _ in pieces[Int(generator.next(below: UInt64(pieces.count)))] }.joined()
            #expect(StateMap(url: url) == Self.reference(url), "seed \(seed): \(url)")
        }
        #expect(StateMap(url: "https://x.example/?q=topping&bob=tomatoes#top")
            == StateMap([DataEntry("bob", "tomatoes"), DataEntry("q", "topping")]))
        #expect(StateMap(url: nil).isEmpty)
        #expect(StateMap(url: "no-query").isEmpty)
    }
}
