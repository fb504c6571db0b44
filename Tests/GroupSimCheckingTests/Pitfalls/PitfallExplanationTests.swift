import Testing
@testable import GroupSim
import GroupSimTesting

/// Every pitfall says what happened where: which device, which message, what was lost or
/// misread, the rule, and the fix.
@Suite struct PitfallExplanationTests {
    /// M12: the lost update names the message that carried the change and, per device,
    /// the message that survived and why it lacks the change.
    @Test func lostUpdateNamesTheMessagesAndTheRace() async throws {
        let report = try await ReportingFixture.picklesRace()
        let bob = try #require(report.pitfalls.first { $0.kind == .lostUpdate && $0.summary.hasPrefix("Bob's") })
        #expect(bob.rule == "M12")
        #expect(bob.message == 2)
        #expect(bob.session == "poll")
        #expect(bob.summary == "Bob's change bob=tomatoes (step 2 on bob-phone, sent in m2) is missing from poll on bob-phone, " +
            "bob-ipad, carol-phone")
        #expect(bob.explanation.contains("Bob's change travelled in m2, sent by bob-phone at 500ms."))
        #expect(bob.explanation.contains("On bob-phone and bob-ipad the live bubble is m4 from Carol, sent by carol-phone at 502ms, " +
            "before m2 reached carol-phone at 550ms."))
        #expect(bob.explanation.contains("On carol-phone the live bubble is m3 from Alice, sent by alice-phone at 501ms, before m2 " +
            "reached alice-phone at 560ms."))
        #expect(bob.explanation.contains("(M11, M12)"))
        #expect(bob.fix.contains("M13") && bob.fix.contains("cloud-merge"))
    }

    /// M12: the divergence says where two devices' views parted.
    @Test func divergenceSaysWhereViewsParted() async throws {
        let report = try await ReportingFixture.picklesRace()
        let divergence = try #require(report.pitfalls.first { $0.kind == .divergence })
        #expect(divergence.explanation.contains("Where it started: alice-phone and bob-phone agreed on poll until 500ms (both showed " +
            "m1); then bob-phone sent m2 while alice-phone still showed m1"))
    }

    /// M15: a stale selection names the selected message, the newer one, and the loss;
    /// the lost update it causes says the reply was built on a stale selection.
    @Test func staleSelectionNamesBothMessages() async throws {
        let report = try await ReportingFixture.run(file: "Scenarios/lessons/stale-selection-broken.yaml")
        let stale = try #require(report.pitfalls.first { $0.kind == .staleSelection })
        #expect(stale.rule == "M15")
        #expect(stale.devices == ["bob-phone"])
        #expect(stale.message == 1)
        #expect(stale.session == "poll")
        #expect(stale.explanation.contains("On bob-phone the app built its draft at 1s on m1"))
        #expect(stale.explanation.contains("Since then m2 (from carol-phone at 350ms) had become the live bubble of poll."))
        let lost = try #require(report.pitfalls.first { $0.kind == .lostUpdate })
        #expect(lost.explanation.contains("bob-phone had m2 since 350ms, but built m3 on an older bubble its app had selected before, " +
            "a stale selectedMessage (M15)"))
    }

    /// M13: with a store that overwrites, the explanation tells the store's story.
    @Test func cloudOverwriteTellsWhoOverwrote() async throws {
        let report = try await ReportingFixture.run(file: "Scenarios/lessons/cloud-remedy-broken.yaml")
        let lost = try #require(report.pitfalls.first { $0.kind == .lostUpdate })
        #expect(lost.rule == "M13")
        #expect(lost.explanation.contains("bob-phone wrote poll v2 with the change at 590ms; carol-phone had fetched poll at v1 (at " +
            "532ms), before that write, and at 592ms wrote its whole map back as v3, without the change."))
        #expect(lost.fix.contains("compare-and-set"))
    }

    /// M1, M4: a foreign identifier says which device wrote it and which read it.
    @Test func foreignIdentifierNamesWriterAndReader() async throws {
        let report = try await ReportingFixture.run(file: "Scenarios/lessons/identifiers-broken.yaml")
        let foreign = report.pitfalls.filter { $0.kind == .foreignIdentifier }
        // Alice's app is still open from her send, so it reads m2 on arrival (M23); Carol's
        // and Bob's iPad's read it when tapped (M21). Even Bob's own iPad cannot (M1).
        #expect(foreign.map(\.devices) == [["alice-phone"], ["carol-phone"], ["bob-ipad"]])
        #expect(foreign.allSatisfy { $0.rule == "M4" && $0.message == 2 })
        let carol = try #require(foreign.first { $0.devices == ["carol-phone"] })
        #expect(carol.explanation.hasPrefix("The UUID was minted on bob-phone, whose app put it into m2's URL"))
        #expect(carol.explanation.contains("names nobody on carol-phone"))
        #expect(carol.explanation.contains("(M1)"))
        #expect(carol.fix.contains("M5"))
    }

    /// M2: a stale identifier says when the device was reinstalled.
    @Test func staleIdentifierSaysWhenTheReinstallWas() async throws {
        let report = try await ReportingFixture.run(file: "Scenarios/lessons/reinstall-broken.yaml")
        let stale = try #require(report.pitfalls.first { $0.kind == .staleIdentifier })
        #expect(stale.rule == "M2")
        #expect(stale.explanation.hasPrefix("alice-phone was reinstalled at 1s."))
        #expect(stale.explanation.contains("m1's URL, written at 0ms by alice-phone"))
    }

    /// M8: the dropped URL and the 5,000-character limit.
    @Test func droppedURLMentionsTheLimit() async throws {
        let report = try await ReportingFixture.run(file: "Scenarios/lessons/dropped-url-broken.yaml")
        let dropped = try #require(report.pitfalls.first { $0.kind == .droppedURL })
        #expect(dropped.rule == "M8")
        #expect(dropped.summary.contains("pollapp://vote"))
        #expect(dropped.message == 1)
        #expect(dropped.session == "poll")
        #expect(dropped.explanation.contains("On alice-phone"))
        #expect(dropped.explanation.contains("m1 left alice-phone at 0ms with no URL at all"))
        #expect(dropped.fix.contains("5,000 characters") && dropped.fix.contains("urlExceedsMaxSize"))
    }
}
