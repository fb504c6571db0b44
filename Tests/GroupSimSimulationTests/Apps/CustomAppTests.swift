import Testing
import GroupSim  // the public API only: no @testable
import GroupSimTesting

/// A tally app written the way an iMessage developer would write one, against the public
/// API only: it counts taps in the URL and remembers what it was shown.
struct TallyApp: MessagesApp {
    /// What every instance saw, shared across activations through the registry's closure.
    let log: Log

    final class Log: @unchecked Sendable {
        // Only touched from inside the simulation, which runs one device at a time.
        var locals: [String: ParticipantID] = [:]
        var remotes: [String: [ParticipantID]] = [:]
        var received: [String] = []
    }

    mutating func didBecomeActive(_ conversation: Conversation) -> [AppAction] {
        log.locals[conversation.name + "/" + conversation.localParticipantIdentifier.uuidString] = conversation.localParticipantIdentifier
        return []
    }

    mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
        var state = StateMap(url: conversation.selectedMessage?.url)
        let count = Int(state["count"] ?? "0") ?? 0
        state["count"] = String(count + 1)
        log.remotes[conversation.localParticipantIdentifier.uuidString] = conversation.remoteParticipantIdentifiers
        let message = Message(session: request.session, url: state.url(), layout: TemplateLayout(caption: "count \(count + 1)"),
                              summaryText: "tally")
        return [.insert(message)]
    }

    mutating func didReceive(_ message: Message, conversation: Conversation) -> [AppAction] {
        log.received.append(message.layout.caption ?? "")
        return []
    }
}

@Suite struct CustomAppTests {
    /// A custom app on three devices, one an iPad of the same person, checked for
    /// its callbacks (M19-M24), the identifiers it saw (M1, M3) and each transcript (M10).
    @Test func customAppOnThreeDevices() async throws {
        let log = TallyApp.Log()
        var apps = AppRegistry()
        apps.register("tally") { _ in TallyApp(log: log) }
        let scenario = Scenario(
            name: "tally",
            people: [Scenario.Person(key: "alice", devices: ["alice-phone"]), Scenario.Person(key: "bob", devices: ["bob-phone", "bob-ipad"])],
            devices: [Scenario.DeviceSpec(name: "alice-phone", person: "alice"), Scenario.DeviceSpec(name: "bob-phone", person: "bob"),
                      Scenario.DeviceSpec(name: "bob-ipad", person: "bob")],
            conversations: [Scenario.ConversationSpec(members: ["alice", "bob"])],
            app: Scenario.AppSpec(name: "tally"),
            timeline: [
                .step(Scenario.Step(number: 1, time: .zero, device: "alice-phone", action: .send(Scenario.Compose(session: "tally")))),
                .step(Scenario.Step(number: 2, time: VirtualTime(nanoseconds: 200_000_000), device: "bob-ipad",
                           action: .reply(Scenario.Compose(session: "tally")))),
                .step(Scenario.Step(number: 3, time: VirtualTime(nanoseconds: 400_000_000), device: "bob-phone",
                           action: .reply(Scenario.Compose(session: "tally")))),
            ],
            checks: [Scenario.CheckSpec(.converged(session: "tally")), Scenario.CheckSpec(.latest(device: "alice-phone", session: "tally", from: "bob",
                                                                                 data: [Scenario.DataEntry("count", "3")], caption: "count 3"))])
        let report = try await scenario.run(apps: apps)
        #expect(report.passed, "\(report.checks.map(\.detail))")

        // Callbacks per device (M20, M21, M17, M23).
        let callbacks = Dictionary(uniqueKeysWithValues: report.outcome.devices.map { ($0.name, $0.callbacks) })
        #expect(callbacks["alice-phone"] == [.willBecomeActive, .didBecomeActive, .userDidCompose, .didStartSending, .didReceive,
            .didReceive])
        #expect(callbacks["bob-ipad"] == [.willBecomeActive, .didBecomeActive, .userDidCompose, .willTransition, .didTransition,
            .didStartSending, .didReceive])
        #expect(callbacks["bob-phone"] == [.willBecomeActive, .didBecomeActive, .userDidCompose, .willTransition, .didTransition,
            .didStartSending])
        #expect(log.received == ["count 2", "count 3", "count 3"])

        // Identifiers (M1): three devices, three different local identifiers, and each
        // device's single remote identifier differs too.
        let locals = report.outcome.devices.compactMap(\.localIdentifier)
        #expect(Set(locals).count == 3)
        #expect(log.locals.count == 3)
        let bobPadLocal = try #require(report.outcome.device("bob-ipad")?.localIdentifier)
        let aliceOnPad = try #require(report.outcome.device("bob-ipad")?.identifiers.first { $0.person == "alice" }?.id)
        #expect(log.remotes[bobPadLocal.uuidString] == [aliceOnPad])

        // Transcripts: one live bubble per device, summaries where it collapsed (M10).
        for device in ["alice-phone", "bob-phone", "bob-ipad"] {
            #expect(report.lines(device) == ["summary m1", "summary m2", "bubble m3"], "\(device)")
        }
        // M3: Bob's iPad shows Bob's phone's message as sent by its own local identifier.
        let padBubble = try #require(report.transcript("bob-ipad").last)
        #expect(padBubble.senderIdentifier == bobPadLocal)
    }

    /// M18: direct send from the app's own callback has no user interaction behind it
    /// (error 9); after the app dismissed itself it is not visible (error 10).
    @Test func m18DirectSendErrors() async throws {
        struct Eager: MessagesApp {
            mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
                if request.session.name == "t" {
                    return [.dismiss, .send(Message(session: request.session, url: "?late=1"))]
                }
                return [.send(Message(session: request.session, url: "?n=1"))]
            }
            mutating func didReceive(_ message: Message, conversation: Conversation) -> [AppAction] {
                [.send(Message(session: message.session, url: "?echo=1"))]
            }
        }
        var apps = AppRegistry()
        apps.register("eager") { _ in Eager() }
        let text = """
        name: eager
        app: { name: eager }
        people:
          alice: [alice-phone]
          bob: [bob-phone]
        steps:
          - at: 0ms
            device: alice-phone
            send: { session: s, direct: true }
          - at: 100ms
            device: bob-phone
            send: { session: t, direct: true }
          - at: 200ms
            device: bob-phone
            send: { session: u, direct: true }
        expect:
          - error: { step: 2, code: sendWhileNotVisible }

        """
        let report = try await Fixture.run(text, apps: apps)
        #expect(report.passed)
        let codes = report.outcome.failures.map { "\($0.device) \($0.code.name)" }
        // Bob's app dismissed itself, then tried to send: not visible (10). Alice's app
        // echoes Bob's message from didReceive: no user interaction is left (9).
        #expect(codes == ["bob-phone sendWhileNotVisible", "alice-phone sendWithoutRecentInteraction"])
        // Only the direct sends that were allowed left a bubble.
        #expect(report.lines("alice-phone") == ["bubble m1", "bubble m2"])
    }

    /// An app that says it keeps nothing from didReceive (`wantsReceivedMessages` false)
    /// is not called with arriving messages, but the calls it would have had are still in
    /// its device's callbacks and trace, and the run's transcripts and digest are those of
    /// the same app that is called.
    @Test func anAppThatKeepsNothingFromDidReceiveIsNotHandedMessages() async throws {
        struct Quiet: MessagesApp {
            let inner: TallyApp
            var wantsReceivedMessages: Bool { false }
            mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
                var tally = inner
                return tally.userDidCompose(request, conversation: conversation)
            }
            mutating func didReceive(_ message: Message, conversation: Conversation) -> [AppAction] {
                inner.log.received.append("called")
                return []
            }
        }
        let text = """
        name: quiet
        app: { name: tally }
        people:
          alice: [alice-phone]
          bob: [bob-phone, bob-ipad]
        steps:
          - { at: 0ms, device: alice-phone, send: { session: tally } }
          - { at: 200ms, device: bob-ipad, reply: { session: tally } }
          - { at: 400ms, device: bob-phone, reply: { session: tally } }

        """
        let heard = TallyApp.Log()
        var calling = AppRegistry()
        calling.register("tally") { _ in TallyApp(log: heard) }
        let quietLog = TallyApp.Log()
        var quiet = AppRegistry()
        quiet.register("tally") { _ in Quiet(inner: TallyApp(log: quietLog)) }

        let called = try await Fixture.run(text, apps: calling)
        let notCalled = try await Fixture.run(text, apps: quiet)
        #expect(heard.received == ["count 2", "count 3", "count 3"])
        #expect(quietLog.received.isEmpty)
        for device in ["alice-phone", "bob-phone", "bob-ipad"] {
            #expect(notCalled.outcome.device(device)?.callbacks == called.outcome.device(device)?.callbacks, "\(device)")
            #expect(notCalled.lines(device) == called.lines(device), "\(device)")
        }
        #expect(notCalled.outcome.device("alice-phone")?.callbacks.filter { $0 == .didReceive }.count == 2)
        #expect(notCalled.digest == called.digest)
    }

    /// M8's limit is 5,000 characters, not bytes: a URL of 5,000 characters, each three
    /// bytes (`e` and a combining accent), is staged and arrives; one more character is
    /// refused with `urlExceedsMaxSize`, and nothing is sent.
    @Test func theURLLimitCountsCharactersNotBytes() async throws {
        struct LongURL: MessagesApp {
            let characters: Int
            mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
                let prefix = "https://x.test/?q="
                let url = prefix + String(repeating: "e\u{301}", count: characters - prefix.count)
                return [.insert(Message(session: request.session, url: url, layout: TemplateLayout(caption: "long")))]
            }
        }
        let text = """
        name: long-url
        app: { name: long }
        people:
          alice: [alice-phone]
          bob: [bob-phone]
        steps:
          - { at: 0ms, device: alice-phone, send: { session: s } }

        """
        for (characters, accepted) in [(5_000, true), (5_001, false)] {
            var apps = AppRegistry()
            apps.register("long") { _ in LongURL(characters: characters) }
            let report = try await Fixture.run(text, apps: apps)
            #expect(report.outcome.failures.map(\.code) == (accepted ? [] : [.urlExceedsMaxSize]), "\(characters) characters")
            #expect(report.lines("bob-phone") == (accepted ? ["bubble m1"] : []), "\(characters) characters")
            if accepted {
                let url = try #require(report.outcome.device("bob-phone")?.sessions.first?.urlState)
                #expect(url["q"]?.count == characters - 18)
                #expect((url["q"]?.utf8.count ?? 0) > 5_000)
            }
        }
    }
}
