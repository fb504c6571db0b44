import Testing
@testable import GroupSim
@testable import GroupSimChecking
@testable import GroupSimReporting
import GroupSimTesting

/// What each user saw, change by change, from the trace (M11, M12), and where two
/// devices' views parted.
@Suite struct ViewHistoryTests {
    /// M11: the sender's bubble changes when it taps Send, a receiver's when the copy arrives.
    @Test func picklesRaceHistories() async throws {
        let report = try await ReportingFixture.picklesRace()
        let history = ViewHistory(outcome: report.outcome)
        #expect(history.sessions == ["poll"])
        #expect(history.changes(on: "alice-phone", session: "poll").map(\.message) == [1, 3, 4, 2])
        #expect(history.changes(on: "carol-phone", session: "poll").map(\.message) == [1, 4, 2, 3])
        #expect(history.changes(on: "bob-ipad", session: "poll").map(\.message) == [1, 2, 3, 4])
        let alice = history.changes(on: "alice-phone", session: "poll")
        #expect(alice.map(\.time.description) == ["0ms", "501ms", "552ms", "560ms"])
        #expect(alice.map(\.wasSent) == [true, true, false, false])
        #expect(alice[3].action == "received m2 from bob-phone")
        // Each device ends where its transcript says (M12).
        for device in report.outcome.devices {
            #expect(history.final(on: device.name, session: "poll")?.message == device.session("poll")?.message)
        }
    }

    /// M12: Alice's phone and Carol's phone both showed m1, then Alice's went to her own m3
    /// while Carol's still showed m1, and Carol's went to its own m4.
    @Test func partingOfAliceAndCarol() async throws {
        let history = ViewHistory(outcome: try await ReportingFixture.picklesRace().outcome)
        let parting = try #require(history.parting("alice-phone", "carol-phone", session: "poll"))
        #expect(parting.agreed == [1])
        #expect(parting.change.device == "alice-phone")
        #expect(parting.change.message == 3)
        #expect(parting.change.time.description == "501ms")
        #expect(parting.otherShowed == 1)
        #expect(parting.otherNext?.message == 4)
        #expect(parting.finalFirst == 2)
        #expect(parting.finalSecond == 3)
        #expect(parting.description == "alice-phone and carol-phone agreed on poll until 501ms (both showed m1); then alice-phone sent " +
            "m3 while carol-phone still showed m1, and carol-phone went on to m4 instead (it sent m4 at 502ms). In the end alice-phone " +
            "shows m2 and carol-phone shows m3.")
    }

    /// A receiver's diff: Carol's phone parted from Bob's iPad when Carol sent m4 at
    /// 502ms; the iPad went on to m2 when it arrived from Bob's phone (M30).
    @Test func partingOfAReceiver() async throws {
        let history = ViewHistory(outcome: try await ReportingFixture.picklesRace().outcome)
        let parting = try #require(history.parting("bob-ipad", "carol-phone", session: "poll"))
        #expect(parting.change.device == "carol-phone")
        #expect(parting.otherNext?.action == "received m2 from bob-phone")
        #expect(parting.description == "bob-ipad and carol-phone agreed on poll until 502ms (both showed m1); then carol-phone sent m4 " +
            "while bob-ipad still showed m1, and bob-ipad went on to m2 instead (m2 from bob-phone reached it at 550ms). In the end " +
            "bob-ipad shows m4 and carol-phone shows m3.")
    }

    /// Bob's phone and iPad saw the same bubbles in the same order, at different times:
    /// their views never parted.
    @Test func sameOrderDoesNotPart() async throws {
        let history = ViewHistory(outcome: try await ReportingFixture.picklesRace().outcome)
        #expect(history.parting("bob-phone", "bob-ipad", session: "poll") == nil)
    }

    @Test func sameViewsDoNotPart() async throws {
        let report = try await Fixture.run(Fixture.group + """
            steps:
              - at: 0ms
                device: alice-phone
                send: { session: poll, caption: "Pick" }
              - at: 1s
                device: bob-phone
                reply: { session: poll, data: { bob: tomatoes } }

            """)
        let history = ViewHistory(outcome: report.outcome)
        #expect(history.parting("alice-phone", "carol-phone", session: "poll") == nil)
        #expect(history.partings(session: "poll", among: ["alice-phone", "bob-phone", "carol-phone"]).isEmpty)
    }

    /// One parting per pair of groups of devices that end on different bubbles (M12).
    @Test func partingsOfADivergence() async throws {
        let report = try await ReportingFixture.picklesRace()
        let history = ViewHistory(outcome: report.outcome)
        let partings = SideBySideReport.partings(report, history)
        #expect(partings.map { "\($0.first)/\($0.second)" } == ["alice-phone/bob-phone", "alice-phone/carol-phone",
            "bob-phone/carol-phone"])
    }

    @Test func oldSystemsHaveNoHistory() async throws {
        let report = try await Fixture.run("""
            name: t
            people:
              alice: [alice-phone]
              bob: [bob-old]
            devices:
              bob-old: { platform: ios9 }
            steps:
              - at: 0ms
                device: alice-phone
                send: { session: poll, caption: "Pick", url: "https://example.com/p" }

            """)
        let history = ViewHistory(outcome: report.outcome)
        #expect(history.devices == ["alice-phone"])
        #expect(history.changes.count == 1)
    }
}
