import GroupSimCore
import GroupSimScenario

/// Draws a device's transcript entries as Messages shows them (M5, M10, M26): everything
/// drawing needs from the device, as it stood when the snapshot was taken, and nothing
/// else, so that drawing can wait until a report asks for it.
struct TranscriptDrawer: Sendable {
    let world: WorldFacts
    /// The installation's identifiers when the snapshot was taken.
    let identifiers: IdentifierMap
    let person: String
    /// The owner's position in the scenario's people (-1 if not listed).
    let position: Int

    /// The sender as this device identifies them: the local identifier for the owner's own
    /// messages, including those from the owner's other devices (M3), else the remote one.
    func senderIdentifier(of envelope: Envelope) -> ParticipantID {
        let fromOwner = envelope.senderPosition >= 0 ? envelope.senderPosition == position : envelope.senderPerson == person
        if fromOwner { return ownIdentifier(in: envelope.conversation) }
        return identifiers.id(forPersonAt: envelope.senderPosition, person: envelope.senderPerson, in: envelope.conversation)
            ?? ownIdentifier(in: envelope.conversation)
    }

    /// The owner's identifier in `conversation`.
    func ownIdentifier(in conversation: String) -> ParticipantID {
        // Every person of the scenario has an identifier in every map, so this always succeeds.
        identifiers.id(forPersonAt: position, person: person, in: conversation) ?? ParticipantID(bits: 0, 0)
    }

    /// One transcript entry as this device draws it (M5, M10, M26).
    func draw(_ entry: Transcript.Entry) -> DeviceSnapshot.DrawnEntry {
        let envelope = entry.envelope
        let message = envelope.message
        var drawn = DeviceSnapshot.DrawnEntry(kind: .text, message: envelope.id, session: envelope.sessionName,
                               senderPerson: envelope.senderPerson, senderName: world.contactName(envelope.senderPerson))
        switch entry {
        case .bubble:
            drawn.kind = .bubble
            // Worked out now, not when the bubble arrived: a reinstall renews it (M2, M3).
            drawn.senderIdentifier = senderIdentifier(of: envelope)
            if var layout = message?.layout {
                let draw = { (text: String?) in text.map { drawTokens($0, minted: envelope.senderMap) } }
                (layout.caption, layout.subcaption) = (draw(layout.caption), draw(layout.subcaption))
                (layout.trailingCaption, layout.trailingSubcaption) = (draw(layout.trailingCaption), draw(layout.trailingSubcaption))
                (layout.imageTitle, layout.imageSubtitle) = (draw(layout.imageTitle), draw(layout.imageSubtitle))
                drawn.layout = layout
                drawn.text = layout.caption
                drawn.subcaption = layout.subcaption
            }
            drawn.url = envelope.url
            drawn.state = envelope.state
        case .summary:
            drawn.kind = .summary
            drawn.text = summaryText(entry)
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

    /// A summary line's text as drawn (M10); nil for any other entry.
    func summaryText(_ entry: Transcript.Entry) -> String? {
        guard case .summary(let envelope, let text) = entry else { return nil }
        return text.map { drawTokens($0, minted: envelope.senderMap) } ?? "\(world.contactName(envelope.senderPerson)) sent a message"
    }

    /// Draws `$UUID` tokens as this device's contact name for the person they stand for,
    /// resolved through the identifier map they were minted with (M5). A token that map
    /// never minted stays as written.
    func drawTokens(_ text: String, minted map: IdentifierMap) -> String {
        guard text.utf8.contains(UInt8(ascii: "$")) else { return text }
        var result = ""
        forEachPiece(of: text, minted: map) { result += $0 }
        return result
    }

    /// Whether `drawTokens(text, minted: map) == expected`, without drawing the text: a
    /// check compares a drawn caption or summary line and keeps nothing of it.
    func drawsTokens(_ text: String, minted map: IdentifierMap, as expected: String) -> Bool {
        // The drawn pieces are compared with `expected`'s bytes in place, one after another.
        let verdict: Bool?? = expected.utf8.withContiguousStorageIfAvailable { expected in
            var (offset, matched, ascii) = (0, true, true)
            forEachPiece(of: text, minted: map) { piece in
                for byte in piece.utf8 {
                    ascii = ascii && byte < 0x80
                    if matched, offset < expected.count, expected[offset] == byte { offset += 1 } else { matched = false }
                }
            }
            if matched, offset == expected.count { return true }
            // Bytes that differ make different strings only between ASCII ones: `==` compares
            // canonical equivalence, under which some other scalars equal ASCII ones (a Kelvin sign is a K).
            return ascii && !expected.contains { $0 >= 0x80 } ? false : nil
        }
        return (verdict ?? nil) ?? (drawTokens(text, minted: map) == expected)
    }

    /// `text` as `drawTokens` draws it, piece by piece in order: each run of it kept as
    /// written, and each token's contact name. Bytes, not characters: this runs on every
    /// drawn or compared caption and summary line.
    private func forEachPiece(of text: String, minted map: IdentifierMap, _ body: (Substring) -> Void) {
        let bytes = text.utf8
        var literal = bytes.startIndex
        var index = bytes.startIndex
        while index != bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "$") else {
                index = bytes.index(after: index)
                continue
            }
            let start = bytes.index(after: index)
            if let end = bytes.index(start, offsetBy: 36, limitedBy: bytes.endIndex),
               let id = ParticipantID(uuidString: Substring(text.utf8[start..<end])), let position = map.personPosition(for: id) {
                if literal != index { body(text[literal..<index]) }
                body(world.contactName(at: position)[...])
                literal = end
                index = end
            } else {
                index = start
            }
        }
        if literal != bytes.endIndex { body(text[literal...]) }
    }

    /// Whether a summary line draws as `expected` (`summaryText(entry) == expected`),
    /// without drawing it; false for any other entry.
    func drawsSummary(_ entry: Transcript.Entry, as expected: String) -> Bool {
        guard case .summary(let envelope, let text) = entry else { return false }
        guard let text else { return summaryText(entry) == expected }
        return drawsTokens(text, minted: envelope.senderMap, as: expected)
    }
}

/// What a snapshot draws a device's transcripts and sessions from: its transcripts and
/// identifiers as the run left them, shared with the device, not copied. Drawn each time
/// they are read: a run checked and explored only needs each session's live bubble, and
/// drawing every line of every device is most of a large run's memory.
struct DeviceDrawing: Sendable {
    let drawer: TranscriptDrawer
    let transcriptTable: Transcripts

    var world: WorldFacts { drawer.world }
    var summaryLines: Int { drawer.world.options.summaryLines }
    var firstConversation: String { world.conversations.first?.name ?? Scenario.ConversationSpec.defaultName }

    /// The scenario's conversation at `position` (in its conversations) and its transcript here.
    func shown(_ position: Int) -> (conversation: String, transcript: Transcript) {
        let name = world.conversations[position].name
        return (name, transcriptTable.scenarioTranscript(at: position, named: name))
    }

    /// Every conversation's lines as drawn, in the scenario's order.
    var transcripts: [DeviceSnapshot.DrawnTranscript] {
        world.conversations.indices.map { position in
            let shown = shown(position)
            return DeviceSnapshot.DrawnTranscript(conversation: shown.conversation,
                                                  entries: shown.transcript.drawn(summaryLines: summaryLines).map(drawer.draw))
        }
    }
}
