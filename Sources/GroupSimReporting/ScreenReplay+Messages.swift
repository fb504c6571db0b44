import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

extension ScreenReplay {
    /// Every sent message as it is drawn: its conversation from the final transcripts (or,
    /// for one no device shows at the end, the step that sent it), its text drawn through
    /// the identifiers its sender had when sending (M2, M5).
    static func faces(_ outcome: RunOutcome, conversations: [String], steps: [Int: Scenario.Step]) -> [Int: MessageFace] {
        let scenario = outcome.scenario
        // Each message's first drawn line and its conversation; transcripts are drawn once.
        var firstLine: [Int: (conversation: String, entry: DeviceSnapshot.DrawnEntry)] = [:]
        for device in outcome.devices {
            for transcript in device.transcripts {
                for entry in transcript.entries where firstLine[entry.message] == nil {
                    firstLine[entry.message] = (transcript.conversation, entry)
                }
            }
        }
        var generation: [String: Int] = [:]
        var stepOn: [String: Scenario.Step] = [:]
        var faces: [Int: MessageFace] = [:]
        for event in outcome.trace.events {
            switch event.kind {
            case .step(let number, _):
                stepOn[event.subject] = steps[number]
            case .delivered, .cloudAnswer:
                stepOn[event.subject] = nil
            case .reinstalled:
                generation[event.subject, default: 0] += 1
            case .sent(let id, let session, let url):
                guard let spec = scenario.device(event.subject) else { continue }
                let person = spec.person
                let maps = outcome.device(event.subject)?.identifierMaps ?? []
                let map = maps.first { $0.generation == generation[event.subject, default: 0] }
                let contact = { (key: String) in scenario.person(key)?.contactName ?? key }
                let draw = { (text: String) in Self.drawTokens(text, map: map, contact: contact) }
                let conversation = firstLine[id]?.conversation ?? stepOn[event.subject]?.conversation ?? conversations[0]
                var face = MessageFace(id: id, senderDevice: event.subject, senderPerson: person, senderName: contact(person),
                                       conversation: conversation, content: .app, session: session, url: url,
                                       state: StateMap(url: url), summary: "\(contact(person)) sent a message", plain: [])
                switch event.payload {
                case .message(let message):
                    let layout = message.layout
                    face.text = layout.caption.map(draw)
                    face.subcaption = layout.subcaption.map(draw)
                    if let summary = message.summaryText { face.summary = draw(summary) }
                    face.plain = Self.plainLines(message, draw: draw)
                case .text(let text) where firstLine[id] != nil:
                    // A sticker's trace text spells out its file; the drawn line is its description.
                    let drawn = firstLine[id]?.entry
                    face.content = drawn?.kind == .sticker ? .sticker : .text
                    face.text = drawn?.text ?? text
                case .text(let text):
                    face.content = .text
                    face.text = text
                default:
                    break
                }
                faces[id] = face
            default:
                continue
            }
        }
        return faces
    }

    /// What an old system shows for an app message (M26): the layout's picture with its
    /// captions, then the URL as text (but a data URL).
    static func plainLines(_ message: Message, draw: (String) -> String) -> [String] {
        var lines: [String] = []
        let layout = message.layout
        if let media = layout.media {
            let captions = [layout.caption, layout.subcaption, layout.trailingCaption,
                layout.trailingSubcaption].compactMap { $0 }.map(draw)
            lines.append(captions.isEmpty ? "[picture of \(media)]" : "[picture of \(media), captioned "
                + "\"\(captions.joined(separator: " "))\"]")
        }
        if let url = message.url, MessageURL.reachesOldSystems(url) { lines.append(url) }
        return lines
    }

    /// `$UUID` tokens as the contact name of the person `map` minted them for (M5); a
    /// token the map never minted stays as written.
    static func drawTokens(_ text: String, map: IdentifierMap?, contact: (String) -> String) -> String {
        guard let map, text.contains("$") else { return text }
        var result = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let token = rest[rest.index(after: dollar)...].prefix(36)
            if let id = ParticipantID(uuidString: token), let person = map.person(for: id) {
                result += contact(person)
                rest = rest[token.endIndex...]
            } else {
                result += "$"
                rest = rest[rest.index(after: dollar)...]
            }
        }
        return result + rest
    }
}
