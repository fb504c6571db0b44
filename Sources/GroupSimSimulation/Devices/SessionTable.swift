import GroupSimCore
import GroupSimScenario

/// The sessions one device shows at the end, read from the run's `LiveBubbles` in the
/// device's order (conversations in the scenario's order, then the order of their
/// entries). A `SessionView`, with its caption and summary lines drawn, is drawn only
/// when a report or a check asks for one; checks, pitfalls and exploration read the
/// table itself through `SessionStates`.
struct SessionTable: Sendable {
    /// The run's live bubbles, shared by all its snapshots; nil for a table of views.
    private let shared: SharedLiveBubbles?
    private var live: LiveBubbles { shared?.live ?? LiveBubbles() }
    private let device: Int
    /// The device's transcripts (for drawing summary lines) and drawer.
    private let drawing: DeviceDrawing?
    /// Set when made from views (a snapshot whose sessions were replaced).
    private let given: [DeviceSnapshot.SessionView]?

    init(live: SharedLiveBubbles, device: Int, drawing: DeviceDrawing) {
        shared = live
        self.device = device
        self.drawing = drawing
        given = nil
    }

    /// A table of views already drawn.
    init(views: [DeviceSnapshot.SessionView]) {
        shared = nil
        device = -1
        drawing = nil
        given = views
    }

    /// Every view, drawn on each read: a reader needs them one device at a time.
    var views: [DeviceSnapshot.SessionView] {
        if let given { return given }
        var summaries: [Int: [String: [String]]] = [:]
        return live.shown(device: device).map { bubble in
            if summaries[bubble.conversation] == nil { summaries[bubble.conversation] = self.summaries(in: bubble.conversation) }
            return draw(bubble, summaries: summaries[bubble.conversation]?[bubble.session] ?? [])
        }
    }

    /// The session's first live bubble here, read where the shared table lies (`live`
    /// copies the table out, retaining each of its arrays, on every read).
    private func firstBubble(of session: String) -> LiveBubbles.Shown? {
        shared?.live.first(device: device, session: session)
    }

    /// The view of the session's first live bubble here, or nil.
    func view(of session: String) -> DeviceSnapshot.SessionView? {
        if let given { return given.first { $0.session == session } }
        return firstBubble(of: session).map { draw($0, summaries: summaryLines(in: $0.conversation, of: session)) }
    }

    /// The caption of the session's first live bubble as drawn here (M5): `.some(nil)` for
    /// a bubble with no caption, nil when the device shows no bubble of the session. Draws
    /// the caption alone, not the conversation's summary lines that a whole view holds.
    func caption(of session: String) -> String?? {
        if let given { return given.first { $0.session == session }.map(\.caption) }
        return firstBubble(of: session).map { caption(of: $0.envelope) }
    }

    /// `view(of: session)?.summaries` without drawing the rest of the view (its caption)
    /// or other sessions' summary lines: nil when the device shows no bubble of the session.
    func summaries(of session: String) -> [String]? {
        if let given { return given.first { $0.session == session }.map(\.summaries) }
        return firstBubble(of: session).map { summaryLines(in: $0.conversation, of: session) }
    }

    /// Whether `caption(of: session) == .some(expected)`, without drawing the caption: a
    /// `latest` check compares it on every run an exploration judges.
    func caption(of session: String, is expected: String) -> Bool {
        if let given { return given.first { $0.session == session }.map(\.caption) == .some(expected) }
        guard let envelope = firstBubble(of: session)?.envelope, let caption = envelope.message?.layout.caption else { return false }
        guard let drawer = drawing?.drawer else { return caption == expected }
        return drawer.drawsTokens(caption, minted: envelope.senderMap, as: expected)
    }

    /// Whether the session's summary lines (`summaries(of: session) ?? []`) are `count`
    /// many and read `texts` (nil: either, unasked), without drawing them unless `texts`
    /// is asked, nor making the conversation's other entries.
    func summaries(of session: String, count: Int?, texts: [String]?) -> Bool {
        if given != nil { return Self.summaries(summaries(of: session) ?? [], count: count, texts: texts) }
        guard let drawing, let bubble = firstBubble(of: session) else { return Self.summaries([], count: count, texts: texts) }
        let lines = drawing.shown(bubble.conversation).transcript.drawnSummaries(of: session, summaryLines: drawing.summaryLines)
        guard count == nil || count == lines.count else { return false }
        guard let texts else { return true }
        return texts.count == lines.count && zip(lines, texts).allSatisfy { drawing.drawer.drawsSummary($0, as: $1) }
    }

    private static func summaries(_ drawn: [String], count: Int?, texts: [String]?) -> Bool {
        (count == nil || count == drawn.count) && (texts == nil || texts == drawn)
    }

    /// A live bubble's caption with its `$UUID` tokens drawn as this device's contact names (M5).
    private func caption(of envelope: Envelope) -> String? {
        envelope.message?.layout.caption.map { drawing?.drawer.drawTokens($0, minted: envelope.senderMap) ?? $0 }
    }

    /// The view of a live bubble: its caption and summary lines as this device draws them (M5, M14).
    private func draw(_ bubble: LiveBubbles.Shown, summaries: [String]) -> DeviceSnapshot.SessionView {
        let envelope = bubble.envelope
        return DeviceSnapshot.SessionView(session: bubble.session, conversation: drawing?.world.conversations[bubble.conversation].name ?? "",
                           message: envelope.id,
                           senderPerson: envelope.senderPerson, caption: caption(of: envelope), urlState: envelope.state,
                           summaries: summaries, summaryCount: bubble.summaries, provenance: envelope.provenance)
    }

    /// The summary lines M14 draws in the conversation, by session, oldest first.
    private func summaries(in conversation: Int) -> [String: [String]] {
        var drawn: [String: [String]] = [:]
        drawSummaries(in: conversation) { drawn[$0, default: []].append($1) }
        return drawn
    }

    /// One session's summary lines in the conversation, oldest first (a check reads one
    /// session's view: drawing the other sessions' tokens was most of it).
    private func summaryLines(in conversation: Int, of session: String) -> [String] {
        var drawn: [String] = []
        drawSummaries(in: conversation, only: session) { drawn.append($1) }
        return drawn
    }

    /// Each summary line M14 draws in the conversation, oldest first, with its session's
    /// name; with `only`, that session's lines alone (the others are not drawn).
    private func drawSummaries(in conversation: Int, only session: String? = nil, _ body: (String, String) -> Void) {
        guard let drawing else { return }
        for line in drawing.shown(conversation).transcript.drawn(summaryLines: drawing.summaryLines) {
            if case .summary(let old, _) = line, let name = old.sessionName, session == nil || name == session,
               let text = drawing.drawer.summaryText(line) {
                body(name, text)
            }
        }
    }
}

/// A run's live bubbles as its snapshots hold them: one reference each, where a copy of
/// the value held a reference to each of its tables (every device of every run).
final class SharedLiveBubbles: Sendable {
    let live: LiveBubbles

    init(_ live: LiveBubbles) { self.live = live }
}
