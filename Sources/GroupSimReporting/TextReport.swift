import GroupSimCore
import GroupSimSimulation
import GroupSimChecking

/// The plain-text report `groupsim run` prints: the timeline, each device's final
/// transcript, every check with its result, the pitfalls with their explanations, and
/// the `trace:` digest line.
public enum TextReport {
    public struct Options: Sendable {
        /// Print the callback events in the timeline (they are always in the trace).
        public var showCallbacks: Bool
        /// How much to print: everything, or condensed where a section grows long.
        public var detail: Detail
        public init(showCallbacks: Bool = false, detail: Detail = .scaled) {
            self.showCallbacks = showCallbacks
            self.detail = detail
        }
    }

    /// How much of a run the text report prints.
    public enum Detail: Sendable {
        /// Every section in full while it is short; a long timeline, transcript section or
        /// pitfall list is condensed (`TextReport+Condensed.swift`), so a real group's run
        /// fits on a screen or two. The default.
        case scaled
        /// Every event, entry and pitfall, however many.
        case full
        /// One screen: an overview per device and session, the checks, the pitfalls grouped
        /// by kind and session (`run --summary`).
        case summary
    }

    public static func render(_ report: RunReport, options: Options = Options()) -> String {
        if options.detail == .summary { return summary(report) }
        return build(report, options: options, condensed: options.detail == .scaled)
    }

    /// The report; with `condensed`, long sections are shortened (`TextReport+Condensed.swift`).
    static func build(_ report: RunReport, options: Options, condensed: Bool) -> String {
        var lines: [String] = []
        let outcome = report.outcome
        let scenario = outcome.scenario
        lines.append("\(scenario.name) (seed \(outcome.seed))")
        if let about = scenario.about?.trimmingTrailingNewlines, !about.isEmpty {
            lines += about.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        }
        lines.append("")
        lines.append("Timeline")
        let events = timeline(outcome, options: options)
        lines += condensed ? condensedTimeline(events) : events
        lines.append("")
        lines.append("Transcripts")
        let drawn = transcripts(outcome)
        lines += condensed && drawn.count > transcriptLineLimit ? condensedTranscripts(outcome) : drawn
        if !outcome.failures.isEmpty {
            lines.append("")
            lines.append("Failed steps")
            for failure in outcome.failures {
                lines.append("  \(failure.stepText) on \(failure.device) at \(failure.time): "
                    + "\(failure.code.name) (\(failure.code.rawValue)): \(failure.reason)")
            }
        }
        if !outcome.quiet {
            lines.append("")
            lines.append("warning: the run was stopped after \(Simulation.eventLimit) events without going quiet; checks see the state at "
                + "that point")
        }
        lines.append("")
        lines.append("Checks")
        if report.checks.isEmpty && report.unexpectedFailures.isEmpty { lines.append("  (none)") }
        lines += condensed && report.checks.count > checkLimit ? condensedChecks(report) : checkLines(report)
        for failure in report.unexpectedFailures {
            let place = failure.line.map { "line \($0): " } ?? ""
            lines.append("  FAIL  \(failure.text)")
            lines.append("        \(place)\(failure.detail)")
        }
        lines.append("")
        lines.append("Pitfalls")
        if report.pitfalls.isEmpty { lines.append("  none") }
        if condensed && report.pitfalls.count > pitfallLimit {
            lines += groupedPitfalls(report)
        } else {
            for pitfall in report.pitfalls {
                lines.append("  \(pitfall.kind.rawValue) (\(pitfall.rule)): \(pitfall.summary)")
                lines.append("    why: \(pitfall.explanation)")
                lines.append("    fix: \(pitfall.fix)")
            }
        }
        lines.append("")
        let counts = report.checkCounts
        let conflicts = outcome.cloudConflicts > 0
            ? "; \(Plural.count(outcome.cloudConflicts, "cloud write")) refused for a moved version" : ""
        lines.append("\(counts.held) of \(counts.total) checks held; \(Plural.count(report.pitfalls.count, "pitfall")); "
            + "\(Plural.count(outcome.copiesDelivered, "copy", plural: "copies")) delivered\(conflicts); quiet at \(outcome.endTime)")
        lines.append("trace: \(report.digest)")
        return withRuleFootnote(lines).joined(separator: "\n") + "\n"
    }

    /// `lines` with a line before the last two (the totals and the digest) naming where each
    /// rule they cite is written up, when they cite any.
    static func withRuleFootnote(_ lines: [String]) -> [String] {
        guard let footnote = RuleReference.footnote(for: lines.joined(separator: "\n")) else { return lines }
        var result = lines
        result.insert(contentsOf: [footnote, ""], at: max(0, result.count - 2))
        return result
    }

    static func timeline(_ outcome: RunOutcome, options: Options) -> [String] {
        let events = outcome.trace.events.filter { event in
            if case .callback = event.kind { return options.showCallbacks }
            return true
        }
        let timeWidth = events.map(\.time.description.count).max() ?? 3
        let subjectWidth = events.map(\.subject.count).max() ?? 6
        return events.map { event in
            "  " + pad(event.time.description, timeWidth, right: true) + "  " + pad(event.subject, subjectWidth) + "  " + event.printedText
        }
    }

    static func transcripts(_ outcome: RunOutcome) -> [String] {
        var lines: [String] = []
        let several = outcome.scenario.conversations.count > 1
        for device in outcome.devices {
            let contact = outcome.scenario.person(device.person)?.contactName ?? device.person
            var heading = "  \(device.name) (\(contact), \(device.platform.rawValue)"
            if !device.runsApp && device.platform == .ios { heading += ", app missing" }
            if device.generation > 0 { heading += ", reinstalled \(device.generation)x" }
            lines.append(heading + ")")
            for conversation in device.transcripts {
                if several { lines.append("    [\(conversation.conversation)]") }
                if conversation.entries.isEmpty { lines.append("    (empty)") }
                for entry in conversation.entries { lines.append("    " + line(entry)) }
            }
        }
        return lines
    }

    /// `bubble  poll  m3 from Carol: "Carol picked pickles"  {carol: pickles, q: topping}`.
    static func line(_ entry: DeviceSnapshot.DrawnEntry) -> String {
        let session = entry.session.map { " \($0)" } ?? ""
        switch entry.kind {
        case .bubble:
            var text = "bubble \(session)  m\(entry.message) from \(entry.senderName)"
            if let caption = entry.text { text += ": \"\(caption)\"" }
            if let subcaption = entry.subcaption { text += " / \"\(subcaption)\"" }
            if let state = entry.state, !state.isEmpty { text += "  \(state)" } else if let url = entry.url { text += "  url=\(url)" }
            return text
        case .summary:
            return "summary\(session)  m\(entry.message) \"\(entry.text ?? "")\""
        case .text:
            return "text     m\(entry.message) from \(entry.senderName): \"\(entry.text ?? "")\""
        case .sticker:
            return "sticker  m\(entry.message) from \(entry.senderName): \(entry.text ?? "")"
        case .plain:
            return "plain    m\(entry.message) from \(entry.senderName): \(entry.text ?? "")"
        }
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
