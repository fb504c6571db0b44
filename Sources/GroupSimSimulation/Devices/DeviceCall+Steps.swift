import GroupSimCore
import GroupSimScenario

extension DeviceCall {
    /// Carries out one user action (docs/scenario-format.md, "Steps"; rules cited per case).
    mutating func performAction(_ step: Scenario.Step, conversation: String) {
        switch step.action {
        case .send(let compose):
            guard openApp(in: conversation, style: .compact, selecting: nil) else { return }
            userComposes(compose, kind: .send, in: conversation, sendNow: !compose.direct)
        case .insert(let compose):
            guard openApp(in: conversation, style: .compact, selecting: nil) else { return }
            userComposes(compose, kind: .insert, in: conversation, sendNow: false)
        case .reply(let compose):
            if device.spec.platform == .macos {
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
            guard device.isRunning else {
                fail(.unknown, "the app is not running on \(device.spec.name), so there is nothing to close (M22)", rule: "M22")
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
    mutating func userComposes(_ compose: Scenario.Compose, kind: ComposeRequest.Kind, in conversation: String, sendNow: Bool) {
        let session = Session(name: compose.session)
        // The step's own entries, shared, when none names anyone (most): no new array.
        let named = compose.data.contains { $0.key.utf8.contains(UInt8(ascii: "$")) || $0.value.utf8.contains(UInt8(ascii: "$")) }
        let data = !named ? compose.data : compose.data.map {
            Scenario.DataEntry(resolveTokens($0.key, in: conversation, raw: true), resolveTokens($0.value, in: conversation, raw: true))
        }
        // Every layout field that `drawsTokens`, `$me` and `$PERSON` as tokens each device
        // draws as a name (M5); the image is a name. Field by field, not through a copy
        // of the compose step and its list of fields: every send comes here. A constant
        // the app's call borrows: a variable was copied for the call, the copy destroyed.
        let layout = TemplateLayout(
            image: compose.image,
            imageTitle: compose.imageTitle.map { resolveTokens($0, in: conversation, raw: false) },
            imageSubtitle: compose.imageSubtitle.map { resolveTokens($0, in: conversation, raw: false) },
            caption: compose.caption.map { resolveTokens($0, in: conversation, raw: false) },
            subcaption: compose.subcaption.map { resolveTokens($0, in: conversation, raw: false) },
            trailingCaption: compose.trailingCaption.map { resolveTokens($0, in: conversation, raw: false) },
            trailingSubcaption: compose.trailingSubcaption.map { resolveTokens($0, in: conversation, raw: false) })
        let request = ComposeRequest(
            kind: kind, session: session, isNewSession: device.sessionIsNew, data: data, layout: layout,
            summary: compose.summary.map { resolveTokens($0, in: conversation, raw: false) },
            url: compose.url, direct: compose.direct)
        device.composing = data.isEmpty ? nil : PendingChange(step: device.currentStep, session: compose.session, entries: data)
        // The selected bubble's session name, read apart from its message (not copied out).
        if device.world.app.state == .message, device.selected?.sessionName != compose.session, !device.readProvenance.isEmpty {
            // Nothing of this session is selected: the app builds on an empty state. What
            // was read is absent, which every reader takes as empty: an empty table (each
            // send with nothing selected) is left alone, no name hashed.
            device.readProvenance[compose.session] = nil
        }
        device.sendWhenStaged = sendNow
        callback(.userDidCompose) { app, view in app.userDidCompose(request, conversation: view) }
    }

    /// `$me` and `$bob` in scenario text: as `$UUID` tokens for layout text (M5), or as the
    /// raw UUID string for data, as a naive app would write it (M4).
    mutating func resolveTokens(_ text: String, in conversation: String, raw: Bool) -> String {
        // Bytes, not Foundation's substring search: this runs on every composed text.
        guard text.utf8.contains(UInt8(ascii: "$")) else { return text }
        // Written into one buffer, identifiers in place: appending each piece and each
        // identifier's string to a string made and grew three or four strings a text.
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count + 48)
        var index = text.startIndex
        while index < text.endIndex {
            // The text up to the next `$` is copied in one piece (`$` is one byte, never part
            // of another character's UTF-8), not character by character.
            guard let dollar = text.utf8[index...].firstIndex(of: UInt8(ascii: "$")) else {
                Self.append(text.utf8[index...], to: &result)
                break
            }
            Self.append(text.utf8[index..<dollar], to: &result)
            let nameStart = text.index(after: dollar)
            // A `$` with a combining mark after it is another character: copied as it is.
            guard text[dollar] == "$" else {
                Self.append(text.utf8[dollar..<nameStart], to: &result)
                index = nameStart
                continue
            }
            let nameEnd = Self.nameEnd(in: text, from: nameStart)
            let word = text[nameStart..<nameEnd]
            // `$me` is the owner, found by position without hashing the name.
            let isMe = word == "me"
            let person = isMe ? device.spec.person : String(word)
            let id = word.isEmpty ? nil : isMe ? device.identifiers.id(forPersonAt: device.position, person: person, in: conversation)
                : device.identifiers.id(for: person, in: conversation)
            switch id {
            case let id? where raw && device.world.app.identity != .participantID:
                result.append(contentsOf: identityKey(for: person, id: id).utf8)
            case let id?:
                // The raw identifier (`identityKey` under `participant-id`) or the token.
                if !raw { result.append(UInt8(ascii: "$")) }
                Self.append(id, to: &result)
            case nil:
                result.append(UInt8(ascii: "$"))
                Self.append(word.utf8, to: &result)
            }
            index = nameEnd
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// Appends the bytes of part of a string, copied where they lie when they lie in one
    /// piece (a native string's always do), else one by one.
    static func append(_ part: Substring.UTF8View, to bytes: inout [UInt8]) {
        if part.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil { bytes.append(contentsOf: part) }
    }

    /// Appends `id.uuidString`'s bytes, written in place.
    static func append(_ id: ParticipantID, to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: 36))
        bytes.withUnsafeMutableBufferPointer { id.write(into: $0, at: start) }
    }

    /// Where the name that starts at `start` ends: at the first character that is not a
    /// letter, a number, `_` or `-`. An ASCII name is read byte by byte (every composed
    /// text has its `$me`); a name with any other byte in it or just after it, character
    /// by character from its start, as the characters decide (a combining mark joins the
    /// byte before it).
    static func nameEnd(in text: String, from start: String.Index) -> String.Index {
        let bytes = text.utf8
        var index = start
        while index != bytes.endIndex, bytes[index] < 0x80 {
            let byte = bytes[index]
            let inName = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            if !inName {
                let next = bytes.index(after: index)
                if next == bytes.endIndex || bytes[next] < 0x80 { return index }
                break
            }
            index = bytes.index(after: index)
        }
        if index == bytes.endIndex { return index }
        return text[start...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") } ?? text.endIndex
    }

    /// What `$person` in data becomes under `app.identity`: the raw participant
    /// identifier (M4), the install id (this installation's own, or the one last learned
    /// for that identifier; the raw identifier while none is known), or the account id.
    mutating func identityKey(for person: String, id: ParticipantID) -> String {
        switch device.world.app.identity {
        case .participantID:
            return id.uuidString
        case .account:
            return AppIdentity.accountID(device.world.streams, person: person)
        case .installID:
            if person == device.spec.person { return ownInstallID() }
            return device.environment.storage[AppIdentity.installOfPrefix + id.uuidString] ?? id.uuidString
        }
    }

    /// This installation's install id, created the first time it is needed and kept in
    /// local storage until a reinstall (`app.identity: install-id`).
    mutating func ownInstallID() -> String {
        if let id = device.environment.storage[AppIdentity.installKey] { return id }
        let id = AppIdentity.installID(device.world.streams, device: device.spec.name, generation: device.identifiers.generation)
        device.environment.storage[AppIdentity.installKey] = id
        device.installIDs.append(id)
        return id
    }

    /// Records "this install id is the person this device knows as the message's
    /// senderParticipantIdentifier" (M3) in local storage (`app.identity: install-id`).
    /// GroupSim records it for every message of the app that reaches a device able to run
    /// it, as if the app read every bubble; a real extension sees only what didReceive
    /// hands it while open and the bubbles the user taps (M23, M15), so it learns later.
    mutating func learnInstall(of envelope: Envelope) {
        guard let install = envelope.senderInstall, device.spec.runsApp else { return }
        let sender = senderIdentifier(of: envelope)
        device.environment.storage[AppIdentity.learnedPrefix + install] = sender.uuidString
        if envelope.senderDevice != device.spec.name { device.environment.storage[AppIdentity.installOfPrefix + sender.uuidString] = install }
    }

    // MARK: - Sending

    /// The user taps Send on the conversation's staged draft (M16, M17). The extension
    /// hears of it only when it runs in that conversation.
    mutating func pressSend(in conversation: String) {
        // Found once and moved out: the name is hashed once, and the draft is not copied.
        guard let place = device.drafts.index(forKey: conversation) else {
            fail(.noDraft, "there is no staged message to send in conversation \(conversation) on \(device.spec.name) (M16)", rule: "M16")
            return
        }
        var staged = device.drafts.remove(at: place).value
        guard var sent = staged.message else {
            // Text, a sticker or an attachment: Messages sends it; the app is not told (M17).
            commit(staged.content, in: staged.conversation, change: nil, base: Provenance())
            return
        }
        sent.isPending = false
        // Taken from the draft, not copied out of it (its entries and strings retained and released).
        var change = staged.change.take()
        if device.activeConversation == conversation { change = startSending(sent, change: change) }
        commit(.app(sent), in: staged.conversation, change: change, base: staged.base, state: staged.state, sessionNumber: staged.sessionNumber)
    }

    /// Tells the app the user tapped Send (M17) with the message's change as the one the
    /// user is making, so that a write the app makes then (the built-in app's push on Send,
    /// M13) carries it. Returns the change as the send records it: numbered when the write
    /// took it, and then still the device's current change until the store answers (a
    /// refused conditional write is retried with it).
    mutating func startSending(_ message: Message, change: PendingChange?) -> PendingChange? {
        // An app that does nothing on it (the built-in app in message mode) leaves the change as it is.
        guard let change, !appIgnores(.didStartSending) else {
            callback(.didStartSending) { app, view in app.didStartSending(message, conversation: view) }
            return change
        }
        // Swapped in, not copied out and over: the device's own change comes back after.
        var before: PendingChange? = change
        swap(&before, &device.composing)
        callback(.didStartSending) { app, view in app.didStartSending(message, conversation: view) }
        if let pushed = device.composing, pushed.session == change.session, pushed.allocated != nil { return pushed }
        device.composing = before
        return change
    }

    /// The user removes the conversation's staged draft (M17); the extension hears of it
    /// only when it runs in that conversation.
    mutating func cancelDraft(in conversation: String) {
        guard let staged = device.drafts[conversation] else {
            fail(.noDraft, "there is no staged message to cancel in conversation \(conversation) on \(device.spec.name) (M17)", rule: "M17")
            return
        }
        device.drafts[conversation] = nil
        trace(.cancelled)
        if let session = staged.message?.session?.name, let written = device.written.removeValue(forKey: session) {
            let what = written.entries.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
            sighting(.cancelledWrite, message: nil, "\(device.spec.name)'s app had written \(what) to the cloud record of \(session) before "
                + "staging the draft its user removed (M17, M13)")
        }
        guard let message = staged.message, device.activeConversation == conversation else { return }
        callback(.didCancelSending) { app, view in app.didCancelSending(message, conversation: view) }
    }

    /// A message leaves this device: numbered, added to its own transcript at once (M11),
    /// and handed to the network for fan-out (M30).
    /// `state` and `sessionNumber`: an app message's URL state and session number, if known.
    mutating func commit(_ content: Envelope.Content, in conversation: String, change pending: PendingChange?, base: Provenance,
                         state: StateMap? = nil, sessionNumber known: Int? = nil) {
        guard isMember(of: conversation) else {
            // An app's own send after its user was removed (M6): nothing leaves.
            fail(.notMember, RunOutcome.StepFailure.notMemberReason(device: device.spec.name, person: device.spec.person, conversation: conversation),
                 rule: "M6")
            return
        }
        let id = takeMessageID()
        var provenance = base
        var change: Change?
        if let pending {
            let made = pending.allocated ?? allocateChange(pending)
            provenance.insert(made.id)
            change = made
        }
        var install: String?
        if device.world.app.identity == .installID, case .app = content { install = ownInstallID() }
        var sessionNumber = -1
        if case .app(let message) = content, let session = message.session?.name {
            sessionNumber = known ?? self.sessionNumber(session)
            // The write, if any, went out with its message.
            if !device.written.isEmpty { device.written[session] = nil }
        }
        let envelope = Envelope(id: id, conversation: conversation, senderDevice: device.spec.name, senderPerson: device.spec.person,
                                sentAt: now, content: content, senderMap: device.identifiers, provenance: provenance, change: change,
                                senderInstall: install, senderPosition: device.position, sessionNumber: sessionNumber,
                                conversationNumber: conversationNumber(conversation), senderDeviceNumber: device.deviceNumber,
                                state: state)
        switch content {
        case _ where !device.tracing:
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
        let change = Change(id: takeChangeID(), step: pending.step, device: device.spec.name, person: device.spec.person,
                            session: pending.session, entries: pending.entries)
        effects.changes.append(change)
        return change
    }

    /// Validates a sticker (M28, M29) and sends it, or fails the step with its code.
    /// Stickers come from the iOS 10 extension's browser: a Mac or an iOS 9 device has
    /// none and fails with `unknown`; a watch sends only from its Recents, the stickers its
    /// person's iPhone sent that reached it (M25, M26).
    mutating func sendSticker(_ spec: Scenario.StickerSpec, in conversation: String) {
        switch device.spec.platform {
        case .macos:
            fail(.unknown, "a Mac does not run iMessage apps, so it has no sticker browser: stickers are sent from an iOS device's "
                + "extension, and a Mac only shows them (M25)", rule: "M25")
            return
        case .ios9:
            fail(.unknown, "iOS 9 has no iMessage apps and no stickers: stickers are sent from an iOS 10 device's extension (M26)", rule: "M26")
            return
        case .ios, .watchos:
            break
        }
        let result: Result<Sticker, MessageErrorCode>
        switch spec {
        case .described(let format, let bytes, let pixels, let description):
            result = Sticker.described(format: format, bytes: bytes, pixels: pixels, description: description)
        case .file:
            // Read and checked before the run, with the path taken from the scenario's folder.
            result = device.world.stickerFiles[spec] ?? .failure(.fileNotFound)
        }
        switch result {
        case .success(let sticker) where device.spec.platform == .watchos && !inRecents(sticker):
            fail(.unknown, "a watch sends only stickers from its Recents, those \(device.spec.person)'s iPhone sent before, and none "
                + "of them is this one (\(sticker.stickerDescription)): send it from the iPhone first (M25)", rule: "M25")
        case .success(let sticker):
            commit(.sticker(sticker), in: conversation, change: nil, base: Provenance())
        case .failure(let code):
            fail(code, "the sticker was refused (M28, M29)", rule: "M28")
        }
    }

    /// Whether this device received `sticker` from one of its person's iOS devices, in any
    /// conversation: a watch's Recents (M25).
    func inRecents(_ sticker: Sticker) -> Bool {
        let phones = Set(device.world.tables.scenario.devices.filter { $0.person == device.spec.person && $0.platform == .ios }.map(\.name))
        for conversation in device.world.conversations {
            for entry in device.transcripts[conversation.name]?.entries ?? [] {
                guard case .sticker(let envelope) = entry, phones.contains(envelope.senderDevice),
                      case .sticker(let sent) = envelope.content, sent == sticker else { continue }
                return true
            }
        }
        return false
    }

    /// Uninstall and reinstall: the app dies without callbacks and the device mints a
    /// whole new identifier set; other devices keep theirs (M2).
    mutating func reinstall() {
        device.endAppProcess()
        device.drafts = [:]
        device.environment.storage.removeAll()
        device.retired.append(device.identifiers)
        device.identifiers = device.world.mintIdentifiers(device: device.spec.name, generation: device.identifiers.generation + 1)
        device.environment = AppEnvironment(device: device.spec.name, installation: device.identifiers.generation, world: device.world)
        device.remoteOrderCache = [:]
        trace(.reinstalled(local: localIdentifier(in: device.world.conversations.first?.name ?? "")))
    }
}
