import GroupSimCore
import GroupSimScenario

extension Device {
    func makeSnapshot() -> DeviceSnapshot {
        let firstConversation = world.conversations.first?.name ?? ConversationSpec.defaultName
        var ids: [(person: String, id: ParticipantID)] = [(spec.person, localIdentifier(in: firstConversation))]
        for person in world.people where person.key != spec.person {
            if let id = identifiers.id(for: person.key, in: firstConversation) { ids.append((person.key, id)) }
        }
        var drawnTranscripts: [(conversation: String, entries: [DrawnEntry])] = []
        var sessions: [SessionView] = []
        for conversation in world.conversations {
            let transcript = transcripts[conversation.name] ?? Transcript()
            let drawn = transcript.drawn(summaryLines: world.options.summaryLines).map(draw)
            drawnTranscripts.append((conversation.name, drawn))
            // One pass over the drawn lines and one over the entries, by session: the
            // cost is linear in the transcript, however many sessions it holds.
            var drawnSummaries: [String: [String]] = [:]
            for line in drawn where line.kind == .summary {
                if let session = line.session, let text = line.text { drawnSummaries[session, default: []].append(text) }
            }
            let entries = transcript.entries
            var summaryCounts: [String: Int] = [:]
            for entry in entries {
                if case .summary(let old, _) = entry, let session = old.sessionName { summaryCounts[session, default: 0] += 1 }
            }
            var seen: Set<String> = []
            for entry in entries {
                guard case .bubble(let envelope) = entry, let session = envelope.sessionName,
                      let live = transcript.liveBubble(session: session), seen.insert(session).inserted else { continue }
                sessions.append(SessionView(
                    session: session, conversation: conversation.name, message: live.id,
                    senderPerson: live.senderPerson,
                    caption: live.message?.layout.caption.map { drawTokens($0, minted: live.senderMap) },
                    urlState: live.state, summaries: drawnSummaries[session] ?? [],
                    summaryCount: summaryCounts[session] ?? 0, provenance: live.provenance))
            }
        }
        var snapshot = DeviceSnapshot(name: spec.name, person: spec.person, platform: spec.platform, runsApp: spec.runsApp,
                                      callbacks: callbacks, identifiers: ids, generation: identifiers.generation,
                                      transcripts: drawnTranscripts, sessions: sessions,
                                      drafts: world.conversations.compactMap { conversation in
                                          drafts[conversation.name]?.message.map { (conversation.name, $0) }
                                      })
        snapshot.localStorage = localStorage.dictionary
        snapshot.installIDs = installIDs
        snapshot.identifierMaps = [identifiers] + retired.reversed()
        return snapshot
    }

    /// One transcript entry as this device draws it (M5, M10, M26).
    func draw(_ entry: Transcript.Entry) -> DrawnEntry {
        let envelope = entry.envelope
        let message = envelope.message
        var drawn = DrawnEntry(kind: .text, message: envelope.id, session: message?.session?.name,
                               senderPerson: envelope.senderPerson, senderName: world.contactName(envelope.senderPerson))
        switch entry {
        case .bubble:
            drawn.kind = .bubble
            // Worked out now, not when the bubble arrived: a reinstall renews it (M2, M3).
            drawn.senderIdentifier = senderIdentifier(of: envelope)
            drawn.text = message?.layout.caption.map { drawTokens($0, minted: envelope.senderMap) }
            drawn.subcaption = message?.layout.subcaption.map { drawTokens($0, minted: envelope.senderMap) }
            drawn.url = message?.url
            drawn.state = envelope.state
        case .summary(_, let text):
            drawn.kind = .summary
            drawn.text = text.map { drawTokens($0, minted: envelope.senderMap) } ?? "\(world.contactName(envelope.senderPerson)) sent a message"
        case .text(let envelope):
            if case .text(let text) = envelope.content { drawn.text = text }
        case .sticker(let envelope):
            drawn.kind = .sticker
            if case .sticker(let sticker) = envelope.content { drawn.text = sticker.stickerDescription }
        case .plain(_, let text):
            drawn.kind = .plain
            drawn.text = text
        }
        return drawn
    }

    /// Draws `$UUID` tokens as this device's contact name for the person they stand for,
    /// resolved through the identifier map they were minted with (M5). A token that map
    /// never minted stays as written.
    func drawTokens(_ text: String, minted map: IdentifierMap) -> String {
        // Bytes, not Foundation's substring search: this runs on every drawn text.
        guard text.utf8.contains(UInt8(ascii: "$")) else { return text }
        var result = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let candidate = rest[rest.index(after: dollar)...].prefix(36)
            if candidate.count == 36, let id = ParticipantID(uuidString: candidate), let person = map.person(for: id) {
                result += world.contactName(person)
                rest = rest[candidate.endIndex...]
            } else {
                result += "$"
                rest = rest[rest.index(after: dollar)...]
            }
        }
        return result + rest
    }
}
