import GroupSimCore
import GroupSimScenario
import GroupSimChecking

/// The one-screen lesson (`groupsim lessons NAME`): at most `shortLimit` lines, and no
/// explanation said twice.
extension LessonNarration {
    static func renderShort(_ lesson: Lesson, broken: RunReport, fixed: RunReport) -> String {
        var lines = heading(lesson)
        lines.append("1. The setting (\(broken.outcome.scenario.file))")
        lines += about(broken.outcome.scenario)
        lines.append("")
        lines.append("2. What happens")
        lines += shortTimeline(broken)
        lines.append("   What each device shows at the end:")
        lines += endShowing(broken)
        lines.append("")
        lines.append("3. What went wrong")
        lines += pitfallsOnce(broken)
        lines.append("")
        lines.append("4. The fix (\(fixed.outcome.scenario.file))")
        lines += about(fixed.outcome.scenario)
        if fixed.outcome.cloudConflicts > 0 {
            let count = fixed.outcome.cloudConflicts
            lines.append("   The race cost \(count) retr\(count == 1 ? "y" : "ies"): the store refused "
                + "\(Plural.count(count, "conditional write")) (M13).")
        }
        lines += checkLines(fixed)
        if !fixed.pitfalls.isEmpty {
            lines += wrapped("Pitfalls still found: \(fixed.pitfalls.map { "\($0.kind.rawValue) (\($0.rule))" }.joined(separator: ", "))",
                indent: "   ")
        }
        lines.append("")
        if broken.passed && fixed.passed {
            lines.append("Both designs behaved as their checks say. Every step in detail: groupsim lessons \(lesson.name) --full")
        } else {
            lines.append("warning: a check did not hold (\(broken.passed ? "fixed" : "broken") design); see groupsim lessons "
                + "\(lesson.name) --full")
        }
        if let footnote = RuleReference.compactFootnote(for: lines.joined(separator: "\n")) { lines.append(footnote) }
        lines.append(nextLine(lesson))
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line per step: when, where, what, and what came of it; plus the store's
    /// refusals of conditional writes, the moments a compare-and-set race shows (M13).
    static func shortTimeline(_ report: RunReport) -> [String] {
        let outcome = report.outcome
        let events = outcome.trace.events
        let history = ViewHistory(outcome: outcome)
        let flow = MessageFlow(trace: outcome.trace)
        let starts = events.indices.filter { if case .step = events[$0].kind { return true } else { return false } }
        guard !starts.isEmpty else { return ["   (no steps)"] }
        let deviceWidth = outcome.scenario.devices.map(\.name.count).max() ?? 0
        var lines: [String] = []
        for (position, start) in starts.enumerated() {
            let end = position + 1 < starts.count ? starts[position + 1] : events.count
            guard case .step(let number, let action) = events[start].kind else { continue }
            let device = events[start].subject
            var results: [String] = []
            var refusals: [String] = []
            if case .tap(let session) = action, let live = history.live(on: device, session: session, before: start + 1) {
                results.append("selectedMessage is m\(live.message) (M21)")
            }
            for index in (start + 1)..<end {
                let event = events[index]
                if case .cloudHandled(.refusedStore, let key, let sender, let version) = event.kind {
                    refusals.append("\(pad(event.time.description, 6))  " + cloudHandled(.refusedStore, key: key, device: sender,
                        version: version))
                }
                guard event.subject == device else { continue }
                switch event.kind {
                case .failed(_, let code, _):
                    results.append("failed with \(code.name)")
                case .pitfall(let kind, _):
                    results.append("! \(kind.rawValue)")
                case .reinstalled:
                    results.append("a whole new identifier set (M2)")
                case .staged:
                    guard case .insert = action else { break }
                    results.append("staged in the input field (M16)")
                default:
                    break
                }
            }
            // A cloud mode sends after the store answered, when the next step may have begun.
            if let send = flow.sends.first(where: { $0.step == number && $0.device == device }) {
                results.insert(send.time == events[start].time ? "sent m\(send.message)" : "sent m\(send.message) at \(send.time)", at: 0)
            }
            let name = device + String(repeating: " ", count: max(0, deviceWidth - device.count))
            var line = "\(pad(events[start].time.description, 6))  \(name)  \(described(action))"
            if !results.isEmpty { line += ": " + results.joined(separator: ", ") }
            lines += wrapped(line, indent: "   ", continuation: String(repeating: " ", count: 11))
            for refusal in refusals { lines += wrapped(refusal, indent: "   ", continuation: String(repeating: " ", count: 11)) }
        }
        return lines
    }

    /// Every device's live bubbles at the end, and the store's records.
    static func endShowing(_ report: RunReport) -> [String] {
        let outcome = report.outcome
        let history = ViewHistory(outcome: outcome)
        let flow = MessageFlow(trace: outcome.trace)
        var lines = nowShowing(report, history: history, flow: flow, before: outcome.trace.events.count)
        for record in outcome.cloud {
            lines += wrapped("the store's \(record.key) record (v\(record.version)): \(record.state)", indent: "     ")
        }
        if outcome.cloudConflicts > 0 {
            lines += wrapped("the store refused \(outcome.cloudConflicts) conditional write(s), each retried (M13)", indent: "     ")
        }
        return lines
    }

    /// Each pitfall's what and where; its kind's why, rule and fix said once, after the
    /// first of that kind. A run without pitfalls shows its checks instead.
    static func pitfallsOnce(_ report: RunReport) -> [String] {
        guard !report.pitfalls.isEmpty else {
            return ["   No pitfall was detected; the checks show what went wrong:"] + checkLines(report).dropFirst()
        }
        var lines: [String] = []
        var kinds: [PitfallKind] = []
        var remedies: [String] = []
        for pitfall in report.pitfalls where !kinds.contains(pitfall.kind) { kinds.append(pitfall.kind) }
        for kind in kinds {
            let found = report.pitfalls.filter { $0.kind == kind }
            for pitfall in found {
                lines += wrapped("\(pitfall.kind.rawValue) (\(pitfall.rule)): \(pitfall.summary)", indent: "   - ", continuation: "     ")
            }
            guard let first = found.first else { continue }
            lines += wrapped("Why: \(first.explanation)", indent: "     ")
            // Kinds with one remedy (lost update and divergence: the same store) say it once.
            if let remedy = remedy(of: first.fix), remedies.contains(remedy) {
                lines += wrapped("Fix: the same change as above (\(remedy)).", indent: "     ")
            } else {
                lines += wrapped("Fix: \(first.fix)", indent: "     ")
            }
            if let remedy = remedy(of: first.fix) { remedies.append(remedy) }
        }
        return lines
    }

    /// The first option a fix names (`` `app.state: cloud-merge` ``), if any.
    static func remedy(of fix: String) -> String? {
        guard let open = fix.firstIndex(of: "`") else { return nil }
        let rest = fix[fix.index(after: open)...]
        guard let close = rest.firstIndex(of: "`") else { return nil }
        return "`" + rest[..<close] + "`"
    }
}
