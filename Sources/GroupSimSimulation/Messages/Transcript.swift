import GroupSimScenario

/// What one device shows for one conversation: bubbles, summary lines, texts, stickers,
/// in the order they were added (M10, M11).
///
/// A session has at most one live bubble. Adding a message of a session collapses the
/// previous one: it leaves its place, a summary line takes the place when it had summary
/// text, and the new bubble goes to the bottom (M10). Removal leaves a tombstone that is
/// compacted away later, so adding is amortised O(1) however long the transcript grows.
public struct Transcript: Sendable {
    public enum Entry: Sendable {
        /// An app message. The sender identifier is not stored: the device works it out
        /// whenever it draws the bubble or hands it to the app, so that a reinstall renews
        /// it on every bubble (M2, M3).
        case bubble(Envelope)
        /// What a collapsed bubble left behind (M10); `text` is nil for the system's
        /// default description (`nil-summary: default-text`).
        case summary(Envelope, text: String?)
        /// A plain text message.
        case text(Envelope)
        /// A sticker (M28).
        case sticker(Envelope)
        /// What an old system receives instead of an interactive message (M26).
        case plain(Envelope, text: String)

        /// The message behind the entry.
        public var envelope: Envelope {
            switch self {
            case .bubble(let envelope), .summary(let envelope, _), .text(let envelope), .sticker(let envelope),
                 .plain(let envelope, _):
                envelope
            }
        }
    }

    /// What happened to the previous live bubble when a new one of its session arrived.
    public struct Collapse: Sendable {
        public var replaced: Envelope
        public var leftSummary: Bool
    }

    private var slots: [Entry?] = []
    private var tombstones = 0
    private var live: [String: Int] = [:]

    public init() {}

    /// Adds an app message's bubble at the bottom, collapsing the session's previous bubble (M10).
    public mutating func addBubble(_ envelope: Envelope, nilSummary: Options.NilSummary) -> Collapse? {
        var collapse: Collapse?
        if let session = envelope.sessionName, let index = live.updateValue(slots.count, forKey: session),
           slots.indices.contains(index), case .bubble(let old)? = slots[index] {
            let summary = old.summaryText
            if summary != nil || nilSummary == .defaultText {
                slots[index] = .summary(old, text: summary)
                collapse = Collapse(replaced: old, leftSummary: true)
            } else {
                slots[index] = nil
                tombstones += 1
                collapse = Collapse(replaced: old, leftSummary: false)
            }
        }
        slots.append(.bubble(envelope))
        compactIfSparse()
        return collapse
    }

    /// Adds a non-session entry at the bottom.
    public mutating func append(_ entry: Entry) {
        slots.append(entry)
    }

    /// The message of the session's live bubble.
    public func liveBubble(session: String) -> Envelope? {
        guard let index = live[session], slots.indices.contains(index), case .bubble(let envelope)? = slots[index] else { return nil }
        return envelope
    }

    /// Every entry still in the transcript, oldest first, before M14's drawing limit.
    public var entries: [Entry] { slots.compactMap { $0 } }

    /// The entries as drawn: of each session's summary lines only the last `summaryLines`
    /// are shown above the live bubble (M14).
    public func drawn(summaryLines: Int) -> [Entry] {
        var remaining: [String: Int] = [:]
        var shown: [Bool] = Array(repeating: true, count: slots.count)
        for index in slots.indices.reversed() {
            guard case .summary(let envelope, _)? = slots[index], let session = envelope.sessionName else { continue }
            let left = remaining[session, default: summaryLines]
            shown[index] = left > 0
            remaining[session] = left - 1
        }
        return slots.indices.compactMap { shown[$0] ? slots[$0] : nil }
    }

    private mutating func compactIfSparse() {
        guard tombstones > 64, tombstones * 2 > slots.count else { return }
        // Where each kept slot moves to; the live positions are moved, not hashed again.
        var moved = [Int](repeating: -1, count: slots.count)
        var kept = 0
        for index in slots.indices where slots[index] != nil {
            moved[index] = kept
            kept += 1
        }
        slots.removeAll { $0 == nil }
        tombstones = 0
        live = live.mapValues { moved[$0] }
    }
}
