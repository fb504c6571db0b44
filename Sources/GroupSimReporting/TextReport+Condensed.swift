import GroupSimCore
import GroupSimScenario
import GroupSimSimulation
import GroupSimChecking

/// The condensed forms of the text report's sections, for runs of a real group: a long
/// timeline shows its start and end, a long transcript section shows each device's live
/// bubbles and how many summary lines it has, many checks print one line each when they
/// hold, and many pitfalls are grouped by kind and session ("lost-update ×12 in poll").
/// Short sections print in full, so small scenarios read the same as before.
extension TextReport {
    /// A timeline longer than this shows its first and last events only.
    static let timelineLimit = 40
    static let timelineHead = 12
    static let timelineTail = 8
    /// A transcript section longer than this (in lines) shows one line per device and session.
    static let transcriptLineLimit = 30
    /// More checks than this print one line each when they hold.
    static let checkLimit = 12
    /// More pitfalls than this are grouped by kind and session.
    static let pitfallLimit = 8

    static func condensedTimeline(_ events: [String]) -> [String] {
        guard events.count > timelineLimit else { return events }
        let hidden = events.count - timelineHead - timelineTail
        return Array(events.prefix(timelineHead))
            + ["  ... \(Plural.count(hidden, "more event")) (`groupsim run FILE --full` prints every one) ..."]
            + Array(events.suffix(timelineTail))
    }

    /// Per device, its heading and one line per session: the live bubble and how many summary
    /// lines stand above it; plus how many plain entries (texts, stickers) it shows.
    static func condensedTranscripts(_ outcome: RunOutcome) -> [String] {
        var lines: [String] = []
        for device in outcome.devices {
            let contact = outcome.scenario.person(device.person)?.contactName ?? device.person
            lines.append("  \(device.name) (\(contact), \(device.platform.rawValue))")
            var sessions: [String] = []
            var summaries: [String: Int] = [:]
            var live: [String: DeviceSnapshot.DrawnEntry] = [:]
            var others = 0
            for conversation in device.transcripts {
                for entry in conversation.entries {
                    guard let session = entry.session, entry.kind == .bubble || entry.kind == .summary else {
                        others += 1
                        continue
                    }
                    if !sessions.contains(session) { sessions.append(session) }
                    if entry.kind == .summary { summaries[session, default: 0] += 1 } else { live[session] = entry }
                }
            }
            for session in sessions {
                var text = "    \(session): "
                if let bubble = live[session] {
                    text += "m\(bubble.message) from \(bubble.senderName)"
                    if let state = bubble.state, !state.isEmpty { text += "  \(state)" }
                } else {
                    text += "no bubble"
                }
                let count = summaries[session] ?? 0
                if count > 0 { text += "  (\(Plural.count(count, "summary line")) above)" }
                lines.append(text)
            }
            if others > 0 { lines.append("    \(Plural.count(others, "other entry", plural: "other entries")) (texts, stickers, plain "
                + "messages)") }
            if sessions.isEmpty && others == 0 { lines.append("    (empty)") }
        }
        return lines
    }

    /// Every check with what was found, two lines each.
    static func checkLines(_ report: RunReport) -> [String] {
        var lines: [String] = []
        for check in report.checks {
            let place = check.spec.location.map { "line \($0.line): " } ?? ""
            lines.append("  \(check.passed ? "PASS" : "FAIL")  \(check.text)")
            lines.append("        \(place)\(check.detail)")
        }
        return lines
    }

    /// Checks that held in one line each; failed ones with what was found.
    static func condensedChecks(_ report: RunReport) -> [String] {
        var lines: [String] = []
        for check in report.checks {
            let place = check.spec.location.map { "  (line \($0.line))" } ?? ""
            lines.append("  \(check.passed ? "PASS" : "FAIL")  \(check.text)\(place)")
            if !check.passed { lines.append("        \(check.detail)") }
        }
        return lines
    }

    /// The pitfalls grouped by kind and session, in order of first report: a count, the
    /// first one's summary, and its explanation and fix (the same for the whole group).
    static func groupedPitfalls(_ report: RunReport) -> [String] {
        struct Group {
            var kind: Scenario.PitfallKind
            var session: String?
            var pitfalls: [Pitfall]
        }
        var groups: [Group] = []
        for pitfall in report.pitfalls {
            if let index = groups.firstIndex(where: { $0.kind == pitfall.kind && $0.session == pitfall.session }) {
                groups[index].pitfalls.append(pitfall)
            } else {
                groups.append(Group(kind: pitfall.kind, session: pitfall.session, pitfalls: [pitfall]))
            }
        }
        var lines: [String] = []
        for group in groups {
            guard let first = group.pitfalls.first else { continue }
            let place = group.session.map { " in \($0)" } ?? ""
            lines.append("  \(group.kind.rawValue) ×\(group.pitfalls.count)\(place) (\(first.rule)), first: \(first.summary)")
            lines.append("    why: \(first.explanation)")
            lines.append("    fix: \(first.fix)")
        }
        return lines
    }

    /// `run --summary`: one screen with the run's size, each device's live bubble per
    /// session, the failed steps, the checks and the pitfalls grouped by kind and session.
    static func summary(_ report: RunReport) -> String {
        let outcome = report.outcome
        let scenario = outcome.scenario
        var lines: [String] = ["\(scenario.name) (seed \(outcome.seed))"]
        let conversations = Plural.count(scenario.conversations.count, "conversation")
        lines.append("  \(Plural.count(scenario.people.count, "person", plural: "people")), "
            + "\(Plural.count(scenario.devices.count, "device")), "
            + "\(conversations); \(Plural.count(scenario.steps.count, "step")), \(outcome.failures.count) failed; "
            + "\(Plural.count(outcome.trace.events.count, "event")) in the trace")
        lines.append("")
        lines.append("What each device shows (live bubble per session)")
        lines += condensedTranscripts(outcome)
        if !outcome.failures.isEmpty {
            lines.append("")
            lines.append("Failed steps")
            for failure in outcome.failures.prefix(5) {
                lines.append("  \(failure.stepText) on \(failure.device) at \(failure.time): "
                    + "\(failure.code.name) (\(failure.code.rawValue)): \(failure.reason)")
            }
            if outcome.failures.count > 5 { lines.append("  ... and \(outcome.failures.count - 5) more") }
        }
        lines.append("")
        lines.append("Checks")
        if report.checks.isEmpty { lines.append("  (none)") }
        lines += condensedChecks(report)
        lines.append("")
        lines.append("Pitfalls")
        if report.pitfalls.isEmpty { lines.append("  none") }
        lines += groupedPitfalls(report)
        lines.append("")
        let held = report.checks.filter(\.passed).count
        lines.append("\(held) of \(report.checks.count) checks held; \(Plural.count(report.pitfalls.count, "pitfall")); "
            + "\(Plural.count(outcome.copiesDelivered, "copy", plural: "copies")) delivered; quiet at \(outcome.endTime)")
        lines.append("trace: \(outcome.digest)")
        return withRuleFootnote(lines).joined(separator: "\n") + "\n"
    }
}
