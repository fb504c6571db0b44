import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario

@Suite struct SuggestionTests {
    @Test(arguments: [
        ("latncy", ["latency", "jitter", "links"], "latency"),
        ("devcie", ["at", "after", "device", "conversation"], "device"),
        ("carl", ["alice", "bob", "carol"], "carol"),
        ("Alice", ["alice", "bob"], "alice"),
        ("noBuble", MessageErrorCode.allCases.map(\.name), "noBubble"),
        ("pol", ["poll"], "poll"),
        ("zed", ["alice", "bob", "carol"], nil),
        ("x", ["my-poll"], nil),
        ("", ["a", "bb"], "a"),
        ("anything", [], nil),
    ] as [(String, [String], String?)])
    func nearest(word: String, candidates: [String], expected: String?) {
        #expect(Suggestion.nearest(to: word, in: candidates) == expected)
    }

    @Test func aTieGoesToTheCandidateListedFirst() {
        #expect(Suggestion.nearest(to: "bat", in: ["cat", "hat", "bar"]) == "cat")
        #expect(Suggestion.nearest(to: "bat", in: ["hat", "cat"]) == "hat")
    }

    @Test func theCloserCandidateWinsWhateverItsPlace() {
        #expect(Suggestion.nearest(to: "latencyy", in: ["latenc", "latency"]) == "latency")
    }

    @Test(arguments: [
        ("kitten", "sitting", 3),
        ("ab", "ba", 1),
        ("ca", "abc", 3),
        ("", "abc", 3),
        ("same", "same", 0),
    ])
    func distance(source: String, target: String, expected: Int) {
        #expect(Suggestion.distance(Array(source), Array(target)) == expected)
    }
}

@Suite struct DurationReadingTests {
    typealias Reading = ScenarioParser.Context.DurationReading

    @Test(arguments: [
        ("0ms", Reading.value(.zero)),
        ("250ms", .value(.milliseconds(250))),
        ("1.5s", .value(.milliseconds(1500))),
        ("2m", .value(.seconds(120))),
        ("0.5m", .value(.seconds(30))),
        ("1.05m", .value(.seconds(63))),
        ("0.00000000005m", .value(VirtualDuration(nanoseconds: 3))),
        ("7ns", .value(VirtualDuration(nanoseconds: 7))),
        ("250us", .value(.microseconds(250))),
        ("1.250000s", .value(.milliseconds(1250))),
        ("007ms", .value(.milliseconds(7))),
        ("9223372036854775807ns", .value(VirtualDuration(nanoseconds: .max))),
        ("9223372036854775808ns", .tooLarge),
        ("153722867.29m", .tooLarge),
        ("99999999999999999999999ms", .tooLarge),
        ("1.5ns", .tooPrecise),
        ("0.0000000001s", .tooPrecise),
        ("0.000000000001m", .tooPrecise),
        ("-5ms", .negative),
        ("80", .malformed),
        ("80 ms", .malformed),
        ("80MS", .malformed),
        ("ms", .malformed),
        (".5s", .malformed),
        ("5.s", .malformed),
        ("1.2.3s", .malformed),
        ("+5ms", .malformed),
        ("5h", .malformed),
        ("", .malformed),
    ])
    func reading(text: String, expected: Reading) {
        #expect(ScenarioParser.Context.readDuration(text) == expected)
    }
}
