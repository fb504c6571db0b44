import GroupSimCore
import GroupSimSimulation
import GroupSimChecking

/// `--format sides`: what each user saw, device next to device.
///
/// Three parts: every device's final transcript in its own column (bubbles with their
/// caption and state, summary lines as `· text`; M10, M14); for each session, a table
/// of the live bubble every device showed over time, one row per instant at which some
/// device's bubble changed (`> m3 sent`, `> m2 from bob-phone`; M11); and, for every
/// divergence pitfall, where two devices' views parted (M12). Built from the report
/// alone; output is deterministic.
package enum SideBySideReport {
    /// Widest a transcript column gets; longer text wraps.
    package static let columnWidth = 30

    package static func render(_ report: RunReport) -> String {
        let outcome = report.outcome
        var lines: [String] = ["\(outcome.scenario.name) (seed \(outcome.seed)): what each user saw", ""]
        lines.append("Final transcripts, side by side")
        lines += transcriptColumns(outcome)
        let history = ViewHistory(outcome: outcome)
        for session in history.sessions {
            lines.append("")
            lines.append("The live bubble of \(session) over time (> marks a change)")
            lines += liveTable(session, history)
        }
        let partings = partings(report, history)
        if !partings.isEmpty {
            lines.append("")
            lines.append("Where the views parted (M12)")
            for parting in partings {
                lines += wrap(parting.description, width: 100).enumerated().map { ($0.offset == 0 ? "  - " : "    ") + $0.element }
            }
        }
        if let footnote = RuleReference.footnote(for: lines.joined(separator: "\n")) {
            lines.append("")
            lines.append(footnote)
        }
        lines.append("")
        lines.append("trace: \(report.digest)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The partings of every divergence pitfall's session, in pitfall order.
    package static func partings(_ report: RunReport, _ history: ViewHistory) -> [ViewParting] {
        report.pitfalls.filter { $0.kind == .divergence }.flatMap { pitfall -> [ViewParting] in
            guard let session = pitfall.session else { return [] }
            return history.partings(session: session, among: pitfall.devices)
        }
    }

    // MARK: - Transcripts

    static func transcriptColumns(_ outcome: RunOutcome) -> [String] {
        let several = outcome.scenario.conversations.count > 1
        var columns: [(title: String, lines: [String])] = []
        for device in outcome.devices {
            let contact = outcome.scenario.person(device.person)?.contactName ?? device.person
            var cells: [String] = []
            for conversation in device.transcripts {
                if several { cells.append("[\(conversation.conversation)]") }
                if conversation.entries.isEmpty { cells.append("(empty)") }
                for entry in conversation.entries { cells += cellLines(entry) }
            }
            columns.append(("\(device.name) (\(contact))", cells))
        }
        let widths = columns.map { column in
            max(column.title.count, min(columnWidth, column.lines.map(\.count).max() ?? 0))
        }
        let wrapped = zip(columns, widths).map { column, width in column.lines.flatMap { wrap($0, width: width) } }
        var lines = [trimmed("  " + zip(columns, widths).map { pad($0.title, $1) }.joined(separator: " | "))]
        lines.append("  " + widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-"))
        let height = wrapped.map(\.count).max() ?? 0
        for row in 0..<height {
            let cells = zip(wrapped, widths).map { column, width in pad(row < column.count ? column[row] : "", width) }
            lines.append(trimmed("  " + cells.joined(separator: " | ")))
        }
        return lines
    }

    /// One transcript entry as lines of a column: `[m2 Bob] caption`, its state, `· summary`.
    static func cellLines(_ entry: DeviceSnapshot.DrawnEntry) -> [String] {
        switch entry.kind {
        case .bubble:
            var cells = ["[m\(entry.message) \(entry.senderName)] \(entry.text ?? "(no caption)")"]
            if let subcaption = entry.subcaption { cells.append("  " + subcaption) }
            if let state = entry.state, !state.isEmpty {
                cells.append("  \(state)")
            } else if let url = entry.url {
                cells.append("  url=\(url)")
            }
            return cells
        case .summary:
            return ["· \(entry.text ?? "")"]
        case .text:
            return ["m\(entry.message) \(entry.senderName): \(entry.text ?? "")"]
        case .sticker:
            return ["[sticker m\(entry.message) \(entry.senderName)] \(entry.text ?? "")"]
        case .plain:
            return ["m\(entry.message) \(entry.senderName): \(entry.text ?? "")"]
        }
    }

    // MARK: - Live bubbles over time

    static func liveTable(_ session: String, _ history: ViewHistory) -> [String] {
        let devices = history.devices
        var current: [String: Int] = [:]
        var rows: [[String]] = []
        for instant in history.instants(of: session) {
            var row = ["\(instant.time)"]
            for device in devices {
                let now = instant.changes.filter { $0.device == device }
                if let last = now.last {
                    let messages = now.map { "m\($0.message)" }.joined(separator: ", ")
                    let how = last.wasSent ? "sent" : "from \(last.from)"
                    row.append("> \(messages) \(how)")
                    current[device] = last.message
                } else {
                    row.append(current[device].map { "  m\($0)" } ?? "  -")
                }
            }
            rows.append(row)
        }
        let header = ["time"] + devices
        let widths = header.indices.map { column in ([header[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0 }
        var lines = [trimmed("  " + zip(header, widths).map { pad($0, $1) }.joined(separator: "  "))]
        for row in rows {
            lines.append(trimmed("  " + zip(row, widths).enumerated().map { $0.offset == 0 ? pad($0.element.0, $0.element.1,
                right: true) : pad($0.element.0, $0.element.1) }.joined(separator: "  ")))
        }
        return lines
    }

    // MARK: - Text layout

    /// Splits `text` into lines of at most `width` characters, at spaces where it can.
    static func wrap(_ text: String, width: Int) -> [String] {
        guard text.count > width, width > 0 else { return [text] }
        var lines: [String] = []
        var line = ""
        let indent = String(text.prefix { $0 == " " })
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = Substring(word)
            while word.count > width - indent.count, width > indent.count {
                if !line.isEmpty { lines.append(line); line = "" }
                let cut = word.index(word.startIndex, offsetBy: width - indent.count)
                lines.append(indent + word[..<cut])
                word = word[cut...]
            }
            if line.isEmpty {
                line = indent + word
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = indent + word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }

    static func trimmed(_ line: String) -> String {
        var line = line
        while line.hasSuffix(" ") { line.removeLast() }
        return line
    }
}
