import GroupSimCore
import GroupSimScenario
import GroupSimChecking

/// The one-screen lesson (`groupsim lessons NAME`): at most `shortLimit` lines of at most
/// `width` columns, and no explanation said twice. What does not fit (each pitfall's
/// why, every check in full, every step's screens) is in `--full`.
extension LessonNarration {
    static func renderShort(_ lesson: Lesson, broken: RunReport, fixed: RunReport) -> String {
        // The fullest telling that fits: each level leaves out a little more, all of it in --full.
        var text = ""
        for level in Compaction.allCases {
            text = renderShort(lesson, broken: broken, fixed: fixed, compaction: level)
            if text.split(separator: "\n", omittingEmptySubsequences: false).count - 1 <= shortLimit { break }
        }
        return text
    }

    /// What the one-screen lesson leaves out to fit, from nothing to the most.
    enum Compaction: Int, CaseIterable, Comparable {
        case none, noEarlierTerms, onePitfallLine, shortFixes, onlyPrimaryFix
        static func < (left: Self, right: Self) -> Bool { left.rawValue < right.rawValue }
    }

    static func renderShort(_ lesson: Lesson, broken: RunReport, fixed: RunReport, compaction: Compaction) -> String {
        var body: [String] = []
        body.append("1. The broken design (\(fileName(broken)))")
        body += about(broken.outcome.scenario)
        body.append("")
        body.append("2. What happens")
        body += shortTimeline(broken)
        body += endShowing(broken)
        body.append("")
        body.append("3. What went wrong")
        body += pitfallsOnce(broken, lesson: lesson, compaction: compaction)
        body.append("")
        body.append("4. The fix (\(fileName(fixed)))")
        body += about(fixed.outcome.scenario)
        if fixed.outcome.cloudConflicts > 0 {
            let count = fixed.outcome.cloudConflicts
            let refused = Plural.count(count, "conditional write")
            body += wrapped("The race cost \(count) retr\(count == 1 ? "y" : "ies"): the store refused \(refused) and sent back its "
                + "record, and the app saved again (M13).", indent: "   ")
        }
        body += packedCheckLines(fixed)
        if !fixed.pitfalls.isEmpty {
            body += wrapped("Pitfalls still found: \(fixed.pitfalls.map { "\($0.kind.rawValue) (\($0.rule))" }.joined(separator: ", "))",
                indent: "   ")
        }
        body.append("")
        if !(broken.passed && fixed.passed) {
            body += wrapped("warning: a check did not hold (\(broken.passed ? "fixed" : "broken") design); see groupsim lessons "
                + "\(lesson.name) --full", indent: "")
        }
        var lines = heading(lesson) + termLines(lesson, using: body.joined(separator: "\n"),
                                                earlier: compaction < .noEarlierTerms)
        lines += body
        // The command for everything else and the rules.
        let cited = RuleReference.rulesInOrder(in: lines.joined(separator: "\n")).map(\.rawValue)
        var more = "More: groupsim lessons \(lesson.name) --full"
        if let first = cited.first {
            more += "; rules: groupsim help \(first)" + (cited.count > 1 ? " (and \(cited.dropFirst().joined(separator: ", ")))" : "")
        }
        lines += wrapped(more, indent: "", continuation: "   ")
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
            if case .tap(let session) = action, opensApp(events, from: start, to: end, in: outcome.scenario),
               let live = history.live(on: device, session: session, before: start + 1) {
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
                    results.append("a staged draft in the input field (M16)")
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

    /// Every device's live bubbles at the end, devices that show the same on one line,
    /// and the store's records.
    static func endShowing(_ report: RunReport) -> [String] {
        let outcome = report.outcome
        let history = ViewHistory(outcome: outcome)
        let flow = MessageFlow(trace: outcome.trace)
        var lines = nowShowing(report, history: history, flow: flow, before: outcome.trace.events.count, grouped: true)
        // Every device alike: one sentence instead of a table.
        if history.devices.count > 1, let row = nowShowing(report, history: history, flow: flow, before: outcome.trace.events.count,
                                                            grouped: true, sameEverywhere: true) {
            // Devices that draw no bubble (an old system's plain messages, M26) are not among them.
            let drawing = history.devices.count < outcome.scenario.devices.count ? " that draw bubbles" : ""
            let every = history.devices.count == 2 ? "both devices\(drawing) show" : "all \(history.devices.count) devices\(drawing) show"
            lines = wrapped("At the end \(every) \(row)", indent: "   ")
        } else {
            lines.insert("   At the end:", at: 0)
        }
        for record in outcome.cloud {
            lines += wrapped("the store's \(record.key) record (v\(record.version)): \(record.state)", indent: "     ")
        }
        return lines
    }

    /// Each pitfall's what and where, at most two lines each; the fix said once per
    /// remedy. Why each happened is in `--full`. A run without pitfalls says so and that
    /// its checks describe the breakage.
    static func pitfallsOnce(_ report: RunReport, lesson: Lesson, compaction: Compaction = .none) -> [String] {
        guard !report.pitfalls.isEmpty else {
            return wrapped(noPitfallSentence(report), indent: "   ")
        }
        var lines: [String] = []
        var remedies: [String] = []
        var kinds: [Scenario.PitfallKind] = []
        for pitfall in report.pitfalls where !kinds.contains(pitfall.kind) { kinds.append(pitfall.kind) }
        // The first of each kind in words; the others of that kind by where they happened.
        for kind in kinds {
            let found = report.pitfalls.filter { $0.kind == kind }
            guard let first = found.first else { continue }
            lines += clipped(wrapped("\(first.kind.rawValue) (\(first.rule)): \(first.summary)", indent: "   - ",
                continuation: "     "), to: compaction >= .onePitfallLine ? 1 : 2)
            let others = found.dropFirst()
            if !others.isEmpty {
                var places: [String] = []
                for device in others.flatMap(\.devices) where !places.contains(device) { places.append(device) }
                lines += clipped(wrapped("and \(others.count) more \(kind.rawValue) (on \(places.joined(separator: ", ")))",
                    indent: "     "), to: 1)
            }
        }
        // At the most compact, only the fix of the pitfall the lesson is about (its rule is
        // one the lesson teaches); the others are in --full.
        let primary = report.pitfalls.filter { lesson.rules.contains($0.rule) }
        let fixed = compaction >= .onlyPrimaryFix && !primary.isEmpty ? primary : report.pitfalls
        for pitfall in fixed {
            let remedy = remedy(of: pitfall.fix) ?? pitfall.fix
            guard !remedies.contains(remedy) else { continue }
            remedies.append(remedy)
            let fix = wrapped("Fix\(remedies.count > 1 ? " (\(pitfall.kind.rawValue))" : ""): \(pitfall.fix)", indent: "   ")
            lines += compaction >= .shortFixes ? clipped(fix, to: 2) : fix
        }
        return lines
    }

    /// What a broken design that reports no pitfall says in section 3: no "no pitfall
    /// found" above a passing `no-pitfalls` check without saying why both are true.
    static func noPitfallSentence(_ report: RunReport) -> String {
        let held = report.checks.filter(\.passed).count
        return "No pitfall is reported: Messages did what it always does, and the loss comes from the app's design. "
            + "\(held == report.checks.count ? "All \(held)" : "\(held) of \(report.checks.count)") of its checks hold because "
            + "they describe what it does (see --full)."
    }

    /// The checks, one line each, two short ones sharing a line.
    static func packedCheckLines(_ report: RunReport) -> [String] {
        let cut = checkLines(report, oneLineEach: true)
        guard let header = cut.first else { return [] }
        var lines = [header]
        for line in cut.dropFirst() {
            let text = line.drop { $0 == " " }
            if let last = lines.last, lines.count > 1, last.count + 5 + text.count <= width - 4, !last.hasSuffix("…"),
               !text.hasSuffix("…") {
                lines[lines.count - 1] = last + "     " + text
            } else {
                lines.append(line)
            }
        }
        return lines
    }

    /// `lines` cut to `limit`, the last one ending in `…` when something was cut.
    static func clipped(_ lines: [String], to limit: Int) -> [String] {
        guard lines.count > limit, limit > 0 else { return lines }
        var kept = Array(lines.prefix(limit))
        let last = kept[limit - 1]
        kept[limit - 1] = (last.count > width - 2 ? String(last.prefix(width - 2)) : last) + " …"
        return kept
    }

    /// The first option a fix names (`` `app.state: cloud-merge` ``), if any.
    static func remedy(of fix: String) -> String? {
        guard let open = fix.firstIndex(of: "`") else { return nil }
        let rest = fix[fix.index(after: open)...]
        guard let close = rest.firstIndex(of: "`") else { return nil }
        return "`" + rest[..<close] + "`"
    }
}
