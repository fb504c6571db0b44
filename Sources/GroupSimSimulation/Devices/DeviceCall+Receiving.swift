import GroupSimCore
import GroupSimScenario

extension DeviceCall {
    // MARK: - Adding messages to the transcript (M10, M11, M23, M26)

    /// Adds a message (sent here or arrived) to this device's transcript of its
    /// conversation, collapsing its session (M10), and tells a running app (M23).
    mutating func add(_ envelope: Envelope) {
        let conversation = envelope.conversation
        let position = envelope.conversationNumber
        // The transcript is changed in place in the dictionary: a copy taken out and put
        // back would share its storage and copy every entry on each append.
        // Every copy of a message comes through here: the message is read where it is
        // needed, not bound (a bound copy retains and releases each of its fields).
        switch envelope.content {
        case .app:
            if !device.spec.drawsBubbles {
                // Old systems get two plain messages instead (M26): the layout's image, when
                // it has one, then the URL as text (but a data URL). No picture is made up
                // for a layout without one.
                let message = envelope.message ?? Message()
                if let picture = fallbackPicture(of: message, from: envelope) {
                    device.transcripts.change(position, conversation) { $0.append(.plain(envelope, text: picture)) }
                }
                if let url = message.url, MessageURL.reachesOldSystems(url) {
                    device.transcripts.change(position, conversation) { $0.append(.plain(envelope, text: url)) }
                }
                return
            }
            // Only a message sent with an install id teaches one (`app.identity: install-id`).
            if envelope.senderInstall != nil { learnInstall(of: envelope) }
            // The number the message carries, else the one the run gives its session's name
            // (a message made outside a device, by a test harness, carries none).
            let number = envelope.sessionNumber >= 0 ? envelope.sessionNumber : envelope.sessionName.map(device.world.sessionNumber) ?? -1
            let nilSummary = device.world.options.nilSummary
            // The replaced bubble's message is named only for the trace.
            let naming = device.tracing
            let collapse = device.transcripts.change(position, conversation) {
                $0.addBubble(envelope, number: number, nilSummary: nilSummary, naming: naming)
            }
            live.add(envelope, on: device.deviceNumber, leftSummary: collapse?.leftSummary == true)
            if let collapse, device.tracing, let session = envelope.sessionName {
                trace(.collapsed(session: session, replaced: collapse.replaced, summary: collapse.leftSummary))
            }
            if device.isRunning, device.activeConversation == conversation, device.style != .transcript, !isFromThisDevice(envelope) {
                // Most URLs carry no identifier: the call is made only for one that does.
                if !envelope.identifiersInURL.isEmpty { inspectIdentifiers(in: envelope, conversation: conversation) }
                if device.appWantsReceivedMessages {
                    let received = view(of: envelope, sender: senderIdentifier(of: envelope))
                    callback(.didReceive) { app, view in app.didReceive(received, conversation: view) }
                } else {
                    // The app keeps nothing from it: the call is recorded, not made.
                    recordCallback(.didReceive)
                }
            }
        case .text:
            device.transcripts.change(position, conversation) { $0.append(.text(envelope)) }
        case .sticker:
            device.transcripts.change(position, conversation) { $0.append(.sticker(envelope)) }
        }
    }

    /// Whether this device sent `envelope`: by position when both are known (names are
    /// unique among the scenario's devices), which every copy a running app sees asks.
    func isFromThisDevice(_ envelope: Envelope) -> Bool {
        let sender = envelope.senderDeviceNumber, own = device.deviceNumber
        return sender >= 0 && own >= 0 ? sender == own : envelope.senderDevice == device.spec.name
    }

    /// The session's live bubble here in `conversation` (M10). `number`: the session's
    /// number (`WorldFacts.sessionNumber`) if already looked up.
    mutating func liveBubble(of session: String, in conversation: String, number: Int = -1) -> Envelope? {
        let (own, place) = (device.deviceNumber, conversationNumber(conversation))
        return readingLive { $0.envelope(device: own, conversation: place, named: conversation, session: session, number: number) }
    }

    /// What an old system shows for the layout's image (M26): `[picture of pizza.png,
    /// captioned "Bob is in"]`, the caption bar's text drawn as Messages draws it, `$UUID`
    /// tokens as contact names (M5); nil when the layout has no image.
    func fallbackPicture(of message: Message, from envelope: Envelope) -> String? {
        let layout = message.layout
        guard let media = layout.media else { return nil }
        let captions = [layout.caption, layout.subcaption, layout.trailingCaption, layout.trailingSubcaption]
            .compactMap { $0 }.map { drawer.drawTokens($0, minted: envelope.senderMap) }
        guard !captions.isEmpty else { return "[picture of \(media)]" }
        return "[picture of \(media), captioned \"\(captions.joined(separator: " "))\"]"
    }

    /// The sender as this device identifies them: the local identifier for the owner's own
    /// messages, including those from the owner's other devices (M3), else the remote one.
    func senderIdentifier(of envelope: Envelope) -> ParticipantID { drawer.senderIdentifier(of: envelope) }

    mutating func localIdentifier(in conversation: String) -> ParticipantID {
        // Asked on every callback: the last answer is kept while the map and conversation stay.
        if let last = device.lastLocalIdentifier, last.map === device.identifiers, last.conversation == conversation { return last.id }
        let id = ownIdentifier(in: conversation)
        device.lastLocalIdentifier = (device.identifiers, conversation, id)
        return id
    }

    /// The owner's identifier in `conversation`, looked up (`localIdentifier` keeps it).
    func ownIdentifier(in conversation: String) -> ParticipantID { drawer.ownIdentifier(in: conversation) }

    /// The message as this device's app sees it (M3, M17).
    func view(of envelope: Envelope, sender: ParticipantID) -> Message {
        var message = envelope.message ?? Message()
        message.id = envelope.id
        message.senderParticipantIdentifier = sender
        message.isPending = false
        return message
    }

    /// `MSConversation` as the app sees it now (M1, M6, M15): the cached view, built when
    /// something it shows has changed.
    mutating func conversationViewBox() -> ConversationBox {
        if let known = device.lastView { return known }
        // Only a draft or the style changed since the kept view, and both are again as it
        // shows them (a send's draft staged and sent, before its next compose): it is
        // handed on as it is, where a copy of it was made with the same two (every
        // message composed paid for one). Asked without hashing the conversation's name.
        if let kept = device.viewButDraft, kept.view.draft == nil, kept.view.presentationStyle == device.style, device.drafts.isEmpty {
            device.lastView = kept
            return kept
        }
        let box = ConversationBox(makeConversationView())
        device.lastView = box
        return box
    }

    private mutating func makeConversationView() -> Conversation {
        if let kept = device.viewButDraft {
            var view = kept.view
            view.draft = device.drafts[view.name]?.message
            view.presentationStyle = device.style
            return view
        }
        let conversation = device.activeConversation ?? device.world.conversations.first?.name ?? Scenario.ConversationSpec.defaultName
        let selectedMessage = device.selected.map { view(of: $0, sender: senderIdentifier(of: $0)) }
        return Conversation(name: conversation, localParticipantIdentifier: localIdentifier(in: conversation),
                            remote: remoteIdentifiers(in: conversation),
                            selectedMessage: selectedMessage, draft: device.drafts[conversation]?.message, presentationStyle: device.style)
    }

    /// One identifier per other member, in a seeded order per device and installation (M6);
    /// none once the owner is no longer a member: the others are not their co-participants.
    /// Worked out when the app first reads them (`RemoteIdentifiers`), once per map and members.
    mutating func remoteIdentifiers(in conversation: String) -> RemoteIdentifiers {
        if let cached = device.remoteOrderCache[conversation] { return cached }
        let members = device.memberOf.contains(conversation) ? device.members[conversation] ?? [] : []
        let tables = device.world.tables
        let number = device.world.conversationNumber(conversation)
        // The stream's key from the tables: naming the stream hashed four names in every run.
        let key = tables.orderKey(device: device.deviceNumber, generation: device.identifiers.generation, conversation: number,
                                  named: conversation, deviceName: device.spec.name)
        let ids = members.isEmpty ? RemoteIdentifiers.none : RemoteIdentifiers(RemoteIdentifiers.Recipe(
            members: members, owner: device.spec.person, identifiers: device.identifiers, tables: tables, conversation: conversation,
            number: number, orderSeed: device.world.streams.streamSeed(key: key)))
        device.remoteOrderCache[conversation] = ids
        return ids
    }

    /// The app read `envelope` (it was selected): remember what state it descends from and
    /// look for identifiers this device cannot resolve (M2, M4).
    mutating func noteRead(_ envelope: Envelope, in conversation: String) {
        if let session = envelope.message?.session?.name, device.world.app.state == .message {
            device.readProvenance[session] = envelope.provenance
        }
        inspectIdentifiers(in: envelope, conversation: conversation)
    }

    /// Reports each UUID in the message URL that this installation never minted: one it
    /// minted before a reinstall is stale (M2); any other is foreign (M4).
    mutating func inspectIdentifiers(in envelope: Envelope, conversation: String) {
        for id in envelope.identifiersInURL where device.identifiers.person(for: id, in: conversation) == nil {
            if let old = device.retired.last(where: { $0.person(for: id) != nil }) {
                sighting(.staleIdentifier, message: envelope.id,
                         "\(device.spec.name) read \(id.uuidString) in m\(envelope.id)'s URL; it minted that identifier for "
                             + "\(old.person(for: id) ?? "someone") before its reinstall, and it means nothing now (M2)")
            } else if let own = device.identifiers.person(for: id) {
                // Per-conversation mode: this device's own identifier, of another conversation (M6).
                let other = device.identifiers.conversation(for: id) ?? ""
                sighting(.foreignIdentifier, message: envelope.id,
                         "\(device.spec.name) read \(id.uuidString) in m\(envelope.id)'s URL; \(device.spec.name) itself minted it for \(own) in conversation "
                             + "\(other), and identifiers are per conversation (M6), so it means nothing in \(conversation)",
                         mintedOn: device.spec.name)
            } else {
                let minter = device.world.minter(of: id)
                let origin = minter.map { "it was minted on \($0.device) (for \($0.person))" } ?? "no device of this run minted it"
                let carrier = minter?.device == envelope.senderDevice ? "" : ", and \(envelope.senderDevice) passed it on"
                let rule = device.world.options.identifiers == .perConversation ? "M4, M6" : "M4"
                sighting(.foreignIdentifier, message: envelope.id,
                         "\(device.spec.name) read \(id.uuidString) in m\(envelope.id)'s URL; \(origin)\(carrier), and it means nothing on \(device.spec.name) "
                             + "(\(rule))",
                         mintedOn: minter?.device)
            }
        }
    }
}
