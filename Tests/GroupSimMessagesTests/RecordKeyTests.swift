import Foundation
import GroupSim
import GroupSimMessages
import Testing

/// A lunch poll kept in the cloud whose bubbles name their record `?poll=NAME`, as the
/// issue's porter wrote it: a new poll gets a fresh record name (from the seeded token, as
/// the app would call `UUID()`), a vote merges into the tapped poll's record, and every
/// save is followed by a bubble that points at the record.
final class PollRecordController: MSMessagesAppViewController, ComposeRequestHandling {
    let cloud: SimulatedCloud
    let makeName: () -> String

    init(cloud: SimulatedCloud, makeName: @escaping () -> String) {
        self.cloud = cloud
        self.makeName = makeName
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) { nil }

    func handle(_ request: ComposeRequest) {
        let tapped = activeConversation?.selectedMessage?.url
        let name = tapped.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems }?
            .first { $0.name == "poll" }?.value ?? makeName()
        var fields: [String: String] = [:]
        for entry in request.data { fields[entry.key] = entry.value }
        cloud.fetch(recordNamed: name) { record in
            self.cloud.save(record.fields.merging(fields) { _, new in new }, recordNamed: name) { saved in
                guard let conversation = self.activeConversation else { return }
                let message = MSMessage(session: conversation.selectedMessage?.session ?? MSSession())
                var components = URLComponents()
                components.queryItems = [URLQueryItem(name: "poll", value: saved.name)]
                message.url = components.url
                conversation.insert(message)
            }
        }
    }
}

@Suite struct RecordKeyTests {
    static func apps() -> AppRegistry {
        var apps = AppRegistry()
        apps.register("poll-record", environment: { PollRecordController(cloud: $0.cloud, makeName: $0.makeToken) })
        return apps
    }

    /// One question, then two votes a second apart (no race: nothing is lost).
    static func run(recordKey: String?) async throws -> RunReport {
        let key = recordKey.map { ", record-key: \($0)" } ?? ""
        let scenario = try ScenarioParser.parse(text: """
            name: poll-record
            people: { alice: [alice-phone], bob: [bob-phone], carol: [carol-phone] }
            app: { name: poll-record, state: cloud-overwrite\(key) }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: lunch, data: { q: lunch } } }
              - { at: 1s, device: bob-phone, reply: { session: lunch, data: { bob: pizza } } }
              - { at: 2s, device: carol-phone, reply: { session: lunch, data: { carol: sushi } } }
            expect:
              - converged: lunch
              - complete: { session: lunch, data: { q: lunch, bob: pizza, carol: sushi } }
              - no-pitfalls: [lost-update]
            """, file: "poll-record.yaml", registeredApps: apps().names)
        return try await scenario.run(apps: apps())
    }

    /// Acceptance (issue 35): the poll's URL names its record `poll=`, so by default no
    /// device's state can be read, and `converged` fails saying so, where it once passed
    /// on three empty states; no lost update is made up from states never read. With
    /// `app.record-key: poll` the same run's checks read the record and hold.
    @Test func aRecordNamedByAnotherItemIsReadOnlyWithItsRecordKey() async throws {
        let unread = try await Self.run(recordKey: nil)
        let converged = try #require(unread.checks.first)
        #expect(!converged.passed)
        #expect(converged.detail.hasPrefix("no device's state could be read: alice-phone, bob-phone, carol-phone: "),
                "\(converged.detail)")
        #expect(converged.detail.contains("the bubble's URL has no `session` item to name its cloud record (its items are `poll`; "
            + "set app.record-key)"), "\(converged.detail)")
        #expect(unread.checks.map(\.passed) == [false, false, true], "\(unread.checks.map(\.detail))")
        #expect(!unread.pitfalls.contains { $0.kind == .lostUpdate }, "\(unread.pitfalls.map(\.summary))")

        let read = try await Self.run(recordKey: "poll")
        #expect(read.passed, "\(read.checks.map(\.detail))")
        let record = try #require(read.outcome.cloud.first)
        #expect(read.checks.first?.detail == ["alice-phone", "bob-phone", "carol-phone"].map { "\($0): \(record.state)" }
            .joined(separator: "; "))
        #expect(record.state.description == "{bob: pizza, carol: sushi, q: lunch}")
    }
}
