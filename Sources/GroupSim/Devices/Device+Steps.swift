extension Device {
    /// Carries out one user action (SCENARIO-FORMAT.md, "Steps"; rules cited per case).
    func performAction(_ step: Step, conversation: String) {
        switch step.action {
        case .send(let compose):
            guard openApp(in: conversation, style: .compact, selecting: nil) else { return }
            userComposes(compose, kind: .send, in: conversation, sendNow: !compose.direct)
        case .insert(let compose):
            guard openApp(in: conversation, style: .compact, selecting: nil) else { return }
            userComposes(compose, kind: .insert, in: conversation, sendNow: false)
        case .reply(let compose):
            guard tapBubble(of: compose.session, in: conversation) else { return }
            userComposes(compose, kind: .reply, in: conversation, sendNow: !compose.direct)
        case .tap(let session):
            _ = tapBubble(of: session, in: conversation)
        case .open(let requested):
            guard requested != .transcript else {
                fail(.unknown, "the transcript style cannot be requested (M19)")
                return
            }
            _ = openApp(in: conversation, style: requested, selecting: nil)
        case .pressSend:
            pressSend()
        case .cancel:
            cancelDraft()
        case .close:
            guard app != nil else {
                fail(.unknown, "the app is not running on \(name), so there is nothing to close (M22)")
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

    // MARK: - Composing

    /// Hands the user's compose intent to the app, with `$` tokens resolved on this device.
    func userComposes(_ compose: Compose, kind: ComposeRequest.Kind, in conversation: String, sendNow: Bool) {
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
        callback("userDidCompose") { app, view in app.userDidCompose(request, conversation: view) }
    }

    /// `$me` and `$bob` in scenario text: as `$UUID` tokens for layout text (M5), or as the
    /// raw UUID string for data, as a naive app would write it (M4).
    func resolveTokens(_ text: String, in conversation: String, raw: Bool) -> String {
        // Bytes, not Foundation's substring search: this runs on every composed text.
        guard text.utf8.contains(UInt8(ascii: "$")) else { return text }
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == "$" else {
                result.append(character)
                index = text.index(after: index)
                continue
            }
            let nameStart = text.index(after: index)
            let nameEnd = text[nameStart...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") } ?? text.endIndex
            let word = String(text[nameStart..<nameEnd])
            let person = word == "me" ? spec.person : word
            if !word.isEmpty, let id = identifiers.id(for: person, in: conversation) {
                result += (raw ? "" : "$") + id.uuidString
            } else {
                result += "$" + word
            }
            index = nameEnd
        }
        return result
    }

    // MARK: - Sending

    /// The user taps Send on the staged draft (M16, M17).
    func pressSend() {
        guard let staged = draft else {
            fail(.noDraft, "there is no staged message to send on \(name) (M16)")
            return
        }
        draft = nil
        guard var sent = staged.message else {
            // Text, a sticker or an attachment: Messages sends it; the app is not told (M17).
            commit(staged.content, in: staged.conversation, change: nil, base: Provenance())
            return
        }
        sent.isPending = false
        callback("didStartSending") { app, view in app.didStartSending(sent, conversation: view) }
        commit(.app(sent), in: staged.conversation, change: staged.change, base: staged.base)
    }

    /// The user removes the staged draft (M17).
    func cancelDraft() {
        guard let staged = draft else {
            fail(.noDraft, "there is no staged message to cancel on \(name) (M17)")
            return
        }
        draft = nil
        trace(.cancelled)
        guard let message = staged.message else { return }
        callback("didCancelSending") { app, view in app.didCancelSending(message, conversation: view) }
    }

    /// A message leaves this device: numbered, added to its own transcript at once (M11),
    /// and handed to the network for fan-out (M30).
    func commit(_ content: Envelope.Content, in conversation: String, change pending: PendingChange?, base: Provenance) {
        let id = out.context.nextMessageID
        out.context.nextMessageID += 1
        var provenance = base
        var change: Change?
        if let pending {
            let made = pending.allocated ?? allocateChange(pending)
            provenance.insert(made.id)
            change = made
        }
        let envelope = Envelope(id: id, conversation: conversation, senderDevice: spec.name, senderPerson: spec.person,
                                sentAt: now, content: content, senderMap: identifiers, provenance: provenance, change: change)
        if case .app(let message) = content {
            trace(.sent(message: id, session: message.session?.name, url: message.url))
        } else {
            trace(.sent(message: id, session: nil, url: nil))
        }
        add(envelope)
        out.outgoing.append(envelope)
    }

    /// Gives a pending change its number and records it.
    func allocateChange(_ pending: PendingChange) -> Change {
        let change = Change(id: out.context.nextChangeID, step: pending.step, device: spec.name, person: spec.person,
                            session: pending.session, entries: pending.entries)
        out.context.nextChangeID += 1
        out.changes.append(change)
        return change
    }

    /// Validates a sticker (M28, M29) and sends it, or fails the step with its code.
    func sendSticker(_ spec: StickerSpec, in conversation: String) {
        let result: Result<Sticker, MessageErrorCode>
        switch spec {
        case .described(let format, let bytes, let pixels, let description):
            result = Sticker.described(format: format, bytes: bytes, pixels: pixels, description: description)
        case .file(let path, let description):
            // A relative path is relative to the scenario file, as a reader of the file expects.
            result = Sticker.load(path: world.resolve(path), description: description)
        }
        switch result {
        case .success(let sticker):
            commit(.sticker(sticker), in: conversation, change: nil, base: Provenance())
        case .failure(let code):
            fail(code, "the sticker was refused (M28, M29)")
        }
    }

    /// Uninstall and reinstall: the app dies without callbacks and the device mints a
    /// whole new identifier set; other devices keep theirs (M2).
    func reinstall() {
        app = nil
        activeConversation = nil
        selected = nil
        draft = nil
        composing = nil
        readProvenance = [:]
        retired.append(identifiers)
        identifiers = world.mintIdentifiers(device: spec.name, generation: identifiers.generation + 1)
        environment = AppEnvironment(device: spec.name, installation: identifiers.generation, streams: world.streams)
        remoteOrderCache = [:]
        trace(.reinstalled(local: localIdentifier(in: world.conversations.first?.name ?? "")))
    }
}
