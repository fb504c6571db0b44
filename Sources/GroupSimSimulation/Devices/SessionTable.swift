import Foundation
import GroupSimCore
import GroupSimScenario

/// The sessions one device shows at the end of a run, each by its live bubble: a few
/// words per session (the bubble's message, its conversation, its count of summary
/// lines), in the device's order (conversations in the scenario's order, then the order
/// of their entries). A `SessionView`, with its caption and summary lines drawn, is
/// drawn only when a report or a check asks for one.
///
/// Checks, pitfalls and exploration read the live bubbles through `SessionStates`, which
/// asks for them by position, so a run with many devices and sessions never draws a view.
package final class SessionTable: @unchecked Sendable {
    /// The live bubbles, as places in their conversation's transcript (8 bytes: a device
    /// shows up to one per session of the run); empty for a table made from views.
    private let lives: [Transcript.LiveSlot]
    /// Where each conversation's bubbles end in `lives` (they come conversation by conversation).
    private let conversationEnds: [Int]
    /// Per conversation, its name and the transcript the bubbles came from (for drawing
    /// summary lines): the same array the snapshot's drawn transcripts hold.
    private let shown: [(conversation: String, transcript: Transcript)]
    private let drawer: TranscriptDrawer?
    private let summaryLines: Int
    /// Set when made from views (a snapshot whose sessions were replaced), else drawn on use.
    private let given: [SessionView]?
    /// The position of each session's first view in `given`.
    private let givenPositions: [String: Int]

    /// Guards what is drawn on use; nil for a table made from views.
    private let lock: NSLock?
    private var positions: [String: Int]?
    private var drawnSummaries: [Int: [String: [String]]] = [:]
    /// Views drawn one at a time (`view(of:)`) before all of them were.
    private var drawnOnes: [Int: SessionView] = [:]

    /// The live bubbles of the transcripts `shown` (one per conversation, in the scenario's
    /// order). The transcripts are read where they lie in `shown`, not copied out of it:
    /// a copy retains each of a transcript's tables, for every device of every run.
    convenience init(shown: [(conversation: String, transcript: Transcript)], drawer: TranscriptDrawer, summaryLines: Int) {
        var lives: [Transcript.LiveSlot] = []
        var ends: [Int] = []
        shown.withUnsafeBufferPointer { shown in
            ends.reserveCapacity(shown.count)
            for index in shown.indices {
                let found = shown[index].transcript.liveSlots()
                // The first conversation's places are taken as found, not copied.
                if lives.isEmpty { lives = found } else { lives.append(contentsOf: found) }
                ends.append(lives.count)
            }
        }
        self.init(lives: lives, ends: ends, shown: shown, drawer: drawer, summaryLines: summaryLines)
    }

    /// A table drawn on use.
    private init(lives: [Transcript.LiveSlot], ends: [Int], shown: [(conversation: String, transcript: Transcript)],
                 drawer: TranscriptDrawer, summaryLines: Int) {
        self.lives = lives
        conversationEnds = ends
        self.shown = shown
        self.drawer = drawer
        self.summaryLines = summaryLines
        given = nil
        givenPositions = [:]
        lock = NSLock()
    }

    /// A table of views already drawn.
    init(views: [SessionView]) {
        lives = []
        conversationEnds = []
        shown = []
        drawer = nil
        summaryLines = 0
        given = views
        var index: [String: Int] = [:]
        for (position, view) in views.enumerated() where index[view.session] == nil { index[view.session] = position }
        givenPositions = index
        lock = nil
    }

    /// How many sessions the device shows.
    package var count: Int { given?.count ?? lives.count }

    /// Whether the table is the device's own, as its run left it: not made from views
    /// that replaced its sessions.
    package var isTheRunsOwn: Bool { given == nil }

    /// The session at `position`.
    package func name(at position: Int) -> String {
        if let given { return given[position].session }
        return envelope(at: position).sessionName ?? ""
    }

    /// The session's number in the run (`Envelope.sessionNumber`); -1 when it has none.
    package func number(at position: Int) -> Int {
        given == nil ? envelope(at: position).sessionNumber : -1
    }

    /// The conversation the session at `position` is shown in.
    package func conversation(at position: Int) -> String {
        if let given { return given[position].conversation }
        return shown[conversationIndex(at: position)].conversation
    }

    /// The message of the live bubble at `position`.
    package func message(at position: Int) -> Int {
        if let given { return given[position].message }
        return envelope(at: position).id
    }

    /// What the live bubble at `position` holds: its URL's state, the changes that state
    /// descends from, its message and who sent it.
    package func bubble(at position: Int) -> (state: StateMap, provenance: Provenance, message: Int, sender: String) {
        if let given {
            let view = given[position]
            return (view.urlState, view.provenance, view.message, view.senderPerson)
        }
        let envelope = envelope(at: position)
        return (envelope.state, envelope.provenance, envelope.id, envelope.senderPerson)
    }

    /// Every view. A large table draws them on each read and keeps none: a run with
    /// many devices and sessions would otherwise keep a view per device and session
    /// for as long as its outcome lives, though a reader needs them one device at a time.
    var views: [SessionView] {
        guard lock != nil else { return given ?? [] }
        return lives.indices.map(draw)
    }

    /// The view of the session's first live bubble here, or nil: a look-up, not a scan.
    func view(of session: String) -> SessionView? {
        guard let lock else { return givenPositions[session].flatMap { given?[$0] } }
        guard let position = position(of: session) else { return nil }
        lock.lock()
        let drawn = drawnOnes[position]
        lock.unlock()
        if let drawn { return drawn }
        // A check asks for the same session again: each is drawn once.
        let view = draw(position)
        lock.lock()
        defer { lock.unlock() }
        if drawnOnes[position] == nil { drawnOnes[position] = view }
        return drawnOnes[position] ?? view
    }

    /// The caption of the session's first live bubble as drawn here (M5): `.some(nil)` for
    /// a bubble with no caption, nil when the device shows no bubble of the session. Draws
    /// the caption alone, not the conversation's summary lines that a whole view holds.
    package func caption(of session: String) -> String?? {
        guard lock != nil else { return givenPositions[session].flatMap { given?[$0] }.map(\.caption) }
        guard let position = position(of: session) else { return nil }
        return .some(Self.caption(of: envelope(at: position), drawer: drawer))
    }

    /// A live bubble's caption with its `$UUID` tokens drawn as this device's contact names (M5).
    private static func caption(of envelope: Envelope, drawer: TranscriptDrawer?) -> String? {
        envelope.message?.layout.caption.map { drawer?.drawTokens($0, minted: envelope.senderMap) ?? $0 }
    }

    /// The position of the session's first live bubble; the index by name is made at the first question.
    private func position(of session: String) -> Int? {
        lock?.lock()
        defer { lock?.unlock() }
        if positions == nil {
            var index: [String: Int] = [:]
            index.reserveCapacity(count)
            for position in 0..<count {
                let name = name(at: position)
                if index[name] == nil { index[name] = position }
            }
            positions = index
        }
        return positions?[session]
    }

    /// The position in `conversations` (and `transcripts`) of the bubble at `position`.
    private func conversationIndex(at position: Int) -> Int {
        var low = 0
        var high = conversationEnds.count - 1
        while low < high {
            let middle = (low + high) / 2
            if conversationEnds[middle] > position { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The message of the live bubble at `position`.
    private func envelope(at position: Int) -> Envelope {
        shown[conversationIndex(at: position)].transcript.envelope(atSlot: lives[position].slot)
    }

    /// The view at `position`, drawn: its caption and summary lines as this device draws
    /// them (M5, M14).
    private func draw(_ position: Int) -> SessionView {
        let conversation = conversationIndex(at: position)
        let envelope = shown[conversation].transcript.envelope(atSlot: lives[position].slot)
        let session = envelope.sessionName ?? ""
        return SessionView(
            session: session, conversation: shown[conversation].conversation, message: envelope.id,
            senderPerson: envelope.senderPerson,
            caption: Self.caption(of: envelope, drawer: drawer),
            urlState: envelope.state, summaries: summaries(in: conversation)[session] ?? [],
            summaryCount: Int(lives[position].summaryCount), provenance: envelope.provenance)
    }

    /// The summary lines M14 draws in the conversation, by session, oldest first; drawn once.
    private func summaries(in conversation: Int) -> [String: [String]] {
        lock?.lock()
        defer { lock?.unlock() }
        if let known = drawnSummaries[conversation] { return known }
        let drawn = drawer.map { Self.summaries(of: shown[conversation].transcript, drawer: $0, summaryLines: summaryLines) } ?? [:]
        drawnSummaries[conversation] = drawn
        return drawn
    }

    private static func summaries(of transcript: Transcript, drawer: TranscriptDrawer, summaryLines: Int) -> [String: [String]] {
        var drawn: [String: [String]] = [:]
        for line in transcript.drawn(summaryLines: summaryLines) {
            if case .summary(let old, _) = line, let name = old.sessionName, let text = drawer.summaryText(line) {
                drawn[name, default: []].append(text)
            }
        }
        return drawn
    }
}
