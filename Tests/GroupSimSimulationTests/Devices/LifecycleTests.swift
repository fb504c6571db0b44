import Foundation
import Testing
import GroupSim
import GroupSimTesting

@Suite struct LifecycleTests {
    static let pair = """
    name: t
    people:
      alice: [alice-phone]
      bob: [bob-phone]

    """

    static func callbacks(_ report: RunReport, _ device: String) -> [AppCallback] {
        report.outcome.device(device)?.callbacks ?? []
    }

    /// M16: insert stages only; nothing is sent until the user taps Send, and a later
    /// insert replaces the draft.
    @Test func m16InsertStagesAndReplaces() async throws {
        let text = Self.pair + """
        steps:
          - at: 0ms
            device: alice-phone
            insert: { session: a, caption: "first" }
          - at: 10ms
            device: alice-phone
            insert: { session: a, caption: "second" }

        """
        let report = try await Fixture.run(text)
        #expect(report.outcome.copiesDelivered == 0)
        #expect(report.transcript("bob-phone").isEmpty)
        let draft = try #require(report.outcome.device("alice-phone")?.draft)
        #expect(draft.layout.caption == "second")
        #expect(draft.isPending)
        #expect(report.transcript("alice-phone").isEmpty, "the sender's transcript changes only at Send (M11)")
    }

    /// M16 and M10: inserting a message of an existing session adds no new bubble on
    /// send: the session's bubble moves to the bottom.
    @Test func m16SessionBubbleMovesToTheBottom() async throws {
        let text = Self.pair + """
        steps:
          - at: 0ms
            device: alice-phone
            send: { session: a, caption: "game" }
          - at: 100ms
            device: bob-phone
            text: "nice"
          - at: 200ms
            device: bob-phone
            reply: { session: a, caption: "moved" }

        """
        let report = try await Fixture.run(text)
        #expect(report.lines("alice-phone") == ["text m2", "bubble m3"])
    }

    /// M17: isPending is true from insert until didStartSending; received messages are not
    /// pending; didCancelSending when the user removes the draft.
    @Test func m17PendingAndCancel() async throws {
        let text = Self.pair + """
        steps:
          - at: 0ms
            device: alice-phone
            insert: { session: a }
          - at: 10ms
            device: alice-phone
            cancel: true
          - at: 20ms
            device: alice-phone
            insert: { session: a }
          - at: 30ms
            device: alice-phone
            press-send: true

        """
        let report = try await Fixture.run(text)
        #expect(Self.callbacks(report, "alice-phone") == [
            .willBecomeActive, .didBecomeActive, .userDidCompose, .didCancelSending, .userDidCompose, .didStartSending,
        ])
        #expect(report.outcome.device("alice-phone")?.draft == nil)
        #expect(report.lines("bob-phone") == ["bubble m1"])
    }

    /// M23: the copies an open app hears of between its own calls keep their places among
    /// them (a device counts each run of `didReceive`s where it falls, and spells it out
    /// when the callbacks are read).
    @Test func m23ReceivedCopiesKeepTheirPlaces() async throws {
        // Alice sends at 0s, 3s and 4s; Bob at 1s, 2s and 5s, each copy arriving within the second.
        let sends = [("alice", "a", 1), ("bob", "b", 1), ("bob", "b", 2), ("alice", "a", 2), ("alice", "a", 3), ("bob", "b", 3)]
        let text = Self.pair + "steps:\n" + sends.enumerated().map { at, send in
            "  - at: \(at)s\n    device: \(send.0)-phone\n    send: { session: \(send.1), data: { n: \"\(send.2)\" } }\n"
        }.joined()
        let report = try await Fixture.run(text)
        #expect(Self.callbacks(report, "alice-phone") == [
            .willBecomeActive, .didBecomeActive, .userDidCompose, .didStartSending, .didReceive, .didReceive,
            .userDidCompose, .didStartSending, .userDidCompose, .didStartSending, .didReceive,
        ])
    }

    /// M19, M24: every style change calls willTransition then didTransition; the
    /// transcript style cannot be requested.
    @Test func m19M24StyleChanges() async throws {
        let text = Self.pair + """
        steps:
          - at: 0ms
            device: alice-phone
            open: compact
          - at: 10ms
            device: alice-phone
            open: expanded
          - at: 20ms
            device: alice-phone
            open: compact

        """
        let report = try await Fixture.run(text)
        #expect(Self.callbacks(report, "alice-phone")
                == [.willBecomeActive, .didBecomeActive, .willTransition, .didTransition, .willTransition, .didTransition])
    }

    /// M20: the drawer opens compact, so `open: expanded` on a closed app activates it
    /// compact, then transitions to expanded with both callbacks; a tap on a closed app
    /// still launches expanded at once (M21).
    @Test func m20DrawerOpensCompactThenExpands() async throws {
        let text = Self.pair + """
        steps:
          - { at: 0ms, device: alice-phone, open: expanded }
          - { at: 10ms, device: alice-phone, send: { session: a } }
          - { at: 100ms, device: bob-phone, tap: a }
        expect:
          - callbacks: { device: alice-phone, sequence: [willBecomeActive, didBecomeActive, willTransition, didTransition, \
        willTransition, didTransition, userDidCompose, didStartSending] }
          - callbacks: { device: bob-phone, sequence: [willBecomeActive, didBecomeActive] }

        """
        let report = try await Fixture.run(text)
        #expect(report.passed, "\(report.checks.map(\.detail))")
    }

    /// M21, M24: a tap while the app runs selects the bubble; the transition pair comes
    /// only with a style change, so a tap while already expanded fires none.
    @Test func m21M24TapWhileExpandedChangesNoStyle() async throws {
        func taps(opening style: String) -> String {
            Self.pair + """
            steps:
              - { at: 0ms, device: alice-phone, send: { session: a } }
              - { at: 100ms, device: bob-phone, open: \(style) }
              - { at: 200ms, device: bob-phone, tap: a }
              - { at: 300ms, device: bob-phone, tap: a }

            """
        }
        // The drawer opens compact, then transitions (M20); the taps find it expanded.
        let expanded = try await Fixture.run(taps(opening: "expanded"))
        #expect(Self.callbacks(expanded, "bob-phone") == [.willBecomeActive, .didBecomeActive, .willTransition, .didTransition,
            .willSelect, .didSelect, .willSelect, .didSelect])
        let compact = try await Fixture.run(taps(opening: "compact"))
        #expect(Self.callbacks(compact, "bob-phone") == [
            .willBecomeActive, .didBecomeActive, .willTransition, .willSelect, .didSelect, .didTransition, .willSelect, .didSelect,
        ])
    }

    /// M20: open from the drawer: compact, nothing selected. M21: tap while not running opens
    /// expanded with the bubble selected; a second tap, already expanded, only selects: no
    /// style change, so no transition pair (M24). M22: close ends the process.
    @Test func m20M21M22OpenTapClose() async throws {
        let text = Self.pair + """
        steps:
          - at: 0ms
            device: alice-phone
            send: { session: a }
          - at: 100ms
            device: bob-phone
            tap: a
          - at: 200ms
            device: bob-phone
            tap: a
          - at: 300ms
            device: bob-phone
            close: true
        expect:
          - callbacks: { device: bob-phone, sequence: [willBecomeActive, didBecomeActive, willSelect, didSelect, \
        willResignActive, didResignActive] }

        """
        let report = try await Fixture.run(text)
        #expect(report.passed, "\(report.checks.map(\.detail))")
    }

    /// M23: didReceive only while the app is active; messages that arrive while it is not
    /// running are never replayed.
    @Test func m23DidReceiveOnlyWhileActive() async throws {
        let text = Self.pair + """
        steps:
          - at: 0ms
            device: bob-phone
            open: compact
          - at: 10ms
            device: alice-phone
            send: { session: a }
          - at: 100ms
            device: bob-phone
            close: true
          - at: 200ms
            device: alice-phone
            send: { session: b }
          - at: 400ms
            device: bob-phone
            open: compact

        """
        let report = try await Fixture.run(text)
        #expect(Self.callbacks(report, "bob-phone").filter { $0 == .didReceive }.count == 1)
    }

    /// M15: the selected message is not refreshed when newer messages of its session arrive.
    @Test func m15SelectionIsNotRefreshed() async throws {
        struct Recorder: MessagesApp {
            let seen: Seen
            final class Seen: @unchecked Sendable { var selected: [Int?] = [] }
            mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
                [.insert(Message(session: request.session, url: "?n=1"))]
            }
            mutating func didReceive(_ message: Message, conversation: Conversation) -> [AppAction] {
                seen.selected.append(conversation.selectedMessage?.id)
                return []
            }
        }
        let seen = Recorder.Seen()
        var apps = AppRegistry()
        apps.register("recorder") { _ in Recorder(seen: seen) }
        let text = Self.pair.replacingOccurrences(of: "people:", with: "app: { name: recorder }\npeople:") + """
        steps:
          - at: 0ms
            device: alice-phone
            text: "first a text, so the session's message is m2"
          - at: 1ms
            device: alice-phone
            send: { session: a }
          - at: 100ms
            device: bob-phone
            tap: a
          - at: 200ms
            device: alice-phone
            send: { session: a }

        """
        _ = try await Fixture.run(text, apps: apps)
        #expect(seen.selected == [2], "Bob's app still has m2 selected when m3 arrives")
    }

    /// M7, M9: what a message carries and how the layout draws.
    @Test func m7M9MessageAndLayout() {
        let layout = TemplateLayout(image: "pizza.png", mediaFileURL: "file:///movie.mov")
        #expect(layout.media == "pizza.png", "the image wins over the media file (M9)")
        #expect(!layout.hasCaptionBar)
        #expect(TemplateLayout(trailingSubcaption: "x").hasCaptionBar)
        let message = Message(session: Session(name: "s"), url: "?a=1", layout: layout, summaryText: "sum", accessibilityLabel: "label",
                              shouldExpire: true)
        #expect(message.url == "?a=1" && message.summaryText == "sum" && message.shouldExpire && !message.isPending && message.error == nil)
    }
}

@Suite struct PlatformTests {
    static let text = """
    name: platforms
    people:
      alice: [alice-phone, alice-mac]
      bob: [bob-watch, bob-old]
      carol: [carol-phone]
    devices:
      alice-mac: { platform: macos }
      bob-watch: { platform: watchos }
      bob-old: { platform: ios9 }
      carol-phone: { app: missing }
    steps:
      - at: 0ms
        device: alice-phone
        send: { session: poll, caption: "Lunch?", url: "https://example.com/p", data: { q: lunch } }
      - at: 100ms
        device: alice-mac
        tap: poll
      - at: 200ms
        device: bob-watch
        tap: poll
      - at: 300ms
        device: carol-phone
        send: { session: other }

    """

    /// M25: macOS draws the bubble and a click opens an http(s) URL; watchOS hands off.
    @Test func m25MacAndWatch() async throws {
        let report = try await Fixture.run(Self.text)
        let notes = report.outcome.trace.events.filter { if case .note = $0.kind { return true } else { return false } }
        #expect(notes.map(\.kind) == [.note(.openedInBrowser(url: "https://example.com/p?q=lunch"))])
        #expect(notes.map(\.kindText) == ["note opened https://example.com/p?q=lunch in the browser (M25)"])
        #expect(report.lines("alice-mac") == ["bubble m1"])
        let watch = report.outcome.failures.first { $0.device == "bob-watch" }
        #expect(watch?.reason.contains("M25") == true)
    }

    /// M25, M26: stickers come from the iOS 10 extension only. A Mac and an iOS 9 device
    /// fail with `unknown`; a watch sends a sticker only from its Recents, once its
    /// person's iPhone has sent that sticker and it reached the watch, never another one.
    @Test func m25M26StickersOnlyFromTheIOSExtension() async throws {
        let pickle = "{ format: png, bytes: 40000, pixels: 408, description: \"a pickle\" }"
        let text = """
        name: stickers
        people:
          alice: [alice-phone, alice-mac]
          bob: [bob-phone, bob-watch]
          carol: [carol-old]
        devices:
          alice-mac: { platform: macos }
          bob-watch: { platform: watchos }
          carol-old: { platform: ios9 }
        steps:
          - { at: 0ms, device: alice-mac, sticker: \(pickle) }
          - { at: 100ms, device: carol-old, sticker: \(pickle) }
          - { at: 200ms, device: bob-watch, sticker: \(pickle) }
          - { at: 300ms, device: bob-phone, sticker: \(pickle) }
          - { at: 1s, device: bob-watch, sticker: \(pickle) }
          - { at: 1100ms, device: bob-watch, sticker: { format: png, bytes: 40000, pixels: 408, description: "another" } }
          - { at: 1200ms, device: alice-phone, sticker: { format: png, bytes: 40000, pixels: 408, description: "alice's" } }
          - { at: 2s, device: bob-watch, sticker: { format: png, bytes: 40000, pixels: 408, description: "alice's" } }

        """
        let report = try await Fixture.run(text)
        let failed = report.outcome.failures.map { "\($0.step ?? 0) \($0.code.name) \($0.rule ?? "")" }
        #expect(failed == ["1 unknown M25", "2 unknown M26", "3 unknown M25", "6 unknown M25", "8 unknown M25"])
        #expect(report.outcome.failures.first { $0.step == 3 }?.reason.contains("Recents") == true)
        // Steps 4, 5 and 7 sent: alice-phone draws bob's two pickles and its own sticker.
        #expect(report.transcript("alice-phone").map(\.text) == ["a pickle", "a pickle", "alice's"])
    }

    /// M26: iOS 9 receives plain messages instead: the layout's image, then the web URL.
    /// This layout has no image, so no picture is made up: only the URL arrives.
    @Test func m26OldSystemsGetPlainMessages() async throws {
        let report = try await Fixture.run(Self.text)
        #expect(report.transcript("bob-old").map(\.text) == ["https://example.com/p?q=lunch"])
        #expect(report.transcript("bob-old").allSatisfy { $0.kind == .plain })
    }

    /// M26: old systems get two plain messages, the layout's image and the message's URL as
    /// text; a URL with no scheme (the built-in app's `?q=lunch`) arrives too, a data URL
    /// does not.
    @Test func m26OldSystemsGetTheURLAsText() async throws {
        let text = """
        name: old
        people:
          alice: [alice-phone]
          bob: [bob-old]
        devices:
          bob-old: { platform: ios9 }
        steps:
          - { at: 0ms, device: alice-phone, send: { session: poll, caption: "Lunch?", data: { q: lunch } } }
          - { at: 10ms, device: alice-phone, send: { session: data, url: "data:text/plain,hi" } }

        """
        let report = try await Fixture.run(text)
        #expect(report.transcript("bob-old").map(\.text) == ["?q=lunch"])
        #expect(report.transcript("bob-old").allSatisfy { $0.kind == .plain })
    }

    /// M26 with M5: the picture of a layout's image carries its caption as Messages draws
    /// it, `$UUID` tokens as contact names; without an image there is no picture at all.
    @Test func m26FallbackDrawsNamesAndInventsNoPicture() async throws {
        struct Pictures: MessagesApp {
            mutating func userDidCompose(_ request: ComposeRequest, conversation: Conversation) -> [AppAction] {
                let image = request.session.name == "pic" ? "pizza.png" : nil
                return [.insert(Message(session: request.session, url: "https://example.com/\(request.session.name)",
                                        layout: TemplateLayout(image: image, caption: request.caption)))]
            }
        }
        var apps = AppRegistry()
        apps.register("pictures") { _ in Pictures() }
        let text = """
        name: fallback
        app: { name: pictures }
        people:
          alice: [alice-phone]
          bob: [bob-old]
        devices:
          bob-old: { platform: ios9 }
        steps:
          - { at: 0ms, device: alice-phone, send: { session: pic, caption: "$me asks $bob" } }
          - { at: 10ms, device: alice-phone, send: { session: bare, caption: "$me asks again" } }

        """
        let report = try await Fixture.run(text, apps: apps)
        #expect(report.transcript("bob-old").map(\.text) == [
            "[picture of pizza.png, captioned \"Alice asks Bob\"]", "https://example.com/pic", "https://example.com/bare",
        ])
        #expect(report.transcript("bob-old").allSatisfy { $0.text?.contains("$") == false })
    }

    /// M27: a device without the app draws the layout and cannot run the extension.
    @Test func m27NoAppDrawsTheLayout() async throws {
        let report = try await Fixture.run(Self.text)
        #expect(report.transcript("carol-phone").first?.text == "Lunch?")
        let failure = try #require(report.outcome.failures.first { $0.device == "carol-phone" })
        #expect(failure.step == 4)
        #expect(failure.reason.contains("M27"))
    }

    /// M3: a person's own message shows up on their other device.
    @Test func m3OwnMessageOnTheOtherDevice() async throws {
        let report = try await Fixture.run(Self.text)
        let mac = try #require(report.transcript("alice-mac").first)
        #expect(mac.senderIdentifier == report.outcome.device("alice-mac")?.localIdentifier)
    }
}
