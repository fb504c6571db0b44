import Testing
@testable import GroupSim
@testable import GroupSimCore
@testable import GroupSimScenario
@testable import GroupSimSimulation
@testable import GroupSimChecking
@testable import GroupSimReporting
import GroupSimTesting

/// `app.state: cloud-cas`, the built-in app's compare-and-set with retry (M13).
@Suite struct CloudCASTests {
    /// Both replies fetch v1; Bob's conditional write lands as v2, Carol's is refused with
    /// the current record, and her app re-applies her vote to it and lands v3.
    @Test func conflictIsRetriedAndNothingIsLost() async throws {
        let checks = "expect:\n  - converged: poll\n" +
            "  - complete: { session: poll, data: { q: topping, bob: tomatoes, carol: pickles } }\n  - no-pitfalls: true\n"
        let report = try await Fixture.run(CloudStoreTests.race("cloud-cas") + checks)
        #expect(report.passed, "\(report.checks.map(\.detail))")
        #expect(report.outcome.cloudConflicts == 1)
        #expect(report.outcome.cloud.first?.version == 3)
        let store = report.outcome.trace.events.filter { $0.subject == "cloud" }.map(\.kind)
        #expect(store.contains(.cloudHandled(.refusedStore, key: "poll", device: "carol-phone", version: 2)))
        #expect(store.last == .cloudHandled(.store, key: "poll", device: "carol-phone", version: 3))
        let carol = report.outcome.trace.events.filter { $0.subject == "carol-phone" }.map(\.kind)
        #expect(carol.contains(.cloudAnswer(.conflict, key: "poll", version: 2)))
        let text = TextReport.render(report)
        #expect(text.contains("1 cloud write refused for a moved version"))
    }

    /// A refused write's answer carries the current record; the built-in app retries on it.
    @Test func builtInAppRetriesOnTheServersRecord() {
        var app = BuiltInApp(mode: .cloudCAS, push: .onCompose)
        let view = Conversation(name: "group", localParticipantIdentifier: ParticipantID(bits: 1, 2), remoteParticipantIdentifiers: [],
                                selectedMessage: nil, draft: nil, presentationStyle: .expanded)
        let request = ComposeRequest(kind: .reply, session: Session(name: "poll"), isNewSession: false,
            data: [Scenario.DataEntry("carol", "pickles")])
        #expect(app.userDidCompose(request, conversation: view) == [.fetch(key: "poll")])
        let first = app.didFetch(AppAction.CloudRecord(key: "poll", state: StateMap([Scenario.DataEntry("q", "topping")]), version: 1), conversation: view)
        #expect(first == [.store(key: "poll", write: .conditional(expectedVersion: 1,
            state: StateMap([Scenario.DataEntry("q", "topping"), Scenario.DataEntry("carol", "pickles")])))])
        let server = StateMap([Scenario.DataEntry("q", "topping"), Scenario.DataEntry("bob", "tomatoes")])
        let retry = app.didStore(AppAction.CloudRecord(key: "poll", state: server, version: 2, conflict: true), conversation: view)
        var merged = server
        merged["carol"] = "pickles"
        #expect(retry == [.store(key: "poll", write: .conditional(expectedVersion: 2, state: merged))])
        let sent = app.didStore(AppAction.CloudRecord(key: "poll", state: merged, version: 3), conversation: view)
        guard case .insert(let message)? = sent.first else {
            Issue.record("expected an insert, got \(sent)")
            return
        }
        #expect(message.url == "?session=poll")
    }
}
