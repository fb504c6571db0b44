import Foundation
import GroupSim
import GroupSimMessages
import Testing

/// A naive controller: it caches its participant identifier in the install's storage and
/// writes it into the URL as the voter, as if the identifier meant the same everywhere.
final class NaiveVoterController: MSMessagesAppViewController, ComposeRequestHandling {
    let storage: LocalStorage

    init(storage: LocalStorage) {
        self.storage = storage
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    func handle(_ request: ComposeRequest) {
        guard let conversation = activeConversation else { return }
        let me = storage.string(forKey: "me") ?? conversation.localParticipantIdentifier.uuidString
        storage.set(me, forKey: "me")
        let message = MSMessage(session: conversation.selectedMessage?.session ?? MSSession())
        message.url = URL(string: "?voter=\(me)")
        conversation.insert(message)
    }
}

@Suite struct IdentifierPitfallTests {
    /// GroupSim's pitfall detectors see what the controller writes: another device reads a
    /// UUID it never minted (foreign identifier, M4); after a reinstall the writer's own
    /// old UUID means nothing to it (stale identifier, M2). The reinstall also wipes the
    /// cached value in storage, so the next write uses the new identifier.
    @Test func cachedIdentifiersInTheURLAreReported() async throws {
        var apps = AppRegistry()
        apps.register("naive", environment: { NaiveVoterController(storage: $0.storage) })
        let scenario = try ScenarioParser.parse(text: """
            name: naive
            people: { alice: [alice-phone], bob: [bob-phone] }
            app: { name: naive }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: poll } }
              - { at: 100ms, device: bob-phone, tap: poll }
              - { at: 200ms, device: alice-phone, reinstall: true }
              - { at: 300ms, device: alice-phone, tap: poll }
            expect:
              - pitfalls: [foreign-identifier, stale-identifier]
            """, file: "naive.yaml", registeredApps: apps.names)
        let report = try await scenario.run(apps: apps)
        #expect(report.passed, "\(report.checks.map(\.detail))")
        let kinds = report.outcome.sightings.map { "\($0.device) \($0.kind.rawValue)" }
        #expect(kinds == ["bob-phone foreign-identifier", "alice-phone stale-identifier"])
        // Written for a registered app: its own code wrote the UUID, and the fixes name
        // code changes, not the built-in app's `app.` options.
        for pitfall in report.pitfalls {
            #expect(!pitfall.fix.contains("`app."), "\(pitfall.fix)")
            #expect(!pitfall.explanation.contains("`$name`"), "\(pitfall.explanation)")
        }
        let foreign = report.pitfalls.first { $0.kind == .foreignIdentifier }
        #expect(foreign?.explanation.contains("the app's own code wrote it there") == true, "\(foreign?.explanation ?? "")")
    }
}
