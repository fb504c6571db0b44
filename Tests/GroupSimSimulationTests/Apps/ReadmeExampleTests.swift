import Foundation
import Testing
// README example begins
import GroupSim

/// A poll app: each vote is a query item in the message URL, like IceCreamBuilder.
struct PollApp: MessagesApp {
    mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
        var state = StateMap(url: conversation.selectedMessage?.url)   // the tapped bubble (M15)
        state.apply(request.data)
        let message = Message(session: request.session, url: state.url(),
                              layout: TemplateLayout(caption: request.caption), summaryText: "vote")
        return [.insert(message)]                                       // the user then taps Send (M16)
    }
}

func runPoll() async throws -> RunReport {
    var apps = AppRegistry()
    apps.register("poll") { _ in PollApp() }
    let scenario = try ScenarioParser.parse(text: """
        name: poll
        app: { name: poll }
        people: { alice: [alice-phone], bob: [bob-phone], carol: [carol-phone] }
        steps:
          - { at: 0ms, device: alice-phone, send: { session: lunch, data: { q: lunch } } }
          - at: 500ms
            race:
              within: 5ms
              steps:
                - { device: bob-phone, reply: { session: lunch, data: { bob: pizza } } }
                - { device: carol-phone, reply: { session: lunch, data: { carol: sushi } } }
        expect:
          - diverged: lunch
        """, file: "poll.yaml", registeredApps: apps.names)
    let report = try await scenario.run(seed: 7, apps: apps)
    for pitfall in report.pitfalls {
        print(pitfall.kind.rawValue, pitfall.rule, pitfall.summary)     // lost-update M12 ...
    }
    return report
}
// README example ends

@Suite struct ReadmeExampleTests {
    /// The README's Swift example compiles (it is this file) and does what it says:
    /// the race diverges and loses a vote (M12).
    @Test func readmeExampleRuns() async throws {
        let report = try await runPoll()
        #expect(report.passed)
        #expect(Set(report.pitfalls.map(\.kind)) == [.lostUpdate, .divergence])
    }

    /// The README shows exactly this file's example, so the two cannot drift apart.
    @Test func readmeShowsThisExample() throws {
        let here = URL(fileURLWithPath: #filePath)
        let source = try String(contentsOf: here, encoding: .utf8)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = "// README example begins\n"
        let end = "// README example ends\n"
        let example = try #require(source.components(separatedBy: begin).dropFirst().first?.components(separatedBy: end).first)
        #expect(readme.contains("```swift\n" + example + "```\n"))
    }
}
