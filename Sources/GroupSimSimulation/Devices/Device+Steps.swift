import GroupSimCore
import GroupSimScenario

extension Device {
    /// Carries out one user action (docs/scenario-format.md, "Steps"; rules cited per case).
    mutating func performAction(_ step: Step, conversation: String) {
        switch step.action {
        case .send(let compose):
            guard openApp(in: conversation, style: .compact, selecting: nil) else { return }
            userComposes(compose, kind: .send, in: conversation, sendNow: !compose.direct)
        case .insert(let compose):
            guard openApp(in: conversation, style: .compact, selecting: nil) else { return }
            userComposes(compose, kind: .insert, in: conversation, sendNow: false)
        case .reply(let compose):
            if spec.platform == .macos {
                fail(.unknown, "a Mac does not run the iMessage extension, so it cannot reply in session \(compose.session) (M25): "
                    + "only iOS creates interactive messages, and a click on a bubble on macOS opens its http or https URL in the browser; "
                    + "reply from one of the person's iOS devices", rule: "M25")
                return
            }
            guard tapBubble(of: compose.session, in: conversation) else { return }
            userComposes(compose, kind: .reply, in: conversation, sendNow: !compose.direct)
        case .tap(let session):
            _ = tapBubble(of: session, in: conversation)
        case .open(let requested):
            guard requested != .transcript else {
                fail(.unknown, "the transcript style cannot be requested (M19)", rule: "M19")
                return
            }
            _ = openApp(in: conversation, style: requested, selecting: nil)
        case .pressSend:
            pressSend(in: conversation)
        case .cancel:
            cancelDraft(in: conversation)
        case .close:
            guard isRunning else {
                fail(.unknown, "the app is not running on \(name), so there is nothing to close (M22)", rule: "M22")
                return
            }
            resign()
        case .text(let text):
            commit(.text(text), in: conversation, change: nil, base: Provenance())
        case .sticker(let spec):
            sendSticker(spec, in: conversation)
        case .reinstall:
            reinstall()
        case .offline, .online, .join, .leave:
            // The network and the membership belong to the scheduler; it traces them.
            break
        }
    }

    /// Whether the action acts in the conversation (opens the app there, stages, sends or
    /// taps), which a person who is no longer a member cannot do (M6). Closing the app,
    /// reinstalling and the network are the device's own business.
    static func postsTo(_ action: Action) -> Bool {
        action.kind.built.postsToConversation
    }

    /// Whether the action is a touch in the extension's own view, the interaction a direct
    /// send needs (M18): the user composing in it (`send`, `reply`, `insert`). Opening it
    /// from the drawer, tapping a bubble in the transcript, Send and cancel in the input
    /// field, texts and stickers are touches in Messages, not in the extension.
    static func interactsWithExtension(_ action: Action) -> Bool {
        action.kind.built.interactsWithExtension
    }

    // MARK: - Composing

    /// Hands the user's compose intent to the app, with `$` tokens resolved on this device.
    mutating func userComposes(_ compose: Compose, kind: ComposeRequest.Kind, in conversation: String, sendNow: Bool) {
        let session = Session(name: compose.session)
        let data = compose.data.map {
            DataEntry(resolveTokens($0.key, in: conversation, raw: true), resolveTokens($0.value, in: conversation, raw: true))
        }
        let request = ComposeRequest(
            kind: kind, session: session, isNewSession: sessionIsNew, data: data,
            caption: compose.caption.map { resolveTokens($0, in: conversation, raw: false) },
            subcaption: compose.subcaption.map { resolveTokens($0, in: conversation, raw: false) },
            summary: compose.summary.map { resolveTokens($0, in: conversation, raw: false) },
            url: compose.url, direct: compose.direct)
        composing = data.isEmpty ? nil : PendingChange(step: currentStep, session: compose.session, entries: data)
        if world.app.state == .message, selected?.message?.session != session {
            // Nothing of this session is selected: the app builds on an empty state.
            readProvenance[compose.session] = Provenance()
        }
        sendWhenStaged = sendNow
        callback(.userDidCompose) { app, view in app.userDidCompose(request, conversation: view) }
    }

    /// `$me` and `$bob` in scenario text: as `$UUID` tokens for layout text (M5), or as the
    /// raw UUID string for data, as a naive app would write it (M4).
    mutating func resolveTokens(_ text: String, in conversation: String, raw: Bool) -> String {
        // Bytes, not Foundation's substring search: this runs on every composed text.
        guard text.utf8.contains(UInt8(ascii: "$")) else { return text }
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            // The text up to the next `$` is copied in one piece (`$` is one byte, never part
            // of another character's UTF-8), not character by character.
            guard let dollar = text.utf8[index...].firstIndex(of: UInt8(ascii: "$")) else {
                result += text[index...]
                break
            }
            result += text[index..<dollar]
            let nameStart = text.index(after: dollar)
            // A `$` with a combining mark after it is another character: copied as it is.
            guard text[dollar] == "$" else {
                result += text[dollar..<nameStart]
                index = nameStart
                continue
            }
            let nameEnd = text[nameStart...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") } ?? text.endIndex
            let word = String(text[nameStart..<nameEnd])
            let person = word == "me" ? spec.person : word
            if !word.isEmpty, let id = identifiers.id(for: person, in: conversation) {
                result += raw ? identityKey(for: person, id: id) : "$" + id.uuidString
            } else {
                result += "$" + word
            }
            index = nameEnd
        }
        return result
    }

    /// What `$person` in data becomes under `app.identity`: the raw participant
    /// identifier (M4), the install id (this installation's own, or the one last learned
    /// for that identifier; the raw identifier while none is known), or the account id.
    mutating func identityKey(for person: String, id: ParticipantID) -> String {
        switch world.app.identity {
        case .participantID:
            return id.uuidString
        case .account:
            return AppIdentity.accountID(world.streams, person: person)
        case .installID:
            if person == spec.person { return ownInstallID() }
            return localStorage[AppIdentity.installOfPrefix + id.uuidString] ?? id.uuidString
        }
    }

    /// This installation's install id, created the first time it is needed and kept in
    /// local storage until a reinstall (`app.identity: install-id`).
    mutating func ownInstallID() -> String {
        if let id = localStorage[AppIdentity.installKey] { return id }
        let id = AppIdentity.installID(world.streams, device: spec.name, generation: identifiers.generation)
        localStorage[AppIdentity.installKey] = id
        installIDs.append(id)
        return id
    }

    /// Records "this install id is the person this device knows as the message's
    /// senderParticipantIdentifier" (M3) in local storage (`app.identity: install-id`).
    /// GroupSim records it for every message of the app that reaches a device able to run
    /// it, as if the app read every bubble; a real extension sees only what didReceive
    /// hands it while open and the bubbles the user taps (M23, M15), so it learns later.
    mutating func learnInstall(of envelope: Envelope) {
        guard let install = envelope.senderInstall, spec.runsApp else { return }
        let sender = senderIdentifier(of: envelope)
        localStorage[AppIdentity.learnedPrefix + install] = sender.uuidString
        if envelope.senderDevice != spec.name { localStorage[AppIdentity.installOfPrefix + sender.uuidString] = install }
    }

    // MARK: - Sending

    /// The user taps Send on the conversation's staged draft (M16, M17). The extension
    /// hears of it only when it runs in that conversation.
    mutating func pressSend(in conversation: String) {
        guard let staged = drafts[conversation] else {
            fail(.noDraft, "there is no staged message to send in conversation \(conversation) on \(name) (M16)", rule: "M16")
            return
        }
        drafts[conversation] = nil
        guard var sent = staged.message else {
            // Text, a sticker or an attachment: Messages sends it; the app is not told (M17).
            commit(staged.content, in: staged.conversation, change: nil, base: Provenance())
            return
        }
        sent.isPending = false
        if activeConversation == conversation {
            callback(.didStartSending) { app, view in app.didStartSending(sent, conversation: view) }
        }
        commit(.app(sent), in: staged.conversation, change: staged.change, base: staged.base)
    }

    /// The user removes the conversation's staged draft (M17); the extension hears of it
    /// only when it runs in that conversation.
    mutating func cancelDraft(in conversation: String) {
        guard let staged = drafts[conversation] else {
            fail(.noDraft, "there is no staged message to cancel in conversation \(conversation) on \(name) (M17)", rule: "M17")
            return
        }
        drafts[conversation] = nil
        trace(.cancelled)
        guard let message = staged.message, activeConversation == conversation else { return }
        callback(.didCancelSending) { app, view in app.didCancelSending(message, conversation: view) }
    }

    /// A message leaves this device: numbered, added to its own transcript at once (M11),
    /// and handed to the network for fan-out (M30).
    mutating func commit(_ content: Envelope.Content, in conversation: String, change pending: PendingChange?, base: Provenance) {
        guard isMember(of: conversation) else {
            // An app's own send after its user was removed (M6): nothing leaves.
            fail(.notMember, "\(name) belongs to \(spec.person), who is not a member of conversation \(conversation) now (M6)", rule: "M6")
            return
        }
        let id = effects.context.nextMessageID
        effects.context.nextMessageID += 1
        var provenance = base
        var change: Change?
        if let pending {
            let made = pending.allocated ?? allocateChange(pending)
            provenance.insert(made.id)
            change = made
        }
        var install: String?
        if world.app.identity == .installID, case .app = content { install = ownInstallID() }
        var sessionNumber = -1
        if case .app(let message) = content, let session = message.session?.name { sessionNumber = world.sessionNumber(session) }
        let envelope = Envelope(id: id, conversation: conversation, senderDevice: spec.name, senderPerson: spec.person,
                                sentAt: now, content: content, senderMap: identifiers, provenance: provenance, change: change,
                                senderInstall: install, senderPosition: position, sessionNumber: sessionNumber,
                                conversationNumber: world.conversationNumbers[conversation] ?? -1, senderDeviceNumber: deviceNumber)
        switch content {
        case _ where !tracing:
            break
        case .app(let message):
            trace(.sent(message: id, session: message.session?.name, url: message.url), .message(message))
        case .text(let text):
            trace(.sent(message: id, session: nil, url: nil), .text(text))
        case .sticker(let sticker):
            trace(.sent(message: id, session: nil, url: nil),
                  .text("sticker \(sticker.format) \(sticker.bytes) bytes "
                         + "\(sticker.width)x\(sticker.height) \(sticker.stickerDescription)"))
        }
        add(envelope)
        effects.outgoing.append(envelope)
    }

    /// Gives a pending change its number and records it.
    mutating func allocateChange(_ pending: PendingChange) -> Change {
        let change = Change(id: effects.context.nextChangeID, step: pending.step, device: spec.name, person: spec.person,
                            session: pending.session, entries: pending.entries)
        effects.context.nextChangeID += 1
        effects.changes.append(change)
        return change
    }

    /// Validates a sticker (M28, M29) and sends it, or fails the step with its code.
    mutating func sendSticker(_ spec: StickerSpec, in conversation: String) {
        let result: Result<Sticker, MessageErrorCode>
        switch spec {
        case .described(let format, let bytes, let pixels, let description):
            result = Sticker.described(format: format, bytes: bytes, pixels: pixels, description: description)
        case .file:
            // Read and checked before the run, with the path taken from the scenario's folder.
            result = world.stickerFiles[spec] ?? .failure(.fileNotFound)
        }
        switch result {
        case .success(let sticker):
            commit(.sticker(sticker), in: conversation, change: nil, base: Provenance())
        case .failure(let code):
            fail(code, "the sticker was refused (M28, M29)", rule: "M28")
        }
    }

    /// Uninstall and reinstall: the app dies without callbacks and the device mints a
    /// whole new identifier set; other devices keep theirs (M2).
    mutating func reinstall() {
        setApp(nil)
        activeConversation = nil
        selected = nil
        interactionAvailable = false
        lastInteraction = nil
        drafts = [:]
        composing = nil
        readProvenance = [:]
        localStorage.removeAll()
        retired.append(identifiers)
        identifiers = world.mintIdentifiers(device: spec.name, generation: identifiers.generation + 1)
        environment = AppEnvironment(device: spec.name, installation: identifiers.generation, streams: world.streams)
        remoteOrderCache = [:]
        trace(.reinstalled(local: localIdentifier(in: world.conversations.first?.name ?? "")))
    }
}
