import Foundation
import GroupSimCore
import GroupSimScenario
import GroupSimSimulation
import GroupSimChecking

/// The page's time slider: the run's events as one embedded JSON list, each with the
/// changes `ScreenReplay` makes to one device's screen there, and the script that plays
/// them in the browser to draw every device's screen at the event under the cursor, say
/// in one sentence what that event did with the rule it follows, mark the instant on the
/// message flow with the copies then in flight, and say when a pitfall becomes true there.
///
/// The page holds one entry per trace event and one per message, with a screen's changes,
/// never a whole screen per instant: its size stays linear in the events. The browser
/// check (`scripts/check-timeline.py`) compares what the page draws with `ScreenReplay`.
/// Before any interaction the page shows what it always showed, the screens at the end;
/// without scripts, and in print, the slider is hidden.
extension HTMLReport {
    /// The slider bar; `hidden` until the script shows it. Its ids start with `prefix`.
    static func scrubber(events: Int, prefix: String = "") -> String {
        let last = max(0, events - 1)
        func id(_ name: String) -> String { "id=\"\(prefix)\(name)\"" }
        var html = "<nav \(id("scrubber")) class=\"scrubber\" aria-label=\"move through the run, event by event\" hidden>\n"
        html += "<div class=\"controls\">"
        html += "<button type=\"button\" \(id("scrub-first")) title=\"first event (Home)\" aria-label=\"first event\">|◀</button>"
        html += "<button type=\"button\" \(id("scrub-prev")) title=\"previous event (←)\" aria-label=\"previous event\">◀</button>"
        html += "<button type=\"button\" \(id("scrub-play")) title=\"play from here\" aria-label=\"play\">▶ play</button>"
        html += "<button type=\"button\" \(id("scrub-next")) title=\"next event (→)\" aria-label=\"next event\">▶</button>"
        html += "<button type=\"button\" \(id("scrub-last")) title=\"the end (End)\" aria-label=\"the end\">▶|</button>"
        html += "<input type=\"range\" \(id("scrub-range")) min=\"0\" max=\"\(last)\" value=\"\(last)\" step=\"1\" aria-label=\"event of "
            + "the run\">"
        html += "<output \(id("scrub-time")) for=\"\(prefix)scrub-range\"></output></div>\n"
        html += "<p \(id("scrub-say")) class=\"say\" aria-live=\"polite\">Move the slider, or press ← and → (Home, End), "
            + "to watch the run event by event; the screens below show the end.</p>\n"
        html += "<p \(id("scrub-moment")) class=\"moment\" hidden></p>\n"
        return html + "</nav>\n"
    }

    /// The run's embedded event list, `id="PREFIXtimeline-data"`: the script finds every
    /// one on the page by the end of its id, and the ids of its run by what precedes it.
    static func timelineData(_ report: RunReport, history: ViewHistory, geometry: FlowGeometry, prefix: String) -> String {
        let data = timelineData(report, history: history, geometry: geometry).rendered(indent: nil)
        return "<script type=\"application/json\" id=\"\(prefix)timeline-data\">\(data)</script>\n"
    }

    /// The slider's script, once per page after every run's events.
    static var scriptTag: String { "<script>\(timelineScript)</script>\n" }

    /// `'sha256-…'` of the script, the only one the page's content security policy lets run.
    package static var timelineScriptHash: String {
        var hasher = SHA256()
        hasher.update(timelineScript)
        let hex = Array(hasher.hexDigest.utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index + 1 < hex.count {
            bytes.append(UInt8(hexDigit(hex[index]) << 4 | hexDigit(hex[index + 1])))
            index += 2
        }
        return "'sha256-\(Data(bytes).base64EncodedString())'"
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") ? byte - UInt8(ascii: "a") + 10 : byte - UInt8(ascii: "0")
    }

    // MARK: - The data

    static func timelineData(_ report: RunReport, history: ViewHistory, geometry: FlowGeometry) -> JSONValue {
        let outcome = report.outcome
        let scenario = outcome.scenario
        let replay = ScreenReplay(outcome: outcome)
        let devices: [JSONValue] = scenario.devices.map { spec in
            .object([("name", .string(spec.name)), ("person", .string(spec.person)), ("app", .bool(spec.runsApp))])
        }
        let messages: [JSONValue] = replay.messages.keys.sorted().compactMap { id in
            guard let face = replay.messages[id] else { return nil }
            return .object([("id", .int(id)), ("person", .string(face.senderPerson)), ("name", .string(face.senderName)),
                            ("session", .string(face.session)), ("text", .string(face.text)), ("sub", .string(face.subcaption)),
                            ("url", .string(face.url)), ("state", pairs(face.state)), ("summary", .string(face.summary)),
                            ("plain", .array(face.plain.map { .string($0) }))])
        }
        let moments = pitfallMoments(report, history: history)
        var deviceIndex: [String: Int] = [:]
        for (index, spec) in scenario.devices.enumerated() where deviceIndex[spec.name] == nil { deviceIndex[spec.name] = index }
        var sentIndex: [Int: Int] = [:]
        var events: [JSONValue] = []
        var state = replay.start(outcome)
        var shown = state.screens.map { $0.lines.map { _ in [ScreenReplay.Frame]() } }
        for (index, event) in outcome.trace.events.enumerated() {
            if case .sent(let message, _, _) = event.kind, sentIndex[message] == nil { sentIndex[message] = index }
            let said = sentence(event, outcome: outcome, replay: replay, before: state)
            let subject = deviceIndex[event.subject]
            let before = subject.map { (state.screens[$0].drafts, state.screens[$0].open) }
            var fields: [(String, JSONValue)] = [("t", .int(event.time.nanoseconds)), ("at", .string(event.time.description))]
            if let device = replay.apply(event, to: &state), let before {
                fields += frame(device, state.screens[device], before: before, replay: replay, shown: &shown[device])
            }
            fields.append(("say", .string(said.text)))
            if let rule = said.rule { fields.append(("rule", .string(rule.rawValue))) }
            if let moment = moments[index] {
                fields.append(("pitfall", .int(moment.pitfall)))
                fields.append(("moment", .string(moment.text)))
            }
            events.append(.object(fields))
        }
        let copies: [JSONValue] = geometry.copies.map { drawn in
            .array([.int(drawn.copy.message), .int(drawn.x1), .int(drawn.y1), .int(drawn.x2), .int(drawn.y2),
                    .int(sentIndex[drawn.copy.message] ?? 0), .int(drawn.copy.traceIndex),
                    .int(drawn.copy.sentAt.nanoseconds), .int(drawn.copy.arrivedAt.nanoseconds), .string(color(drawn.copy.message))])
        }
        let rows: [JSONValue] = geometry.rows.map { .array([.int($0.time.nanoseconds), .int($0.y)]) }
        return .object([
            ("conversations", .array(replay.conversations.map { .string($0) })),
            ("several", .bool(scenario.conversations.count > 1)),
            ("devices", .array(devices)),
            ("messages", .array(messages)),
            ("events", .array(events)),
            ("rows", .array(rows)),
            ("copies", .array(copies)),
            ("width", .int(geometry.width)),
            ("rules", .string(RuleReference.document)),
        ])
    }

    static func pairs(_ state: StateMap) -> JSONValue {
        .array(state.entries.map { .array([.string($0.key), .string($0.value)]) })
    }

    /// What the player changes on `device`'s screen at an event: its lines, as changes to
    /// the frames `shown` it drew before (`ScreenReplay.changes`), each `[conversation,
    /// place, "s"/"i", message, kind, extra]` to set or insert a line, `[conversation,
    /// place]` to remove one; its drafts (M16) and the extension's style (M19) when they changed.
    static func frame(_ device: Int, _ screen: ScreenReplay.Screen, before: (drafts: [String?], open: Scenario.PresentationStyle?),
                      replay: ScreenReplay, shown: inout [[ScreenReplay.Frame]]) -> [(String, JSONValue)] {
        var changes: [JSONValue] = []
        for (slot, lines) in screen.lines.enumerated() {
            let frames = replay.frames(lines)
            for change in ScreenReplay.changes(from: shown[slot], to: frames) {
                var item: [JSONValue] = [.int(slot), .int(change.at)]
                if let line = change.line {
                    item += [.string(change.inserted ? "i" : "s"), .int(line.message), .string(line.kind.rawValue), .int(line.extra)]
                }
                changes.append(.array(item))
            }
            shown[slot] = frames
        }
        var fields: [(String, JSONValue)] = [("d", .int(device))]
        if !changes.isEmpty { fields.append(("lines", .array(changes))) }
        if screen.drafts != before.drafts { fields.append(("drafts", .array(screen.drafts.map { .string($0) }))) }
        if screen.open != before.open { fields.append(("open", .string(screen.open?.rawValue))) }
        return fields
    }

    // MARK: - Pitfall moments

    /// The event at which each pitfall became true, with a line saying so: for diverging
    /// views the change that parted two devices (M12); for a pitfall seen while the app
    /// read something, that reading; for a lost change, the moment its message stopped
    /// being the live bubble on a device that lost it.
    static func pitfallMoments(_ report: RunReport, history: ViewHistory) -> [Int: (pitfall: Int, text: String)] {
        let events = report.outcome.trace.events
        // The first sighting of each pitfall kind per device, and the first collapse of each
        // message per device, found in one pass.
        var sightings: [String: Int] = [:]
        var collapses: [String: Int] = [:]
        for (index, event) in events.enumerated() {
            switch event.kind {
            case .pitfall(let kind, _):
                let key = "\(kind.rawValue)|\(event.subject)"
                if sightings[key] == nil { sightings[key] = index }
            case .collapsed(_, let replaced, _):
                let key = "\(replaced)|\(event.subject)"
                if collapses[key] == nil { collapses[key] = index }
            case .step, .callback, .staged, .cancelled, .sent, .delivered, .held, .queued, .failed, .reinstalled, .offline, .online,
                 .joined, .left, .droppedURL, .cloudRequest, .cloudHandled, .cloudAnswer, .note:
                continue
            }
        }
        var moments: [Int: (pitfall: Int, text: String)] = [:]
        func mark(_ index: Int?, _ pitfall: Int, _ text: String) {
            guard let index, moments[index] == nil else { return }
            moments[index] = (pitfall, text)
        }
        for (number, pitfall) in report.pitfalls.enumerated() {
            let kind = pitfall.kind.rawValue
            if pitfall.kind == .divergence, let session = pitfall.session {
                for parting in history.partings(session: session, among: pitfall.devices) {
                    mark(parting.change.traceIndex, number,
                         "Here the views part (\(kind), \(pitfall.rule)): \(parting.change.device) \(parting.change.action) while "
                             + "\(parting.other) \(parting.otherShowed.map { "still shows m\($0)" } ?? "shows nothing of \(session)").")
                }
                continue
            }
            if let seen = pitfall.devices.compactMap({ sightings["\(kind)|\($0)"] }).min() {
                mark(seen, number, "Here the pitfall \(kind) becomes true (\(pitfall.rule)): \(pitfall.summary)")
                continue
            }
            guard let message = pitfall.message,
                  let lost = pitfall.devices.compactMap({ collapses["\(message)|\($0)"] }).min() else { continue }
            mark(lost, number, "Here m\(message) stops being the live bubble on \(events[lost].subject)"
                 + " and the pitfall \(kind) becomes true (\(pitfall.rule)): \(pitfall.summary)")
        }
        return moments
    }
}
