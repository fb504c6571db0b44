import Testing
import GroupSim
import GroupSimTesting

/// M16: the input field belongs to a conversation. Each conversation on a device keeps its
/// own draft: staging in one neither discards nor sends another's.
@Suite struct DraftTests {
    /// Records the draft each conversation's view shows to the app.
    struct Recorder: MessagesApp {
        let seen: Seen
        final class Seen: @unchecked Sendable {
            var drafts: [(conversation: String, caption: String?)] = []
            /// Every view handed to the app, with the callback's name.
            var views: [(callback: String, view: Conversation)] = []
        }

        mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
            seen.drafts.append((conversation.name, conversation.draft?.layout.caption))
            seen.views.append(("compose", conversation))
            return [.insert(Message(session: request.session, url: "?n=1", layout: TemplateLayout(caption: request.caption)))]
        }

        mutating func didStartSending(_ message: Message, conversation: Conversation) -> [AppAction] {
            seen.views.append(("send", conversation))
            return []
        }
    }

    static let header = """
    name: drafts
    people:
      alice: [alice-phone]
      bob: [bob-phone]
      carol: [carol-phone]
    conversations:
      family: [alice, bob]
      work: [alice, carol]

    """

    static let staging = """
      - at: 0ms
        device: alice-phone
        conversation: family
        insert: { session: chores, caption: "family draft" }
      - at: 10ms
        device: alice-phone
        conversation: work
        insert: { session: standup, caption: "work draft" }

    """

    @Test func stagingInOneConversationKeepsTheOthersDraft() async throws {
        let report = try await Fixture.run(Self.header + "steps:\n" + Self.staging)
        let alice = try #require(report.outcome.device("alice-phone"))
        #expect(alice.draft(in: "family")?.layout.caption == "family draft")
        #expect(alice.draft(in: "work")?.layout.caption == "work draft")
        #expect(alice.drafts.map(\.conversation) == ["family", "work"])
        #expect(report.outcome.copiesDelivered == 0, "staging sends nothing (M16)")
    }

    @Test func pressSendSendsThatConversationsDraft() async throws {
        let text = Self.header + "steps:\n" + Self.staging + """
          - at: 20ms
            device: alice-phone
            conversation: family
            press-send: true
          - at: 200ms
            device: alice-phone
            conversation: work
            press-send: true
        expect:
          - latest: { device: bob-phone, session: chores, from: alice, caption: "family draft" }
          - latest: { device: carol-phone, session: standup, from: alice, caption: "work draft" }

        """
        let report = try await Fixture.run(text)
        #expect(report.passed, "\(report.checks.map(\.detail))")
        #expect(report.outcome.failures.isEmpty)
        func texts(_ device: String, in conversation: String) -> [String?] {
            report.outcome.device(device)?.transcripts.first { $0.conversation == conversation }?.entries.map(\.text) ?? []
        }
        #expect(texts("bob-phone", in: "family") == ["family draft"])
        #expect(texts("carol-phone", in: "work") == ["work draft"])
        #expect(texts("alice-phone", in: "family") == ["family draft"])
        #expect(texts("alice-phone", in: "work") == ["work draft"])
        #expect(report.outcome.device("alice-phone")?.drafts.isEmpty == true)
    }

    /// A `send` step stages its message and sends it at once: over a draft of its own
    /// conversation, which it replaces, and beside another conversation's, which stays.
    @Test func aSendReplacesItsConversationsDraftAndKeepsTheOthers() async throws {
        let text = Self.header + "steps:\n" + Self.staging + """
          - { at: 20ms, device: alice-phone, conversation: family, send: { session: chores, caption: "family sent" } }
          - { at: 30ms, device: alice-phone, conversation: family, send: { session: chores, caption: "family again" } }

        """
        let report = try await Fixture.run(text)
        #expect(report.outcome.failures.isEmpty, "\(report.outcome.failures.map(\.reason))")
        let bob = report.outcome.device("bob-phone")?.transcripts.first { $0.conversation == "family" }?.entries.map(\.text) ?? []
        #expect(bob == ["family again"], "the second send collapses the first (M10); the staged draft never left")
        let alice = try #require(report.outcome.device("alice-phone"))
        #expect(alice.drafts.map(\.conversation) == ["work"])
        #expect(alice.draft(in: "work")?.layout.caption == "work draft")
        #expect(report.outcome.copiesDelivered == 2)
    }

    /// Sending the family draft while the extension runs in the work chat: the work chat's
    /// extension is not told of another conversation's send or cancel (M17).
    @Test func anotherConversationsSendIsNotTheRunningExtensionsCallback() async throws {
        let text = Self.header + "steps:\n" + Self.staging + """
          - at: 20ms
            device: alice-phone
            conversation: family
            press-send: true
          - at: 30ms
            device: alice-phone
            conversation: work
            cancel: true

        """
        let report = try await Fixture.run(text)
        #expect(report.outcome.failures.isEmpty)
        #expect(report.outcome.device("alice-phone")?.callbacks == [
            .willBecomeActive, .didBecomeActive, .userDidCompose,    // family, for the first insert
            .willResignActive, .didResignActive,                      // leaves for the work chat
            .willBecomeActive, .didBecomeActive, .userDidCompose,    // work, for the second insert
            .didCancelSending,                                         // its own draft removed
        ])
    }

    /// The app sees the draft of the conversation it runs in, not another's.
    @Test func eachConversationViewShowsItsOwnDraft() async throws {
        let seen = Recorder.Seen()
        var apps = AppRegistry()
        apps.register("recorder") { _ in Recorder(seen: seen) }
        let text = Self.header.replacingOccurrences(of: "people:", with: "app: { name: recorder }\npeople:")
            + "steps:\n" + Self.staging + """
          - at: 20ms
            device: alice-phone
            conversation: family
            insert: { session: chores, caption: "family again" }

        """
        _ = try await Fixture.run(text, apps: apps)
        #expect(seen.drafts.map(\.conversation) == ["family", "work", "family"])
        #expect(seen.drafts.map(\.caption) == [nil, nil, "family draft"])
    }

    /// A view built after only a draft changed (staging, sending) is the last view with
    /// its draft replaced: the new draft, and everything else as a view built anew shows.
    @Test func aViewAfterADraftChangeShowsTheNewDraftAndTheRestAsBefore() async throws {
        let seen = Recorder.Seen()
        var apps = AppRegistry()
        apps.register("recorder") { _ in Recorder(seen: seen) }
        let steps = ["insert: { session: chores, caption: one }", "insert: { session: chores, caption: two }", "press-send: true"]
            .enumerated().map { "  - at: \($0.offset * 10)ms\n    device: alice-phone\n    conversation: family\n    \($0.element)\n" }
        let text = Self.header.replacingOccurrences(of: "people:", with: "app: { name: recorder }\npeople:") + "steps:\n" + steps.joined()
        _ = try await Fixture.run(text, apps: apps)
        #expect(seen.views.map(\.callback) == ["compose", "compose", "send"])
        #expect(seen.views.map(\.view.draft?.layout.caption) == [nil, "one", nil])
        let first = try #require(seen.views.first?.view)
        #expect(first.remoteParticipantIdentifiers.count == 1)
        for (callback, view) in seen.views {
            #expect(view.name == "family", "\(callback)")
            #expect(view.localParticipantIdentifier == first.localParticipantIdentifier, "\(callback)")
            #expect(view.remoteParticipantIdentifiers == first.remoteParticipantIdentifiers, "\(callback)")
            #expect(view.presentationStyle == .compact, "\(callback)")
            #expect(view.selectedMessage == nil, "\(callback)")
        }
    }
}
