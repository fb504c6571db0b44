import Testing
import GroupSim
import GroupSimTesting

/// M18: a direct send is allowed only soon after the user's last interaction with the
/// extension on that device (`options.recent-interaction`, default 60s), and not once the
/// extension was closed since.
@Suite struct RecentInteractionTests {
    /// Answers every message it receives with a direct send (not its own answers).
    struct Answering: MessagesApp {
        mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
            [.insert(Message(session: request.session, url: "?n=1"))]
        }
        mutating func didReceive(_ message: Message, conversation: Conversation) -> [AppAction] {
            guard message.url?.contains("answer") != true else { return [] }
            return [.send(Message(session: Session(name: "answers"), url: "?answer=1"))]
        }
    }

    static var apps: AppRegistry {
        var apps = AppRegistry()
        apps.register("answering") { _ in Answering() }
        return apps
    }

    /// Bob composes in the extension at 0ms (the interaction) and leaves it open; Alice's
    /// message reaches him `arrival` later and his app answers it directly.
    static func scenario(aliceSendsAt: String, options: String = "") -> String {
        """
        name: recent
        app: { name: answering }
        \(options)
        people:
          alice: [alice-phone]
          bob: [bob-phone]
        steps:
          - at: 0ms
            device: bob-phone
            insert: { session: draft }
          - at: \(aliceSendsAt)
            device: alice-phone
            send: { session: ping }

        """
    }

    static func codes(_ report: RunReport) -> [String] {
        report.outcome.failures.map { "\($0.device) \($0.code.name)" }
    }

    @Test func answerSoonAfterTheInteractionIsSent() async throws {
        let report = try await Fixture.run(Self.scenario(aliceSendsAt: "10s"), apps: Self.apps)
        #expect(Self.codes(report).isEmpty)
        #expect(report.transcript("alice-phone").count == 2, "Alice's ping and Bob's answer")
    }

    /// The default window is 60s: Alice's message reaches Bob 61.05s after he last touched
    /// the extension, so his app's direct send fails with code 9.
    @Test func answerAfterTheWindowFails() async throws {
        let report = try await Fixture.run(Self.scenario(aliceSendsAt: "61s"), apps: Self.apps)
        #expect(Self.codes(report) == ["bob-phone sendWithoutRecentInteraction"])
        let failure = try #require(report.outcome.failures.first)
        #expect(failure.code.rawValue == 9)
        #expect(failure.reason.contains("61050ms after the user's last interaction"))
        #expect(failure.reason.contains("1m (options.recent-interaction, M18)"))
        #expect(report.transcript("alice-phone").count == 1, "no answer left Bob's phone")
    }

    @Test func theWindowIsAnOption() async throws {
        let report = try await Fixture.run(Self.scenario(aliceSendsAt: "61s", options: "options: { recent-interaction: 2m }"),
                                           apps: Self.apps)
        #expect(Self.codes(report).isEmpty)
        let short = try await Fixture.run(Self.scenario(aliceSendsAt: "10s", options: "options: { recent-interaction: 5s }"),
                                          apps: Self.apps)
        #expect(Self.codes(short) == ["bob-phone sendWithoutRecentInteraction"])
    }

    /// Closing the extension ends the interaction: reopened from the drawer (a touch in
    /// Messages, not in the extension), the new process has no interaction to use.
    @Test func closingTheExtensionEndsTheInteraction() async throws {
        let text = Self.scenario(aliceSendsAt: "10s").replacingOccurrences(of: "  - at: 10s", with: """
              - at: 1s
                device: bob-phone
                close: true
              - at: 2s
                device: bob-phone
                open: compact
              - at: 10s
            """)
        let report = try await Fixture.run(text, apps: Self.apps)
        #expect(Self.codes(report) == ["bob-phone sendWithoutRecentInteraction"])
        #expect(report.outcome.failures.first?.reason.contains("without a recent user interaction") == true)
    }
}
