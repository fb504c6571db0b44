import Foundation
import Testing
import GroupSim
import GroupSimTesting

@Suite struct IdentifierTests {
    static let twoMessages = Fixture.group + """
    steps:
      - at: 0ms
        device: alice-phone
        send: { session: poll, caption: "$me asks $bob", summary: "$me asked", data: { q: topping } }
      - at: 200ms
        device: bob-phone
        reply: { session: poll, data: { who: $me }, caption: "$me answered $alice" }

    """

    /// M1: every device holds its own identifiers; the same person has a different UUID on
    /// every device that sees them, their own second device included.
    @Test func m1IdentifiersArePerDevice() async throws {
        let report = try await Fixture.run(Self.twoMessages)
        let devices = report.outcome.devices
        for person in ["alice", "bob", "carol"] {
            let ids = devices.compactMap { device in device.identifiers.first { $0.person == person }?.id }
            #expect(ids.count == 4)
            #expect(Set(ids).count == 4, "\(person) must have a different UUID on each of the 4 devices")
        }
        let bobPhone = try #require(report.outcome.device("bob-phone"))
        let bobPad = try #require(report.outcome.device("bob-ipad"))
        #expect(bobPhone.localIdentifier != bobPad.localIdentifier)
        #expect(bobPhone.identifiers.first?.person == "bob")
    }

    /// M1 and rule 2: identifiers come from the seed: same seed, same UUIDs; another seed, others.
    @Test func m1IdentifiersAreMintedFromTheSeed() async throws {
        let first = try await Fixture.run(Self.twoMessages, seed: 5)
        let again = try await Fixture.run(Self.twoMessages, seed: 5)
        let other = try await Fixture.run(Self.twoMessages, seed: 6)
        let ids = { (report: RunReport) in report.outcome.devices.flatMap { $0.identifiers.map(\.id) } }
        #expect(ids(first) == ids(again))
        #expect(Set(ids(first)).isDisjoint(with: Set(ids(other))))
    }

    /// M2: a reinstall gives that device a whole new set; other devices keep theirs.
    @Test func m2ReinstallResetsOnlyThatDevice() async throws {
        let base = Fixture.group + "steps:\n  - at: 0ms\n    device: alice-phone\n    text: hi\n"
        let before = try await Fixture.run(base)
        let after = try await Fixture.run(base + "  - at: 1s\n    device: carol-phone\n    reinstall: true\n")
        for device in ["alice-phone", "bob-phone", "bob-ipad"] {
            #expect(before.outcome.device(device)?.identifiers.map(\.id) == after.outcome.device(device)?.identifiers.map(\.id))
        }
        let old = try #require(before.outcome.device("carol-phone")?.identifiers.map(\.id))
        let new = try #require(after.outcome.device("carol-phone")?.identifiers.map(\.id))
        #expect(Set(old).isDisjoint(with: Set(new)), "every identifier on carol-phone changes, her own included")
        #expect(after.outcome.device("carol-phone")?.generation == 1)
    }

    /// M2: a UUID a device wrote before its reinstall is stale to it afterwards.
    @Test func m2StaleIdentifierAfterReinstall() async throws {
        let text = Fixture.group + """
        steps:
          - at: 0ms
            device: alice-phone
            send: { session: poll, data: { owner: $me } }
          - at: 1s
            device: alice-phone
            reinstall: true
          - at: 2s
            device: alice-phone
            reply: { session: poll, data: { x: "1" } }
        expect:
          - pitfalls: [stale-identifier]

        """
        let report = try await Fixture.run(text)
        #expect(report.passed)
        let stale = try #require(report.pitfalls.first { $0.kind == .staleIdentifier })
        #expect(stale.devices == ["alice-phone"])
        #expect(stale.rule == "M2")
    }

    /// M3: the sender identifier is the local identifier on the sender, the receiver's own
    /// remote identifier for the sender elsewhere, and the local one on the sender's own
    /// second device.
    @Test func m3SenderIdentifierPerDevice() async throws {
        let report = try await Fixture.run(Self.twoMessages)
        func sender(on device: String) throws -> ParticipantID? {
            try #require(report.transcript(device).first { $0.kind == .bubble }).senderIdentifier
        }
        let bobPhone = try #require(report.outcome.device("bob-phone"))
        let bobPad = try #require(report.outcome.device("bob-ipad"))
        let alice = try #require(report.outcome.device("alice-phone"))
        let carol = try #require(report.outcome.device("carol-phone"))
        #expect(try sender(on: "bob-phone") == bobPhone.localIdentifier)
        #expect(try sender(on: "bob-ipad") == bobPad.localIdentifier)
        #expect(try sender(on: "alice-phone") == alice.identifiers.first { $0.person == "bob" }?.id)
        #expect(try sender(on: "carol-phone") == carol.identifiers.first { $0.person == "bob" }?.id)
    }

    /// M5: `$me`/`$bob` in layout text are drawn as the contact name on every device; in
    /// data they are raw UUID strings of the sender's device (M4).
    @Test func m5TokensDrawAsContactNames() async throws {
        let report = try await Fixture.run(Self.twoMessages)
        for device in ["alice-phone", "bob-phone", "bob-ipad", "carol-phone"] {
            let bubble = try #require(report.transcript(device).first { $0.kind == .bubble })
            #expect(bubble.text == "Bob answered Alice")
            let summary = try #require(report.transcript(device).first { $0.kind == .summary })
            #expect(summary.text == "Alice asked")
        }
        let bobLocal = try #require(report.outcome.device("bob-phone")?.localIdentifier)
        let state = try #require(report.live("carol-phone", "poll")?.urlState)
        #expect(state["who"] == bobLocal.uuidString)
    }

    /// M4: a UUID from another device read by the app is the foreign-identifier pitfall.
    @Test func m4ForeignIdentifier() async throws {
        let text = Self.twoMessages + "  - at: 400ms\n    device: carol-phone\n    reply: { session: poll, data: { c: \"1\" } }\n"
        let report = try await Fixture.run(text)
        let foreign = report.pitfalls.filter { $0.kind == .foreignIdentifier }
        // Alice's app was still open and read Bob's reply in didReceive (M23); Carol's
        // app read it when she tapped the bubble (M21), and Alice read it again in Carol's
        // reply, which carried it on. Bob's own devices know the UUID.
        #expect(foreign.flatMap(\.devices) == ["alice-phone", "carol-phone", "alice-phone"])
        #expect(foreign.map(\.message) == [2, 2, 3])
        let bobLocal = try #require(report.outcome.device("bob-phone")?.localIdentifier?.uuidString)
        #expect(foreign.allSatisfy { $0.summary.contains(bobLocal) && $0.rule == "M4" })
    }

    /// M6: in per-conversation mode a person has a different UUID in each conversation
    /// on the same device; by default one per device.
    @Test func m6PerConversationIdentifiers() async throws {
        let body = """
        name: two
        people:
          alice: [alice-phone]
          bob: [bob-phone]
        conversations: { one: [alice, bob], two: [alice, bob] }
        OPTIONS
        steps:
          - at: 0ms
            device: alice-phone
            conversation: one
            send: { session: a, caption: "x" }
          - at: 0ms
            device: alice-phone
            conversation: two
            send: { session: b, caption: "y" }

        """
        let perDevice = try await Fixture.run(body.replacingOccurrences(of: "OPTIONS", with: ""))
        let strict = try await Fixture.run(body.replacingOccurrences(of: "OPTIONS", with: "options: { identifiers: per-conversation }"))
        func senders(_ report: RunReport) -> [ParticipantID?] {
            (report.outcome.device("bob-phone")?.transcripts ?? []).map { $0.entries.first?.senderIdentifier }
        }
        #expect(senders(perDevice).count == 2)
        #expect(senders(perDevice)[0] == senders(perDevice)[1])
        #expect(senders(strict)[0] != senders(strict)[1])
    }

    /// M5: `$me` and `$person` in a caption become tokens and are drawn as contact names;
    /// every other character is kept as written: a `$` before no one, before digits, at
    /// the end, and one that carries a combining mark (another character), with text
    /// outside ASCII around them.
    @Test func m5TokensAmongOtherText() async throws {
        let text = "$me owes $bob $5 for the café $\u{301}x $"
        let report = try await Fixture.run(Fixture.group + """
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll, caption: "\(text)", data: { q: topping } } }

            """)
        let carol = try #require(report.outcome.device("carol-phone")?.session("poll"))
        #expect(carol.caption == "Alice owes Bob $5 for the café $\u{301}x $")
    }
}
