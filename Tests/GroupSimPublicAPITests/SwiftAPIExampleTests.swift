// The README's "The Swift API in short", compiled as a user compiles it: `import GroupSim`
// without `@testable`, so everything used here is public API.
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

@Suite struct SwiftAPIExampleTests {
    /// The README shows exactly this file's example, so the two cannot drift apart.
    @Test func readmeShowsThisExample() throws {
        let here = URL(fileURLWithPath: #filePath)
        let source = try String(contentsOf: here, encoding: .utf8)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let begin = "// README example begins\n"
        let end = "// README example ends\n"
        let example = try #require(source.components(separatedBy: begin).dropFirst().first?.components(separatedBy: end).first)
        #expect(readme.contains("```swift\n" + example + "```\n"))
    }

    /// The race loses a vote: the check that the devices diverge holds, the lost update is
    /// reported with its rule, and the run replays to the same digest.
    @Test func pollRaceDivergesAndLosesAnUpdate() async throws {
        let report = try await runPoll()
        #expect(report.passed)
        #expect(report.checks.map(\.text) == ["diverged lunch"])
        #expect(report.checkCounts == RunReport.CheckCounts(held: 1, total: 1))
        let lost = try #require(report.pitfalls.first { $0.kind == .lostUpdate })
        #expect(lost.rule == "M12")
        #expect(report.unexpectedFailures.isEmpty)
        #expect(try await runPoll().digest == report.digest)
    }

    /// The outcome holds every device's final view: transcripts, identifiers, callbacks.
    @Test func outcomeShowsEachDevicesFinalView() async throws {
        let outcome = try await runPoll().outcome
        #expect(outcome.devices.map(\.name) == ["alice-phone", "bob-phone", "carol-phone"])
        let alice = try #require(outcome.device("alice-phone"))
        #expect(alice.identifiers.map(\.person) == ["alice", "bob", "carol"])
        #expect(alice.localIdentifier == alice.identifiers.first?.id)
        #expect(alice.transcripts.map(\.conversation) == ["group"])
        #expect(alice.callbacks.contains(.userDidCompose))
        let urls = outcome.devices.compactMap { $0.session("lunch")?.urlState.description }
        #expect(Set(urls).count > 1, "the devices show different polls: \(urls)")
        #expect(outcome.members == [RunOutcome.ConversationMembers(conversation: "group", members: ["alice", "bob", "carol"])])
        #expect(outcome.trace.events.isEmpty == false)
    }

    /// A scenario built from the nested types is validated as a file is: a misspelt
    /// device is the file's message, at the key's path, with a code.
    @Test func scenarioBuiltInSwiftIsValidatedLikeAFile() async throws {
        let scenario = Scenario(
            name: "swift",
            people: [Scenario.Person(key: "alice", devices: ["alice-phone"]), Scenario.Person(key: "bob", devices: ["bob-phone"])],
            devices: [Scenario.DeviceSpec(name: "alice-phone", person: "alice"), Scenario.DeviceSpec(name: "bob-phone", person: "bob")],
            conversations: [Scenario.ConversationSpec(members: ["alice", "bob"])],
            timeline: [
                .step(Scenario.Step(number: 1, time: .zero, device: "alice-phone",
                                    action: .send(Scenario.Compose(session: "poll", data: [Scenario.DataEntry("q", "lunch")])))),
                .step(Scenario.Step(number: 2, time: VirtualTime.zero + .milliseconds(500), device: "bob-phon",
                                    action: .reply(Scenario.Compose(session: "poll")))),
            ],
            checks: [Scenario.CheckSpec(.converged(session: "poll"))])
        do {
            _ = try await scenario.run()
            Issue.record("a misspelt device ran")
        } catch {
            let first = try #require(error.errors.first)
            #expect(first.description == #"<swift>:steps[1].device: error: unknown device "bob-phon"; did you mean "bob-phone"?"#)
            #expect(first.path == ScenarioError.Path(file: "<swift>", path: "steps[1].device"))
            #expect(first.code == .unknown)
        }
    }

    /// A `Simulation` runs once: calling `run()` again returns the same outcome.
    @Test func simulationRunsOnce() async throws {
        let scenario = try ScenarioParser.parse(text: """
            name: once
            people: { alice: [alice-phone], bob: [bob-phone] }
            steps:
              - { at: 0ms, device: alice-phone, send: { session: s, data: { q: x } } }
            expect:
              - converged: s
            """, file: "once.yaml")
        let simulation = Simulation(scenario: scenario, seed: 3)
        let first = try await simulation.run()
        let second = try await simulation.run()
        #expect(first.digest == second.digest)
        #expect(RunReport(outcome: first).passed)
    }

    /// The file's syntax errors carry their own code; the message is unchanged.
    @Test func scenarioErrorsHaveCodes() throws {
        #expect(throws: ScenarioErrors.self) { try ScenarioParser.parse(text: "name: [", file: "bad.yaml") }
        do {
            _ = try ScenarioParser.parse(text: "name: [", file: "bad.yaml")
        } catch {
            #expect(error.errors.map(\.code) == [.syntax])
            #expect(error.description.hasPrefix("bad.yaml:1:7: error: "))
        }
    }
}
