import Foundation
import GroupSimCore
import GroupSimScenario
import GroupSimSimulation
import GroupSimChecking

/// The text `groupsim lessons NAME` prints.
///
/// By default a lesson fits one screen (`shortLimit` lines of at most `width` columns):
/// the terms it is the first to use, the broken design and what it gets wrong, its run
/// as a short timeline with what each device shows at the end, each pitfall's what and
/// where with the fix said once, the fixed design with the checks that prove it, the
/// rules as `groupsim help M12` commands, and the command for the next lesson.
/// `full: true` prints the complete narration: every step of both runs with what every
/// device then shows, the transcripts side by side, every pitfall in full, and why the
/// fix works.
///
/// Built from the two runs' reports alone (their traces, final transcripts, checks and
/// pitfalls), so the same files always give the same narration.
package enum LessonNarration {
    /// The most lines a lesson prints by default.
    package static let shortLimit = 40
    /// The most columns any line of a lesson takes, by default and with `--full`.
    package static let width = 100

    package static func render(_ lesson: Lesson, broken: RunReport, fixed: RunReport, full: Bool = false) -> String {
        full ? renderFull(lesson, broken: broken, fixed: fixed) : renderShort(lesson, broken: broken, fixed: fixed)
    }

    /// The last line of a lesson: the command for the next one.
    static func nextLine(_ lesson: Lesson) -> String {
        guard let next = lesson.next else {
            return Lesson.named(lesson.name) == nil ? "List the lessons: groupsim lessons" : "That was the last lesson. List them all: "
                + "groupsim lessons"
        }
        let line = "Next: groupsim lessons \(next.name)   (\(next.title))"
        return line.count <= width ? line : "Next: groupsim lessons \(next.name)"
    }

    /// The lesson's title, underlined, and a blank line: how both narrations begin.
    static func heading(_ lesson: Lesson) -> [String] {
        let heading = "Lesson \(lesson.name): \(lesson.title) (\(lesson.rules.map(\.rawValue).joined(separator: ", ")))"
        return [heading, ""]
    }

    /// The glossary terms the lesson is the first to use, each defined in one line, then
    /// the others `text` uses; both before anything else, so no term is used before it
    /// is defined (`Glossary`).
    static func termLines(_ lesson: Lesson, using text: String, earlier: Bool = true) -> [String] {
        var lines: [String] = []
        let own = lesson.terms.compactMap(Glossary.term)
        if !own.isEmpty {
            lines.append("New terms (all of them: groupsim help terms):")
            for term in own { lines += wrapped(term.line, indent: "   ", continuation: "     ") }
        }
        let others = Glossary.firstUses(in: text).map(\.term).filter { !own.contains($0) }
        if earlier, !others.isEmpty {
            lines += clipped(wrapped("Terms from earlier lessons (groupsim help terms): \(others.map(\.name).joined(separator: ", "))",
                indent: ""), to: 1)
        }
        if !lines.isEmpty { lines.append("") }
        return lines
    }

    /// The rules `text` cites, as the commands that print them: `groupsim help M12`.
    static func ruleLines(_ lesson: Lesson, citedIn text: String) -> [String] {
        let cited = RuleReference.rulesInOrder(in: text).map(\.rawValue)
        guard let first = cited.first else { return [] }
        return wrapped("Read a rule: groupsim help \(first)" + (cited.count > 1 ? " (cited here: \(cited.joined(separator: ", ")))" : ""),
            indent: "", continuation: "   ")
    }

    /// The scenario file's name, without the folder it was read from.
    static func fileName(_ report: RunReport) -> String {
        let file = report.outcome.scenario.file
        return file.split(separator: "/").last.map(String.init) ?? file
    }

    /// Every step of both runs, every device's view after each, every pitfall in full.
    static func renderFull(_ lesson: Lesson, broken: RunReport, fixed: RunReport) -> String {
        var body: [String] = []
        body += wrapped("1. The broken design (\(fileName(broken))): \(lesson.breakage).", indent: "", continuation: "   ")
        body += about(broken.outcome.scenario)
        body.append("")
        body.append("2. Step by step")
        body += steps(broken)
        body.append("")
        body.append("   The transcripts at the end, side by side:")
        body += transcripts(broken.outcome)
        body.append("")
        body.append("3. What went wrong")
        body += wentWrong(broken)
        body.append("")
        body.append("4. The fixed design (\(fileName(fixed)))")
        body += about(fixed.outcome.scenario)
        body.append("")
        body.append("5. The fixed design step by step")
        body += steps(fixed)
        body.append("")
        body.append("   The transcripts at the end, side by side:")
        body += transcripts(fixed.outcome)
        for record in fixed.outcome.cloud {
            body += wrapped("the store's \(record.key) record (v\(record.version)): \(record.state)", indent: "     ")
        }
        if fixed.outcome.cloudConflicts > 0 {
            body += wrapped("the store refused \(Plural.count(fixed.outcome.cloudConflicts, "conditional write")) and sent back its "
                + "record each time; the app re-applied its change and saved again (M13)", indent: "     ")
        }
        body.append("")
        body += checkLines(fixed)
        if !fixed.pitfalls.isEmpty {
            body.append("   Pitfalls still found:")
            for pitfall in fixed.pitfalls { body += wrapped("\(pitfall.kind.rawValue) (\(pitfall.rule)): \(pitfall.summary)",
                indent: "     - ") }
        } else {
            body.append("   The fixed design reports no pitfall.")
        }
        body.append("")
        body += wrapped("Why it works: \(lesson.whyFixed)", indent: "   ")
        body.append("")
        let verdict = broken.passed && fixed.passed
            ? "Both designs behaved as their checks say."
            : "warning: a check did not hold (\(broken.passed ? "fixed" : "broken") design); see above."
        body.append(verdict)
        var lines = heading(lesson) + termLines(lesson, using: body.joined(separator: "\n"))
        lines += body
        lines += ruleLines(lesson, citedIn: lines.joined(separator: "\n"))
        lines.append("traces: broken \(broken.digest.prefix(16))…, fixed \(fixed.digest.prefix(16))…")
        lines.append(nextLine(lesson))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The final transcripts side by side, at most three devices to a table so that a
    /// line stays within `width` columns as far as the texts allow.
    static func transcripts(_ outcome: RunOutcome) -> [String] {
        var lines: [String] = []
        var start = 0
        while start < outcome.devices.count {
            var part = outcome
            part.devices = Array(outcome.devices[start..<min(start + 3, outcome.devices.count)])
            if start > 0 { lines.append("") }
            lines += SideBySideReport.transcriptColumns(part).map { "  " + $0 }
            start += 3
        }
        return lines
    }

    static func about(_ scenario: Scenario) -> [String] {
        guard let about = scenario.about?.trimmingTrailingNewlines, !about.isEmpty else { return ["   (no description)"] }
        return about.split(separator: "\n", omittingEmptySubsequences: false).map { "   " + $0 }
    }

    // MARK: - Step by step

    /// The trace cut at each step: the step, what happened until the next one, and what
    /// every device shows then.
    static func steps(_ report: RunReport) -> [String] {
        let outcome = report.outcome
        let events = outcome.trace.events
        let flow = MessageFlow(trace: outcome.trace)
        let history = ViewHistory(outcome: outcome)
        let starts = events.indices.filter { if case .step = events[$0].kind { return true } else { return false } }
        guard !starts.isEmpty else { return ["   (no steps)"] }
        var lines: [String] = []
        for (position, start) in starts.enumerated() {
            let end = position + 1 < starts.count ? starts[position + 1] : events.count
            guard case .step(let number, let action) = events[start].kind else { continue }
            lines.append("")
            lines.append("   \(events[start].time)  step \(number): \(events[start].subject) \(described(action))")
            let device = events[start].subject
            if case .tap(let session) = action, opensApp(events, from: start, to: end, in: outcome.scenario),
               let live = history.live(on: device, session: session, before: start + 1) {
                lines += wrapped("\(pad(events[start].time.description, 6)) \(device)'s app opens on the tapped bubble: selectedMessage "
                    + "is m\(live.message) (M21)",
                                 indent: "     ", continuation: String(repeating: " ", count: 12))
            }
            for index in (start + 1)..<end {
                if let line = narrated(events[index], at: index, in: outcome, flow: flow, step: action) {
                    lines += wrapped("\(pad(events[index].time.description, 6)) \(line)", indent: "     ",
                        continuation: String(repeating: " ", count: 12))
                }
            }
            if history.changes.contains(where: { $0.traceIndex > start && $0.traceIndex < end }) {
                lines.append("     now:")
                lines += nowShowing(report, history: history, flow: flow, before: end).map { "  " + $0 }
            } else {
                lines.append("     now: no screen changed")
            }
        }
        return lines
    }

    /// Whether the step at `start` opened the app: only iOS with the app runs the extension;
    /// a tap on a Mac opens the URL in the browser or fails, and selects nothing (M25, M27).
    static func opensApp(_ events: [Simulation.Trace.Event], from start: Int, to end: Int, in scenario: Scenario) -> Bool {
        let device = events[start].subject
        guard let spec = scenario.device(device), spec.runsApp, spec.platform == .ios else { return false }
        return !events[(start + 1)..<end].contains { event in
            if case .failed = event.kind, event.subject == device { return true }
            return false
        }
    }

    /// `reply poll` with what the step writes: `reply poll (data bob=tomatoes)`.
    static func described(_ action: Scenario.Action) -> String {
        let data = action.compose?.data.map { "\($0.key)=\($0.value.count > 40 ? String($0.value.prefix(37)) + "…" : $0.value)" } ?? []
        return data.isEmpty ? action.summary : "\(action.summary) (data \(data.joined(separator: ", ")))"
    }

    /// One event in words, or nil for the ones a learner need not see.
    static func narrated(_ event: Simulation.Trace.Event, at index: Int, in outcome: RunOutcome, flow: MessageFlow, step: Scenario.Action) -> String? {
        let device = event.subject
        switch event.kind {
        case .sent(let message, let session, _):
            guard let session else { return "\(device) sent m\(message)" }
            let shownCaption = caption(message, outcome: outcome, flow: flow).map { ", \"\($0)\"" } ?? ""
            let shownState = state(message, outcome: outcome, flow: flow).map { " \($0)" } ?? ""
            return "\(device) sent m\(message) in \(session)\(shownCaption)\(shownState): it is its live bubble at once (M11)"
        case .delivered(let message, let from):
            return "\(device) received m\(message) from \(from)"
        case .collapsed(_, let replaced, let summary):
            return summary
                ? "   on \(device), m\(replaced) left its place; its summary line stays (M10)"
                : "   on \(device), m\(replaced) left its place and nothing stays: it had no summary text (M10)"
        case .failed(let number, let code, _):
            let reason = outcome.failures.first { $0.step == number && $0.device == device && $0.time == event.time }?.reason
            return "\(device): the step failed with \(code.name)\(reason.map { ": \($0)" } ?? "")"
        case .held(let message):
            return "m\(message) waits for \(device), which is offline (M30)"
        case .queued(let message):
            return "m\(message) waits on \(device) until it is back online (M30)"
        case .reinstalled:
            return "\(device) now has a completely new set of participant identifiers (M2)"
        case .offline:
            return "\(device) is offline: copies for it wait (M30)"
        case .online:
            return "\(device) is back online: its waiting copies arrive in their original order (M30)"
        case .joined(let person):
            return "\(person) joined the conversation"
        case .left(let person):
            return "\(person) left the conversation"
        case .droppedURL:
            return nil  // the dropped-url pitfall seen at the same instant says it, with the rule
        case .pitfall(let kind, let detail):
            return "! \(kind.rawValue): \(detail)"
        case .staged(let session):
            guard case .insert = step else { return nil }
            return "\(device)'s app put a staged draft\(session.map { " of \($0)" } ?? "") in the input field; nothing is sent until Send "
                + "is tapped (M16)"
        case .cancelled:
            return "\(device) removed the draft (M17)"
        case .cloudRequest(let operation, let key):
            return cloudRequest(operation, key: key, device: device, mode: outcome.scenario.app.state)
        case .cloudHandled(let handling, let key, let sender, let version):
            return cloudHandled(handling, key: key, device: sender, version: version)
        case .cloudAnswer(let answer, let key, let version):
            return cloudAnswer(answer, key: key, version: version, device: device)
        case .note(let note):
            return "\(device): \(note.text)"
        case .step, .callback:
            return nil
        }
    }

    /// A device's request to the cloud store in words (M13).
    static func cloudRequest(_ operation: Simulation.Trace.Event.CloudOperation, key: String, device: String, mode: Scenario.AppSpec.StateMode) -> String {
        switch operation {
        case .fetch:
            return "\(device)'s app asks the store for \(key) (M13)"
        case .store:
            switch mode {
            case .cloudMerge: return "\(device)'s app sends only its changed keys of \(key) for the store to merge (M13)"
            case .cloudCAS: return "\(device)'s app writes its \(key) map back, only if the record is still at the version it read (M13)"
            case .message, .cloudOverwrite: return "\(device)'s app writes its whole \(key) map back to the store (M13)"
            }
        }
    }

    /// What the store did with `device`'s request in words (M13).
    static func cloudHandled(_ handling: Simulation.Trace.Event.CloudHandling, key: String, device: String, version: Int) -> String {
        switch handling {
        case .store:
            "the store saves \(device)'s write of \(key) as v\(version)"
        case .refusedStore:
            "the store refuses \(device)'s write of \(key): the record is already at v\(version), not the version it read (M13)"
        case .fetch:
            "the store answers \(device)'s fetch of \(key) with v\(version)"
        }
    }

    /// The store's answer reaching `device` in words (M13).
    static func cloudAnswer(_ answer: Simulation.Trace.Event.CloudAnswer, key: String, version: Int, device: String) -> String {
        switch answer {
        case .conflict:
            "\(device) gets a conflict and the store's current \(key) v\(version): its app re-applies its change and writes again (M13)"
        case .fetched, .stored:
            "\(device) gets the store's answer (\(answer.rawValue) \(key) v\(version))"
        }
    }

    /// What every device that draws bubbles shows for each session just before trace
    /// position `before`.
    static func nowShowing(_ report: RunReport, history: ViewHistory, flow: MessageFlow, before: Int, grouped: Bool = false) -> [String] {
        rows(report, history: history, flow: flow, before: before, grouped: grouped).lines
    }

    /// What every device shows when they all show the same, else nil.
    static func nowShowing(_ report: RunReport, history: ViewHistory, flow: MessageFlow, before: Int, grouped: Bool,
                           sameEverywhere: Bool) -> String? {
        let rows = rows(report, history: history, flow: flow, before: before, grouped: true).rows
        return rows.count == 1 ? rows.first?.shown : nil
    }

    static func rows(_ report: RunReport, history: ViewHistory, flow: MessageFlow, before: Int,
                     grouped: Bool) -> (lines: [String], rows: [(devices: [String], shown: String)]) {
        let outcome = report.outcome
        var rows: [(devices: [String], shown: String)] = []
        for device in history.devices {
            var parts: [String] = []
            for session in history.sessions {
                guard let live = history.live(on: device, session: session, before: before) else { continue }
                let sender = outcome.scenario.device(flow.send(of: live.message)?.device ?? "")?.person
                let who = sender.flatMap { outcome.scenario.person($0)?.contactName } ?? live.from
                var text = "\(session): m\(live.message) from \(who)"
                if let caption = caption(live.message, outcome: outcome, flow: flow) { text += " \"\(caption)\"" }
                if let state = state(live.message, outcome: outcome, flow: flow) { text += " \(state)" }
                parts.append(text)
            }
            let shown = parts.isEmpty ? "nothing yet" : parts.joined(separator: "; ")
            if grouped, let index = rows.firstIndex(where: { $0.shown == shown }) {
                rows[index].devices.append(device)
            } else {
                rows.append(([device], shown))
            }
        }
        let names = rows.map { $0.devices.joined(separator: ", ") }
        let nameWidth = names.map(\.count).max() ?? 0
        var lines: [String] = []
        for (name, row) in zip(names, rows) {
            // Names too wide for a column go on a line of their own.
            if nameWidth > 30 {
                lines += wrapped("\(name):", indent: "     ")
                lines += wrapped(row.shown, indent: "       ")
            } else {
                lines += wrapped("\(name)\(String(repeating: " ", count: nameWidth - name.count))  \(row.shown)", indent: "     ",
                    continuation: String(repeating: " ", count: nameWidth + 7))
            }
        }
        return (lines, rows)
    }

    /// A message's caption as drawn: from a final transcript that still shows its bubble,
    /// else as written in the step that sent it, with `$me`/`$name` drawn as names (M5).
    static func caption(_ message: Int, outcome: RunOutcome, flow: MessageFlow) -> String? {
        for device in outcome.devices {
            for conversation in device.transcripts {
                if let entry = conversation.entries.first(where: { $0.kind == .bubble && $0.message == message }) { return entry.text }
            }
        }
        guard let send = flow.send(of: message), let number = send.step,
            outcome.scenario.steps.indices.contains(number - 1) else { return nil }
        return outcome.scenario.steps[number - 1].action.compose?.caption.map {
            drawnTokens($0, sender: outcome.scenario.device(send.device)?.person, scenario: outcome.scenario)
        }
    }

    /// The state a message's URL carries (`{bob: tomatoes, q: topping}`), or a note that
    /// it points at the store (cloud modes, M13).
    static func state(_ message: Int, outcome: RunOutcome, flow: MessageFlow) -> String? {
        guard let send = flow.send(of: message), send.session != nil else { return nil }
        let map = StateMap(url: send.url)
        if outcome.scenario.app.state != .message, let token = map[outcome.scenario.app.recordKey] { return "(token for the store's \(token) record)" }
        if send.url == nil { return "(no URL: no state)" }
        let text = map.description
        return text.count > 80 ? String(text.prefix(77)) + "…}" : text
    }

    /// `$me picked` → `Bob picked`: scenario tokens drawn as contact names.
    static func drawnTokens(_ text: String, sender: String?, scenario: Scenario) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            guard text[index] == "$" else {
                result.append(text[index])
                index = text.index(after: index)
                continue
            }
            let start = text.index(after: index)
            let end = text[start...].firstIndex { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") } ?? text.endIndex
            let word = String(text[start..<end])
            let person = word == "me" ? sender : word
            if let person, let contact = scenario.person(person)?.contactName {
                result += contact
            } else {
                result += "$" + word
            }
            index = end
        }
        return result
    }

    // MARK: - What went wrong

    static func wentWrong(_ report: RunReport) -> [String] {
        var lines: [String] = []
        if report.pitfalls.isEmpty { lines += wrapped(noPitfallSentence(report), indent: "   ") }
        for (index, pitfall) in report.pitfalls.enumerated() {
            lines.append("")
            lines += wrapped("\(pitfall.kind.rawValue) (\(pitfall.rule)): \(pitfall.summary)", indent: "   - ", continuation: "     ")
            // A why and a fix told for an earlier pitfall of the kind, but for the device, are not told again.
            let earlier = report.pitfalls[..<index].first { $0.kind == pitfall.kind }
            if let earlier, let was = earlier.devices.first, let now = pitfall.devices.first,
               earlier.explanation.replacingOccurrences(of: was, with: now) == pitfall.explanation {
                lines += wrapped("Why and fix: as for \(was) above, on \(now).", indent: "     ")
                continue
            }
            lines += wrapped("Why: \(pitfall.explanation)", indent: "     ")
            lines += wrapped("Fix: \(pitfall.fix)", indent: "     ")
        }
        // A parting a divergence pitfall already told ("Where it started") is not told again.
        let partings = SideBySideReport.partings(report, ViewHistory(outcome: report.outcome)).filter { parting in
            !report.pitfalls.contains { $0.explanation.contains(parting.description) }
        }
        if !partings.isEmpty {
            lines.append("")
            lines.append("   Where the devices' views parted:")
            for parting in partings { lines += wrapped(parting.description, indent: "   - ", continuation: "     ") }
        }
        lines.append("")
        lines += checkLines(report)
        return lines
    }

    /// The run's checks, each wrapped, or with `oneLineEach` each cut to one line.
    static func checkLines(_ report: RunReport, oneLineEach: Bool = false) -> [String] {
        guard !report.checks.isEmpty else { return ["   (no checks)"] }
        var lines = ["   Checks that prove it:"]
        for check in report.checks {
            let text = wrapped("\(check.passed ? "PASS" : "FAIL")  \(check.text)", indent: "     ", continuation: "           ")
            lines += oneLineEach ? clipped(text, to: 1) : text
        }
        return lines
    }

    // MARK: - Layout

    /// Wraps at 96 columns: the first line starts with `indent`, the others with
    /// `continuation` (default: spaces as wide as `indent`).
    static func wrapped(_ text: String, indent: String, continuation: String? = nil) -> [String] {
        let rest = continuation ?? String(repeating: " ", count: indent.count)
        var lines: [String] = []
        var line = indent
        var lineHasWord = false
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if lineHasWord, line.count + 1 + word.count > width - 2 {
                lines.append(line)
                line = rest + word
            } else {
                line += (lineHasWord ? " " : "") + word
            }
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
