import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimSimulation

/// `$UUID` tokens are drawn as this device's contact names (M5), byte by byte: text around
/// them (any script), a lone `$`, a token the map never minted and a token cut short by
/// the end of the text all stay as written.
@Suite struct TranscriptDrawerTests {
    @Test func tokensBecomeContactNamesAndEverythingElseStays() throws {
        let scenario = Scenario(name: "t", people: [Scenario.Person(key: "alice", contactName: "Alice A.", devices: ["alice-phone"]),
                                                    Scenario.Person(key: "bob", devices: ["bob-phone"])],
                                devices: [Scenario.DeviceSpec(name: "alice-phone", person: "alice"), Scenario.DeviceSpec(name: "bob-phone", person: "bob")],
                                conversations: [Scenario.ConversationSpec(members: ["alice", "bob"])], timeline: [])
        let world = WorldFacts(scenario: scenario, seed: 1)
        let bobMap = world.mintIdentifiers(device: "bob-phone", generation: 0)
        let alice = try #require(bobMap.id(for: "alice", in: Scenario.ConversationSpec.defaultName)).uuidString
        let bob = try #require(bobMap.id(for: "bob", in: Scenario.ConversationSpec.defaultName)).uuidString
        let stranger = ParticipantID(bits: 1, 2).uuidString
        let drawer = TranscriptDrawer(world: world, identifiers: world.mintIdentifiers(device: "alice-phone", generation: 0),
                                      person: "alice", position: 0)
        let cases: [(String, String)] = [
            ("$\(alice) voted", "Alice A. voted"),
            ("héllo $\(bob), $\(alice)!", "héllo Bob, Alice A.!"),
            ("$\(bob)$\(alice)", "BobAlice A."),
            ("costs $5 and $\(stranger)", "costs $5 and $\(stranger)"),
            ("ends with $", "ends with $"),
            ("cut $\(alice.prefix(20))", "cut $\(alice.prefix(20))"),
            ("$$\(bob)", "$Bob"),
            ("no tokens", "no tokens"),
        ]
        for (written, drawn) in cases {
            #expect(drawer.drawTokens(written, minted: bobMap) == drawn, "\(written)")
        }
    }
}

/// A `$name` in composed text ends where the characters say (letters, numbers, `_`, `-`),
/// whether read byte by byte (ASCII) or character by character: a combining mark joins
/// the byte before it, other scripts are letters, CR LF is one character.
@Suite struct TokenNameEndTests {
    @Test func bytesAndCharactersEndTheNameAlike() {
        let texts = ["me voted", "me", "bob-2_x!", "bob.", "bob.\u{301}x", "e\u{301}ve", "bob\u{301}", "zoë likes", "名前 x",
                     "bob\r\nx", "bob\r", "-", "", "me,you", "me$me", "🎉party", "bob🎉", "a\u{0308}\u{0301}b c", "x\u{200D}y"]
        for text in texts {
            let characters = text.firstIndex { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") } ?? text.endIndex
            let found = DeviceCall.nameEnd(in: text, from: text.startIndex)
            #expect(text.distance(from: text.startIndex, to: found) == text.distance(from: text.startIndex, to: characters)
                        && text.utf8.distance(from: text.startIndex, to: found) == text.utf8.distance(from: text.startIndex, to: characters),
                    "\(text.debugDescription)")
        }
    }
}
