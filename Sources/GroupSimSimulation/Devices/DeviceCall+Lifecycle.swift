import GroupSimCore
import GroupSimScenario

extension DeviceCall {
    // MARK: - Opening, tapping, closing (M19-M24)

    /// Opens the app from the drawer (M20), or changes style if it is already open here
    /// (M24). The drawer always opens compact: `expanded` then transitions, with both
    /// callbacks. A tap (`selecting` set) launches straight into `style` (M21). Returns
    /// false, with the step failed, where the app cannot run.
    mutating func openApp(in conversation: String, style requested: Scenario.PresentationStyle, selecting: Envelope?) -> Bool {
        guard device.spec.runsApp else {
            let why = device.spec.hasApp ? "\(device.spec.platform.rawValue) devices cannot run the extension (M25, M26)" : "the app is not installed "
                + "on \(device.spec.name) (M27)"
            fail(.unknown, why, rule: device.spec.hasApp ? "M25" : "M27")
            return false
        }
        if device.isRunning, device.activeConversation != conversation { resign() }
        if !device.isRunning {
            guard let makeApp = device.makeApp else {
                fail(.unknown, "no app is registered under the scenario's app name", rule: nil)
                return false
            }
            var made = makeApp(device.world.app)
            made.didLaunch(in: device.environment)
            device.setApp(consume made)
            device.activeConversation = conversation
            device.style = selecting == nil ? .compact : requested
            device.selected = selecting
            if let selecting { noteRead(selecting, in: conversation) }
            callback(.willBecomeActive) { app, view in app.willBecomeActive(view) }
            callback(.didBecomeActive) { app, view in app.didBecomeActive(view) }
            reportHostSightings()
        }
        if device.style != requested {
            transition(to: requested)
        }
        return device.isRunning
    }

    /// Taps the session's live bubble: opens the app expanded with it selected when not
    /// running (M21); when running, selects it and moves to expanded (M21), with the
    /// willTransition/didTransition pair only when the style changes: a tap while already
    /// expanded only selects (M24).
    mutating func tapBubble(of session: String, in conversation: String) -> Bool {
        guard let live = liveBubble(of: session, in: conversation) else {
            fail(.noBubble, "no bubble of session \(session) on \(device.spec.name)", rule: nil)
            return false
        }
        guard device.spec.runsApp else {
            clickWithoutApp(live)
            return false
        }
        guard device.isRunning, device.activeConversation == conversation else {
            return openApp(in: conversation, style: .expanded, selecting: live)
        }
        let message = view(of: live, sender: senderIdentifier(of: live))
        let changesStyle = device.style != .expanded
        if changesStyle {
            callback(.willTransition) { app, view in app.willTransition(to: .expanded, conversation: view) }
        }
        callback(.willSelect) { app, view in app.willSelect(message, conversation: view) }
        device.selected = live
        noteRead(live, in: conversation)
        callback(.didSelect) { app, view in app.didSelect(message, conversation: view) }
        if changesStyle {
            device.style = .expanded
            callback(.didTransition) { app, view in app.didTransition(to: .expanded, conversation: view) }
        }
        return appIsRunning
    }

    /// A click on a bubble where the extension cannot run: macOS opens an http or https
    /// URL in the browser (M25); a watch hands replies off to the iPhone (M25); a device
    /// without the app only draws the layout (M27).
    mutating func clickWithoutApp(_ envelope: Envelope) {
        let url = envelope.message?.url
        switch device.spec.platform {
        case .macos:
            if let url, MessageURL.isWeb(url) {
                trace(.note(.openedInBrowser(url: url)))
            } else {
                fail(.unknown, "a click on macOS opens only http or https URLs in the browser (M25); this bubble's URL is \(url ?? "nil")", rule: "M25")
            }
        case .watchos:
            fail(.unknown, "watchOS draws the bubble and hands replies off to the iPhone (M25); act on the person's iPhone", rule: "M25")
        case .ios9:
            fail(.unknown, "iOS 9 received plain messages, not a bubble (M26)", rule: "M26")
        case .ios:
            fail(.unknown, "the app is not installed on \(device.spec.name): the bubble is only drawn from its layout (M27)", rule: "M27")
        }
    }

    /// Closes the extension: the process ends and keeps nothing in memory (M22).
    mutating func resign() {
        callback(.willResignActive) { app, view in app.willResignActive(view) }
        callback(.didResignActive) { app, view in app.didResignActive(view) }
        device.endAppProcess()
        device.sendWhenStaged = false
    }

    /// Every style change calls willTransition then didTransition (M24).
    mutating func transition(to newStyle: Scenario.PresentationStyle) {
        guard device.isRunning, newStyle != device.style else { return }
        callback(.willTransition) { app, view in app.willTransition(to: newStyle, conversation: view) }
        device.style = newStyle
        callback(.didTransition) { app, view in app.didTransition(to: newStyle, conversation: view) }
    }

    /// Reports what the app's host saw in the app as it became active (an object it
    /// shares with another device's app, M22); the built-in app's host sees nothing.
    mutating func reportHostSightings() {
        let environment = device.environment
        guard !environment.hostSightings.isEmpty else { return }
        for seen in environment.hostSightings { sighting(seen.kind, message: nil, seen.detail) }
        environment.hostSightings.removeAll()
    }

    // MARK: - Calling the app

    /// Records the callback (in the trace and in `callbacks`, which a `callbacks:` check
    /// compares) and calls the app, then carries out what it asked for. Does nothing when
    /// the app is not running (M19-M24).
    mutating func callback(_ name: AppCallback, _ call: (inout any MessagesApp, Conversation) -> [AppAction]) {
        guard device.isRunning else { return }
        recordCallback(name)
        // The built-in app does nothing on it: recorded, not made (a send's didStartSending).
        if appIgnores(name) { return }
        let box = conversationViewBox()
        let (actions, reporting) = appActions { call(&$0, box.view) }
        perform(actions, reporting: reporting)
    }

    /// Whether the running app does nothing on `name` whatever its state (`BuiltInApp.ignores`).
    func appIgnores(_ name: AppCallback) -> Bool {
        guard let mode = device.builtInAppMode else { return false }
        return BuiltInApp.ignores(name, mode: mode)
    }

    /// Notes a call to the running app in its list and the trace.
    mutating func recordCallback(_ name: AppCallback) {
        device.noteCallback(name)
        // Asked first: every copy an open app hears of comes here, and the event was built for nothing.
        if device.tracing { trace(.callback(name)) }
    }

    /// Calls into the app with the instance held outside `self`, so that actions it
    /// returns may call it again. Returns them, and whether the app wants each one's
    /// result (`wantsActionResults`).
    mutating func appActions(_ call: (inout any MessagesApp) -> [AppAction]) -> (actions: [AppAction], reporting: Bool) {
        // Moved out, not copied, and held only here during the call, so that a mutating
        // call does not copy the app's box either.
        // `isRunning` stays true: nothing of the device runs while the app holds the call.
        guard var instance = device.app.take() else { return ([], false) }
        let actions = call(&instance)
        // Asked of the instance in hand, and only when there are actions: asking the
        // device's copied the whole app on every list.
        let reporting = !actions.isEmpty && instance.wantsActionResults
        // An app may change its mind as its state changes.
        device.setApp(consume instance)
        return (actions, reporting)
    }

    /// Carries out an app's actions in order, telling an app that wants them each action's
    /// result (`didComplete`). Apps that keep asking from their own callbacks are cut off
    /// after a fixed depth, with a failure, instead of looping. `reporting`: whether the
    /// app wants each action's result.
    mutating func perform(_ actions: [AppAction], reporting: Bool) {
        guard !actions.isEmpty else { return }
        device.actionDepth += 1
        defer { device.actionDepth -= 1 }
        guard device.actionDepth <= 16 else {
            fail(.unknown, "the app kept asking for actions from its own callbacks; stopped after 16 levels", rule: nil)
            if reporting { for action in actions { report(action, error: .unknown) } }
            return
        }
        var sendAfterDismissing: String?
        for (index, action) in actions.enumerated() {
            guard device.isRunning, let conversation = device.activeConversation else {
                // The app dismissed itself earlier in this list: it is no longer visible.
                if action.isDirectSend { fail(.sendWhileNotVisible, "direct send after the app was dismissed: it is not visible (M18)", rule: "M18") }
                continue
            }
            let error = carryOut(action, in: conversation)
            if reporting { report(action, error: error) }
            if action.stagesDraft, error == nil, device.sendWhenStaged {
                // The step said the user taps Send once the app has staged its message. An
                // app that dismisses itself in the same call is gone by then: Messages
                // sends the draft without it, and it hears nothing (M22).
                device.sendWhenStaged = false
                if actions[(index + 1)...].contains(.dismiss) { sendAfterDismissing = conversation } else { pressSend(in: conversation) }
            }
        }
        if let conversation = sendAfterDismissing { pressSend(in: conversation) }
    }

    /// Tells the app one action's result and carries out what it asks for in turn.
    private mutating func report(_ action: AppAction, error: MessageErrorCode?) {
        guard device.isRunning else { return }
        let box = conversationViewBox()
        let (actions, reporting) = appActions { $0.didComplete(action, error: error, conversation: box.view) }
        perform(actions, reporting: reporting)
    }

    /// Carries out one action; returns the error code a completion handler would get.
    private mutating func carryOut(_ action: AppAction, in conversation: String) -> MessageErrorCode? {
        switch action {
        case .insert(let message):
            return stage(message, in: conversation)
        case .send(let message):
            return directSend(.app(message), in: conversation)
        case .insertText(let text):
            return stageContent(.text(text), in: conversation)
        case .sendText(let text):
            return directSend(.text(text), in: conversation)
        case .insertSticker(let sticker):
            return stageContent(.sticker(sticker), in: conversation)
        case .sendSticker(let sticker):
            return directSend(.sticker(sticker), in: conversation)
        case .insertAttachment(let name):
            return stageContent(.text("[attachment \(name)]"), in: conversation)
        case .requestPresentationStyle(let requested):
            if requested == .transcript {
                fail(.unknown, "the app asked for the transcript style, which cannot be requested (M19)", rule: "M19")
                return .unknown
            }
            transition(to: requested)
        case .dismiss:
            resign()
        case .fetch(let key):
            trace(.cloudRequest(.fetch, key: key), .cloud(operation: .fetch, record: nil))
            effects.cloudRequests.append(CloudRequest(device: device.spec.name, conversation: conversation, key: key, operation: .fetch,
                                                  provenance: Provenance(), change: nil, origin: device.origin))
        case .store(let key, let write):
            // The write carries the user's current change, whatever record the app names.
            var change: Change?
            if var pending = device.composing {
                let made = pending.allocated ?? allocateChange(pending)
                pending.allocated = made
                device.composing = pending
                change = made
                device.written[made.session] = made
            }
            trace(.cloudRequest(.store, key: key), .cloud(operation: .store(write), record: nil))
            effects.cloudRequests.append(CloudRequest(device: device.spec.name, conversation: conversation, key: key, operation: .store(write),
                                                  provenance: device.readProvenance[key] ?? Provenance(), change: change,
                                                  origin: device.origin))
        }
        return nil
    }

    // MARK: - Staging and direct send (M8, M16, M18)

    /// Applies the url setter's rules (M8): a custom scheme is dropped silently, leaving
    /// the old value (nil); over 5,000 characters fails with `urlExceedsMaxSize`.
    mutating func checkedURL(_ message: Message) -> Message? {
        var message = message
        if let url = message.url {
            if !MessageURL.isAccepted(url) {
                trace(.droppedURL(url: url))
                sighting(.droppedURL, message: nil, "the url setter silently dropped \(url) on \(device.spec.name): only http, https, data or no "
                    + "scheme are kept (M8)")
                message.url = nil
            } else if url.utf8.count > MessageURL.maximumLength, url.count > MessageURL.maximumLength {
                // Counted in characters (M8), but only past the limit in bytes: a character
                // is at least one byte, and counting characters on every staged message
                // looked up each scalar's grapheme properties.
                fail(.urlExceedsMaxSize, "the URL has \(url.count) characters; the limit is \(MessageURL.maximumLength) (M8)", rule: "M8")
                return nil
            }
        }
        return message
    }

    /// Stages the app's message in the conversation's input field (M16), replacing that
    /// conversation's draft only; the extension moves to compact so the field is visible.
    /// Returns the error code when the message is refused (M8).
    @discardableResult
    mutating func stage(_ message: Message, in conversation: String) -> MessageErrorCode? {
        guard var message = checkedURL(message) else {
            device.sendWhenStaged = false
            return .urlExceedsMaxSize
        }
        message.isPending = true
        message.id = nil
        // The URL's state, read once here for the checks below and kept with the draft for
        // the message it becomes (each read it again).
        let state = StateMap(url: message.url)
        // The session's number, looked up once for the live bubbles and the sent message.
        let number = message.session.map { sessionNumber($0.name) } ?? -1
        checkStaleSelection(message, state: state, number: number)
        transition(to: .compact)
        // Taken, not copied out and cleared (the change's entries and strings retained and released).
        let change = device.composing?.session == message.session?.name ? device.composing.take() : nil
        device.drafts[conversation] = Draft(content: .app(message), conversation: conversation, change: change,
                                            base: base(of: message, state: state, number: number), state: state, sessionNumber: number)
        if device.tracing { trace(.staged(session: message.session?.name), .message(message)) }
        return nil
    }

    /// Stages text, a sticker or an attachment line in the conversation's input field (M16).
    mutating func stageContent(_ content: Envelope.Content, in conversation: String) -> MessageErrorCode? {
        transition(to: .compact)
        device.drafts[conversation] = Draft(content: content, conversation: conversation, change: nil, base: Provenance())
        trace(.staged(session: nil))
        return nil
    }

    /// Direct send (M18): allowed once per user interaction, only while the app is visible,
    /// and no later than `options.recent-interaction` after that interaction. Returns the
    /// error code a completion handler gets, nil when the send started.
    @discardableResult
    mutating func directSend(_ content: Envelope.Content, in conversation: String) -> MessageErrorCode? {
        guard device.isRunning, device.style != .transcript else {
            fail(.sendWhileNotVisible, "direct send while the app is not visible (M18)", rule: "M18")
            return .sendWhileNotVisible
        }
        guard device.interactionAvailable, let last = device.lastInteraction else {
            fail(.sendWithoutRecentInteraction, "direct send without a recent user interaction (M18)", rule: "M18")
            return .sendWithoutRecentInteraction
        }
        let window = device.world.options.recentInteraction
        guard now - last <= window else {
            fail(.sendWithoutRecentInteraction,
                 "direct send \(now - last) after the user's last interaction with the extension at \(last); "
                     + "it counts as recent for \(window) (options.recent-interaction, M18)", rule: "M18")
            return .sendWithoutRecentInteraction
        }
        device.interactionAvailable = false
        guard case .app(let unchecked) = content else {
            commit(content, in: conversation, change: nil, base: Provenance())
            return nil
        }
        guard var message = checkedURL(unchecked) else { return .urlExceedsMaxSize }
        checkStaleSelection(message)
        message.isPending = false
        var change = device.composing?.session == message.session?.name ? device.composing.take() : nil
        let base = base(of: message)
        change = startSending(message, change: change)
        commit(.app(message), in: conversation, change: change, base: base)
        return nil
    }

    /// The provenance of the state a message was built on: what the app read, plus the
    /// live bubble's when the message already holds all of its state (an app that built
    /// on a newer bubble didReceive handed it, M23).
    /// `state`: the message URL's, if already read; `number`: its session's number, if
    /// already looked up.
    mutating func base(of message: Message, state: StateMap? = nil, number: Int = -1) -> Provenance {
        guard let session = message.session?.name else { return Provenance() }
        var base = device.readProvenance[session] ?? Provenance()
        if device.world.app.state == .message, let conversation = device.activeConversation,
           let live = liveBubble(of: session, in: conversation, number: number), builtOn(live, message, state: state) {
            base = base.union(live.provenance)
        }
        return base
    }

    /// Whether `message`'s state holds every entry of `envelope`'s (message mode).
    func builtOn(_ envelope: Envelope, _ message: Message, state: StateMap? = nil) -> Bool {
        let shown = envelope.state
        return !shown.isEmpty && (state ?? StateMap(url: message.url)).contains(shown.entries)
    }

    /// A reply built on a selected bubble older than the session's live bubble (M15).
    /// Only where the state travels in the message (`app.state: message`): with a cloud
    /// store the app fetches the current state, so an old selection loses nothing (M13).
    /// Not when the message already holds the live bubble's whole state: the app built on
    /// the newer bubble (`app.selection: newest`), so the selection undid nothing.
    /// `number`: the session's number, if already looked up.
    mutating func checkStaleSelection(_ message: Message, state: StateMap? = nil, number: Int = -1) {
        guard device.world.app.state == .message,
              let session = message.session, let chosen = device.selected, chosen.sessionName == session.name,
              let conversation = device.activeConversation,
              let live = liveBubble(of: session.name, in: conversation, number: number),
                  live.id != chosen.id,
              !builtOn(live, message, state: state) else { return }
        sighting(.staleSelection, message: chosen.id,
                 "\(device.spec.name) built on m\(chosen.id), its selectedMessage, but the live bubble of \(session.name) is already m\(live.id) (M15)")
    }
}
