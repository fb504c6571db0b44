import GroupSimCore
import GroupSimScenario

extension Device {
    func makeSnapshot() -> DeviceSnapshot {
        let firstConversation = world.conversations.first?.name ?? ConversationSpec.defaultName
        var ids: [(person: String, id: ParticipantID)] = [(spec.person, ownIdentifier(in: firstConversation))]
        for person in world.people where person.key != spec.person {
            if let id = identifiers.id(for: person.key, in: firstConversation) { ids.append((person.key, id)) }
        }
        let drawer = self.drawer
        var lines: [(conversation: String, entries: [Transcript.Entry])] = []
        var sessions: [SessionView] = []
        for conversation in world.conversations {
            let transcript = transcripts[conversation.name] ?? Transcript()
            let shown = transcript.drawn(summaryLines: world.options.summaryLines)
            lines.append((conversation.name, shown))
            // One pass over the shown lines and one over the entries, by session: the
            // cost is linear in the transcript, however many sessions it holds. Only the
            // summary lines are drawn now; the rest when a report reads the transcripts.
            var drawnSummaries: [String: [String]] = [:]
            for line in shown {
                if case .summary(let old, _) = line, let session = old.sessionName, let text = drawer.summaryText(line) {
                    drawnSummaries[session, default: []].append(text)
                }
            }
            let entries = transcript.entries
            var summaryCounts: [String: Int] = [:]
            for entry in entries {
                if case .summary(let old, _) = entry, let session = old.sessionName { summaryCounts[session, default: 0] += 1 }
            }
            // A session has one bubble entry in a transcript, its live one (M10): a newer
            // bubble turns the older into a summary line or removes it.
            for entry in entries {
                guard case .bubble(let live) = entry, let session = live.sessionName else { continue }
                sessions.append(SessionView(
                    session: session, conversation: conversation.name, message: live.id,
                    senderPerson: live.senderPerson,
                    caption: live.message?.layout.caption.map { drawer.drawTokens($0, minted: live.senderMap) },
                    urlState: live.state, summaries: drawnSummaries[session] ?? [],
                    summaryCount: summaryCounts[session] ?? 0, provenance: live.provenance))
            }
        }
        var snapshot = DeviceSnapshot(name: spec.name, person: spec.person, platform: spec.platform, runsApp: spec.runsApp,
                                      callbacks: callbacks.map(\.rawValue), identifiers: ids, generation: identifiers.generation,
                                      transcripts: DrawnTranscripts(drawer: drawer, lines: lines), sessions: sessions,
                                      drafts: world.conversations.compactMap { conversation in
                                          drafts[conversation.name]?.message.map { (conversation.name, $0) }
                                      })
        snapshot.localStorage = localStorage.dictionary
        snapshot.installIDs = installIDs
        snapshot.identifierMaps = [identifiers] + retired.reversed()
        return snapshot
    }

    /// What drawing needs of this device as it stands now.
    var drawer: TranscriptDrawer {
        TranscriptDrawer(world: world, identifiers: identifiers, person: spec.person, position: position)
    }

    /// Draws `$UUID` tokens as this device's contact names (M5); see `TranscriptDrawer`.
    func drawTokens(_ text: String, minted map: IdentifierMap) -> String { drawer.drawTokens(text, minted: map) }
}
