import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// Every device's screen after each event of a run, rebuilt from the typed trace: the
/// lines of each conversation's transcript (bubbles, summary lines, texts, stickers, the
/// plain messages of old systems), the live bubble of each session, the staged draft and
/// whether the extension is open (M10, M11, M16, M19, M26).
///
/// The HTML page's time slider plays the changes this walk makes to each screen (`frames`,
/// `changes`, embedded by `HTMLReport+Timeline.swift`); `groupsim run --format screens`
/// prints its screens, which the browser check holds the page to, and its screens after
/// the last event equal the run's final transcripts (tests check it for every scenario).
/// Building the message table is O(events); each `apply` is O(lines of one conversation).
package struct ScreenReplay: Sendable {
    /// What a message shows wherever it is drawn: captions with `$UUID` tokens drawn as
    /// contact names through the sender's identifiers when it was sent (M5).
    package struct MessageFace: Sendable {
        package enum Content: String, Sendable {
            case app, text, sticker
        }

        package var id: Int
        package var senderDevice: String
        package var senderPerson: String
        package var senderName: String
        package var conversation: String
        package var content: Content
        package var session: String?
        /// The caption (app messages) or the text (texts, stickers).
        package var text: String?
        package var subcaption: String?
        package var url: String?
        package var state: StateMap
        /// The summary line it leaves when collapsed (M10), drawn.
        package var summary: String
        /// What an old system shows instead (M26): a picture line, a web URL line.
        package var plain: [String]
    }

    /// One line of a transcript as drawn.
    package struct Line: Sendable, Hashable {
        package var kind: DeviceSnapshot.DrawnEntry.Kind
        package var message: Int
        package var session: String?
        package var senderPerson: String
        package var text: String?
        package var subcaption: String?
        package var state: StateMap?
    }

    /// One device's screen at an instant.
    package struct Screen: Sendable, Hashable {
        package var name: String
        /// Lines per conversation, in the scenario's order, before M14's drawing limit.
        package var lines: [[Line]]
        /// The staged draft of each conversation (its caption or text), M16.
        package var drafts: [String?]
        /// The extension's presentation style while it is open (M19); nil when closed.
        package var open: Scenario.PresentationStyle?
    }

    package let conversations: [String]
    package let summaryLines: Int
    /// Every message by id (ids run from 1 in send order).
    package let messages: [Int: MessageFace]
    private let deviceIndex: [String: Int]
    private let platforms: [Scenario.DeviceSpec.Platform]
    private let steps: [Int: Scenario.Step]
    /// Each device's identifier maps, every installation's (M2).
    private let maps: [[IdentifierMap]]
    private let contacts: [String: String]

    package init(outcome: RunOutcome) {
        let scenario = outcome.scenario
        conversations = scenario.conversations.isEmpty ? [Scenario.ConversationSpec.defaultName] : scenario.conversations.map(\.name)
        summaryLines = scenario.options.summaryLines
        var index: [String: Int] = [:]
        for (position, spec) in scenario.devices.enumerated() where index[spec.name] == nil { index[spec.name] = position }
        deviceIndex = index
        platforms = scenario.devices.map(\.platform)
        var steps: [Int: Scenario.Step] = [:]
        for step in scenario.steps { steps[step.number] = step }
        self.steps = steps
        maps = scenario.devices.map { outcome.device($0.name)?.identifierMaps ?? [] }
        contacts = Dictionary(scenario.people.map { ($0.key, $0.contactName) }, uniquingKeysWith: { first, _ in first })
        messages = Self.faces(outcome, conversations: conversations, steps: steps)
    }

    /// Every device's screen before the first event, and what the walk keeps besides.
    package struct State: Sendable {
        package var screens: [Screen]
        /// The step each device is carrying out (its conversation and action), nil
        /// between steps: a delivery or a cloud answer is not part of one.
        var steps: [Scenario.Step?]
        /// Each device's staged app message per conversation, as staged (M16).
        var staged: [[Message?]]
        /// Each device's installation (M2): what its drafts' tokens are drawn with (M5).
        var generations: [Int]
        /// Each device's live bubble per session (M10): its newest bubble.
        package var live: [[String: Line]]
    }

    package func start(_ outcome: RunOutcome) -> State {
        let screens = outcome.scenario.devices.map {
            Screen(name: $0.name, lines: conversations.map { _ in [] }, drafts: conversations.map { _ in nil }, open: nil)
        }
        return State(screens: screens, steps: screens.map { _ in nil }, staged: screens.map { _ in conversations.map { _ in nil } },
                     generations: screens.map { _ in 0 }, live: screens.map { _ in [:] })
    }

    /// Applies one trace event; returns the index of the device whose screen it changed.
    @discardableResult
    package func apply(_ event: Simulation.Trace.Event, to state: inout State) -> Int? {
        guard let device = deviceIndex[event.subject], state.screens.indices.contains(device) else { return nil }
        // Only the small parts are kept to compare: a copy of the lines would make every
        // change to them copy the whole transcript.
        let drafts = state.screens[device].drafts
        let open = state.screens[device].open
        var linesChanged = false
        let step = state.steps[device]
        let stepSlot = conversations.firstIndex(of: step?.conversation ?? conversations[0]) ?? 0
        switch event.kind {
        case .step(let number, _):
            state.steps[device] = steps[number]
        case .delivered(let message, _):
            state.steps[device] = nil
            linesChanged = add(message, on: device, &state)
        case .sent(let message, _, _):
            linesChanged = add(message, on: device, &state)
            if let face = messages[message], let slot = conversations.firstIndex(of: face.conversation),
               drafts[slot] != nil, emptiesField(event, staged: state.staged[device][slot], step: step) {
                state.screens[device].drafts[slot] = nil
                state.staged[device][slot] = nil
            }
        case .collapsed(_, let replaced, let summary):
            guard let face = messages[replaced], let slot = conversations.firstIndex(of: face.conversation),
                  let at = state.screens[device].lines[slot].lastIndex(where: { $0.message == replaced && $0.kind == .bubble })
            else { break }
            linesChanged = true
            if summary {
                state.screens[device].lines[slot][at] = Line(kind: .summary, message: replaced, session: face.session,
                                                             senderPerson: face.senderPerson, text: face.summary)
            } else {
                state.screens[device].lines[slot].remove(at: at)
            }
        case .staged:
            let map = maps[device].first { $0.generation == state.generations[device] }
            state.screens[device].drafts[stepSlot] = Self.drawTokens(Self.draftText(event.payload), map: map, contact: contact)
            state.staged[device][stepSlot] = Self.stagedMessage(event.payload)
        case .cancelled:
            state.screens[device].drafts[stepSlot] = nil
            state.staged[device][stepSlot] = nil
        case .reinstalled:
            state.generations[device] += 1
            state.screens[device].drafts = conversations.map { _ in nil }
            state.staged[device] = conversations.map { _ in nil }
            state.screens[device].open = nil
        case .callback(.didBecomeActive), .callback(.didTransition):
            state.screens[device].open = Self.style(asked: step?.action)
        case .callback(.didResignActive):
            state.screens[device].open = nil
        case .cloudAnswer:
            state.steps[device] = nil
        case .callback, .held, .queued, .failed, .offline, .online, .joined, .left, .droppedURL, .cloudRequest, .cloudHandled, .pitfall,
             .note:
            break
        }
        return linesChanged || state.screens[device].drafts != drafts || state.screens[device].open != open ? device : nil
    }

    /// Whether a `sent` event is the input field's draft going out, which empties the field
    /// (M16): the staged app message itself, or staged text or a sticker sent by the
    /// user's tap on Send. A direct send (M18) leaves the draft alone.
    package func emptiesField(_ event: Simulation.Trace.Event, staged: Message?, step: Scenario.Step?) -> Bool {
        switch event.payload {
        case .message(var sent)?:
            guard var staged else { return false }
            sent.isPending = false
            staged.isPending = false
            return sent == staged
        case .cloud?, .failure?, .text?, nil:
            guard staged == nil, case .pressSend? = step?.action else { return false }
            return true
        }
    }

    /// The app message a `staged` event put in the input field; nil for text or a sticker.
    static func stagedMessage(_ payload: Simulation.Trace.Event.Payload?) -> Message? {
        if case .message(let message)? = payload { return message }
        return nil
    }

    /// The style the extension is in after the step: the one asked for when opening, a
    /// tap's expanded (M21), else compact, where staging a message moves it (M16, M24).
    static func style(asked action: Scenario.Action?) -> Scenario.PresentationStyle {
        switch action?.kind.built.screen ?? .other {
        case .open: if case .open(let style)? = action { style } else { .compact }
        case .tap: .expanded
        case .other: .compact
        }
    }

    /// The state after every event, through `body(index, state, changed device)`.
    package func walk(_ outcome: RunOutcome, _ body: (Int, State, Int?) -> Void) {
        var state = start(outcome)
        for (index, event) in outcome.trace.events.enumerated() {
            let changed = apply(event, to: &state)
            body(index, state, changed)
        }
    }

    /// The lines a screen draws for a conversation: of each session's summary lines only
    /// the last `summaryLines` (M14).
    package func drawn(_ lines: [Line]) -> [Line] {
        var remaining: [String: Int] = [:]
        var shown = Array(repeating: true, count: lines.count)
        for index in lines.indices.reversed() where lines[index].kind == .summary {
            guard let session = lines[index].session else { continue }
            let left = remaining[session, default: summaryLines]
            shown[index] = left > 0
            remaining[session] = left - 1
        }
        return lines.indices.compactMap { shown[$0] ? lines[$0] : nil }
    }

    // MARK: - Adding a message

    /// Adds a message's lines to the device's transcript; false when it draws none.
    private func add(_ message: Int, on device: Int, _ state: inout State) -> Bool {
        guard let face = messages[message], let slot = conversations.firstIndex(of: face.conversation) else { return false }
        var line = Line(kind: .text, message: message, session: face.session, senderPerson: face.senderPerson, text: face.text)
        switch face.content {
        case .app where platforms[device] == .ios9:
            for text in face.plain {
                line.kind = .plain
                line.text = text
                state.screens[device].lines[slot].append(line)
            }
            return !face.plain.isEmpty
        case .app:
            line.kind = .bubble
            line.subcaption = face.subcaption
            line.state = face.state
        case .text:
            line.kind = .text
        case .sticker:
            line.kind = .sticker
        }
        state.screens[device].lines[slot].append(line)
        if line.kind == .bubble, let session = line.session { state.live[device][session] = line }
        return true
    }

    /// A person's contact name (M5).
    func contact(_ person: String) -> String { contacts[person] ?? person }

    static func draftText(_ payload: Simulation.Trace.Event.Payload?) -> String {
        switch payload {
        case .message(let message): message.layout.caption ?? "(an interactive message)"
        case .text(let text): text
        case .cloud, .failure, nil: "(a draft)"
        }
    }
}

extension ScreenReplay {
    /// A drawn line as the page's player keeps it: its message, its kind, and for a bubble
    /// 1 when it is its session's live one (the newest drawn, M10), for a plain line which
    /// of the message's plain lines it is (M26); else 0.
    package struct Frame: Hashable {
        package var message: Int
        package var kind: DeviceSnapshot.DrawnEntry.Kind
        package var extra: Int
    }

    /// The lines a screen draws for a conversation (`drawn(_:)`), as frames.
    package func frames(_ lines: [Line]) -> [Frame] {
        let drawn = drawn(lines)
        var newest: [String: Int] = [:]
        for (index, line) in drawn.enumerated() where line.kind == .bubble { if let session = line.session { newest[session] = index } }
        return drawn.enumerated().map { index, line in
            let extra = switch line.kind {
            case .bubble: line.session.map { newest[$0] == index } == true ? 1 : 0
            case .plain: messages[line.message]?.plain.firstIndex { $0 == line.text } ?? 0
            case .summary, .text, .sticker: 0
            }
            return Frame(message: line.message, kind: line.kind, extra: extra)
        }
    }

    /// What turns the frames `old` into `new`, in order, each at its place in the lines as
    /// changed so far: a line set anew (same message), inserted, or removed (nil).
    package static func changes(from old: [Frame], to new: [Frame]) -> [(at: Int, line: Frame?, inserted: Bool)] {
        // A line's message and, for a plain line, which: a message draws up to two (M26).
        func key(_ frame: Frame) -> Int { frame.message * 4 + (frame.kind == .plain ? frame.extra + 1 : 0) }
        var changes: [(at: Int, line: Frame?, inserted: Bool)] = []
        let kept = Set(new.map(key))
        var at = 0, from = 0
        while at < new.count {
            if from < old.count, old[from] == new[at] {
                from += 1
            } else if from < old.count, key(old[from]) == key(new[at]) {
                changes.append((at, new[at], false))
                from += 1
            } else if from < old.count, !kept.contains(key(old[from])) {
                changes.append((at, nil, false))
                from += 1
                continue
            } else {
                changes.append((at, new[at], true))
            }
            at += 1
        }
        changes += repeatElement((at: at, line: Frame?.none, inserted: false), count: old.count - from)
        return changes
    }
}
