import GroupSimCore
import GroupSimScenario

/// What one device shows for one conversation: bubbles, summary lines, texts, stickers,
/// in the order they were added (M10, M11).
///
/// A session has at most one live bubble. Adding a message of a session collapses the
/// previous one: it leaves its place, a summary line takes the place when it had summary
/// text, and the new bubble goes to the bottom (M10). Removal leaves a tombstone that is
/// compacted away later, so adding is amortised O(1) however long the transcript grows.
package struct Transcript: Sendable, RunPart {
    package enum Entry: Sendable {
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
        package var envelope: Envelope {
            switch self {
            case .bubble(let envelope), .summary(let envelope, _), .text(let envelope), .sticker(let envelope),
                 .plain(let envelope, _):
                envelope
            }
        }
    }

    /// What happened to the previous live bubble when a new one of its session arrived.
    package struct Collapse: Sendable {
        /// The replaced bubble's message number (its run-wide `m` number): the number, not
        /// the message, so that a collapse nobody traces holds no reference to count.
        package var replaced: Int
        package var leftSummary: Bool
    }

    /// One place in the transcript, 16 bytes: the message (shared by every device's
    /// transcript, not copied), what the place shows, whether the message has summary
    /// text, and a number: for a plain line its text's place in `plainTexts`, for a bubble
    /// its session's number (-1: none), which compaction uses to move the session's live
    /// place. A summary line's text is the message's own summary text.
    private struct Slot {
        enum Kind: UInt8 { case removed, bubble, summary, text, sticker, plain }

        var envelope: Envelope
        var kind: Kind
        /// Kept beside the kind (in the room the layout leaves): a collapse asks it of the
        /// replaced bubble, whose message would be a cold read of its own.
        var hasSummary: Bool
        var extra: Int32 = -1

        /// A bubble's slot, made without an `Entry` in between: every copy of an app message takes this path.
        init(bubble envelope: Envelope, extra: Int32) {
            self.envelope = envelope
            kind = .bubble
            hasSummary = envelope.summaryText != nil
            self.extra = extra
        }

        init(_ entry: Entry, extra: Int32 = -1) {
            envelope = entry.envelope
            hasSummary = envelope.summaryText != nil
            self.extra = extra
            kind = switch entry {
            case .bubble: .bubble
            case .summary: .summary
            case .text: .text
            case .sticker: .sticker
            case .plain: .plain
            }
        }
    }

    // What a delivered copy reads first, together.
    private var slots: [Slot] = []
    /// The slot of each numbered session's live bubble, by `Envelope.sessionNumber` (-1:
    /// none): the path every delivered copy takes reads an array, not a hash of the name.
    private var liveByNumber: [Int32] = []
    private var tombstones = 0
    /// How many numbered sessions the run has, if known: `liveByNumber` is made that long
    /// the first time it grows, and `slots` that roomy at the first bubble, instead of
    /// doubling their way there.
    package var sessionCapacity = 0
    /// The texts of plain lines (M26), which few transcripts have.
    private var plainTexts: [String] = []
    /// The same for sessions without a number (named by an app, not by a step).
    private var live: [String: Int] = [:]

    package init(sessionCapacity: Int = 0) {
        self.sessionCapacity = sessionCapacity
        reset(seed: 0)
    }

    /// Empties the transcript, keeping the room it took: a device that runs again
    /// (`Device.reset`) fills it again.
    mutating func reset(seed: UInt64) {
        // Each emptied only if it holds something: emptying one keeping its room goes
        // through a generic replacement even when there is nothing to remove, and most
        // transcripts of a run hold no plain line and no unnumbered session.
        if !slots.isEmpty { slots.removeAll(keepingCapacity: true) }
        if !plainTexts.isEmpty { plainTexts.removeAll(keepingCapacity: true) }
        tombstones = 0
        if !liveByNumber.isEmpty { liveByNumber.removeAll(keepingCapacity: true) }
        if !live.isEmpty { live.removeAll(keepingCapacity: true) }
    }

    /// Adds an app message's bubble at the bottom, collapsing the session's previous bubble (M10).
    package mutating func addBubble(_ envelope: Envelope, nilSummary: Scenario.Options.NilSummary) -> Collapse? {
        addBubble(envelope, number: envelope.sessionNumber, nilSummary: nilSummary)
    }

    /// The same, with the session's number in the run (-1: none). Every message of one
    /// session must come with the same number, or with none.
    package mutating func addBubble(_ envelope: Envelope, number: Int, nilSummary: Scenario.Options.NilSummary) -> Collapse? {
        addBubble(envelope, number: number, nilSummary: nilSummary, naming: true)
    }

    /// The same; `naming` false leaves the collapse's `replaced` at -1 and the replaced
    /// bubble's message unread (a delivered copy names it only for a trace).
    /// The message is taken owned: its slot keeps the reference the caller made, instead of
    /// a second one made here while the caller's is released after the call.
    mutating func addBubble(_ envelope: __owned Envelope, number: Int, nilSummary: Scenario.Options.NilSummary, naming: Bool) -> Collapse? {
        var collapse: Collapse?
        if envelope.sessionName != nil, let index = replaceLive(of: envelope, number: number, with: slots.count),
           slots.indices.contains(index), slots[index].kind == .bubble {
            // Read in place: the message held out of its slot was retained and released on every collapse.
            let replaced = naming ? slots.withUnsafeBufferPointer { $0[index].envelope.id } : -1
            if slots[index].hasSummary || nilSummary == .defaultText {
                slots[index].kind = .summary
                collapse = Collapse(replaced: replaced, leftSummary: true)
            } else {
                slots[index].kind = .removed
                tombstones += 1
                collapse = Collapse(replaced: replaced, leftSummary: false)
            }
        }
        // With one conversation every numbered session has a place here: made room for at
        // once, instead of doubling (and copying) its way there.
        if slots.isEmpty, sessionCapacity > 0 { slots.reserveCapacity(sessionCapacity) }
        slots.append(Slot(bubble: envelope, extra: Int32(truncatingIfNeeded: max(number, -1))))
        // Asked here, on every bubble; the compaction itself is called now and then.
        if tombstones > 64, tombstones * 2 > slots.count { compact() }
        return collapse
    }

    /// Makes `slot` the live position of the envelope's session; returns the previous one.
    /// The session's name is read only for a session without a number (a copy of the
    /// name retained and released it on every copy delivered).
    @inline(__always)
    private mutating func replaceLive(of envelope: Envelope, number: Int, with slot: Int) -> Int? {
        guard number >= 0 else { return envelope.sessionName.flatMap { live.updateValue(slot, forKey: $0) } }
        if liveByNumber.isEmpty { liveByNumber.reserveCapacity(max(number + 1, sessionCapacity)) }
        liveByNumber.grow(toInclude: number, with: -1)
        let previous = liveByNumber[number]
        liveByNumber[number] = Int32(truncatingIfNeeded: slot)
        return previous >= 0 ? Int(previous) : nil
    }

    /// Adds a non-session entry at the bottom.
    package mutating func append(_ entry: Entry) {
        if case .plain(_, let text) = entry {
            slots.append(Slot(entry, extra: Int32(plainTexts.count)))
            plainTexts.append(text)
        } else {
            slots.append(Slot(entry))
        }
    }

    /// The entry a kept slot shows; nil for a removed one.
    private func entry(_ slot: Slot) -> Entry? {
        switch slot.kind {
        case .removed: nil
        case .bubble: .bubble(slot.envelope)
        case .summary: .summary(slot.envelope, text: slot.envelope.summaryText)
        case .text: .text(slot.envelope)
        case .sticker: .sticker(slot.envelope)
        case .plain: .plain(slot.envelope, text: plainTexts.indices.contains(Int(slot.extra)) ? plainTexts[Int(slot.extra)] : "")
        }
    }

    /// Every entry still in the transcript, oldest first, before M14's drawing limit.
    package var entries: [Entry] { slots.compactMap(entry) }

    /// The entries as drawn: of each session's summary lines only the last `summaryLines`
    /// are shown above the live bubble (M14).
    package func drawn(summaryLines: Int) -> [Entry] {
        var remaining: [String: Int] = [:]
        var shown: [Bool] = Array(repeating: true, count: slots.count)
        for index in slots.indices.reversed() {
            guard slots[index].kind == .summary, let session = slots[index].envelope.sessionName else { continue }
            let left = remaining[session, default: summaryLines]
            shown[index] = left > 0
            remaining[session] = left - 1
        }
        return slots.indices.compactMap { shown[$0] ? entry(slots[$0]) : nil }
    }

    /// The session's summary lines among `drawn(summaryLines:)`, oldest first, without
    /// making the other entries: a `summaries` check reads one session's lines.
    package func drawnSummaries(of session: String, summaryLines: Int) -> [Entry] {
        var lines: [Entry] = []
        for slot in slots.reversed() where slot.kind == .summary && slot.envelope.sessionName == session {
            guard lines.count < summaryLines else { break }
            if let line = entry(slot) { lines.append(line) }
        }
        return lines.reversed()
    }

    /// Drops the removed slots, once they are more than 64 and half of them (`addBubble` asks).
    private mutating func compact() {
        // Kept slots are swapped down in place (a swap moves references without counting
        // them), and the removed ones, now at the end, are dropped at once. A bubble is
        // its session's live place, so its session's entry moves with it: found by the
        // number the slot keeps, or by name for a session without one.
        // In the array's buffer: every swap through the array checked that it is unique.
        var kept = 0
        slots.withUnsafeMutableBufferPointer { slots in
            for index in slots.indices where slots[index].kind != .removed {
                if kept != index {
                    if slots[index].kind == .bubble {
                        let number = Int(slots[index].extra)
                        if number >= 0, number < liveByNumber.count, liveByNumber[number] == Int32(truncatingIfNeeded: index) {
                            liveByNumber[number] = Int32(truncatingIfNeeded: kept)
                        } else if let session = slots[index].envelope.sessionName, live[session] == index {
                            live[session] = kept
                        }
                    }
                    slots.swapAt(kept, index)
                }
                kept += 1
            }
        }
        slots.removeLast(slots.count - kept)
        tombstones = 0
    }
}
