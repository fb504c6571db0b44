import GroupSimCore
import GroupSimChecking

/// `explore --format html` and `merge --format html`: an exploration on one self-contained
/// page, like `HTMLReport` for a run: no links, nothing fetched (a
/// Content-Security-Policy forbids it), inline CSS and SVG only; its one script is the
/// time slider of an embedded failing run's page, when there is one.
///
/// It shows the failure rate of each check as a bar, the outcome distribution of each
/// device and session as SVG bars, the pitfalls with how many runs reported each, and for
/// each failing outcome (the set of checks a failing run broke) its first seed, the
/// command that replays it and, when the caller supplies them, that run's text report
/// and its HTML page with the time slider.
/// The same inputs always give the same bytes.
package enum ExplorationHTMLReport {
    /// One failing outcome: the checks it broke and its first run.
    package struct FailingOutcome: Sendable {
        /// The checks' one-line texts.
        package var checks: [String]
        package var run: ExplorationReport.RunReference
        /// `groupsim run FILE --seed N`.
        package var replay: String
        /// The replayed run's plain-text report, embedded as text; nil leaves it out.
        package var runReport: String?
        /// The replayed run's HTML page (`HTMLReport`), embedded with its time slider; nil
        /// leaves it out.
        package var runPage: String? = nil
    }

    /// The failing outcomes of `report`: failing runs grouped by the checks they broke, in
    /// order of their first run, each with its replay command (random explorations only;
    /// an exhaustive one replays by order, shown instead).
    package static func failingOutcomes(_ report: ExplorationReport) -> [FailingOutcome] {
        var seen: [[Int]] = []
        var outcomes: [FailingOutcome] = []
        for failure in report.failures where !seen.contains(failure.failedChecks) {
            seen.append(failure.failedChecks)
            let checks = failure.failedChecks.compactMap { report.checks.indices.contains($0) ? report.checks[$0].text : nil }
            let replay: String = switch report.mode {
            case .random: report.replayCommand(seed: failure.reference.seed)
            case .exhaustive: "order: " + failure.schedule.joined(separator: ", ")
            }
            outcomes.append(FailingOutcome(checks: checks, run: failure.reference, replay: replay, runReport: nil))
        }
        return outcomes
    }

    /// The page. `failing` defaults to `failingOutcomes(report)` without run reports.
    package static func render(_ report: ExplorationReport, failing: [FailingOutcome]? = nil) -> String {
        let runs = report.runs
        let unit = if case .random = report.mode { "runs" } else { "orders" }
        // An embedded run page brings the time slider's script, which the policy must name.
        let script = (failing ?? []).contains { $0.runPage != nil } ? HTMLReport.timelineScriptHash : nil
        var html = HTMLReport.pageStart(title: "\(report.scenario) · exploration · GroupSim", style: HTMLReport.style + style,
            script: script)
        html += """
        <header>
        <h1>\(esc(report.scenario)): exploration</h1>

        """
        let what: String = switch report.mode {
        case .random(let seed, _): "\(runs) runs with fresh latency, jitter and race draws (seeds derived from \(seed))"
        case .exhaustive(let seed, _, _): "\(runs) distinct delivery orders (seed \(seed))"
        }
        let verdict = report.passed
            ? "<span class=\"pass\">every check held in every one</span>"
            : "<span class=\"fail\">\(report.failedRuns) of \(runs) \(unit) failed a check</span>"
        html += "<p class=\"meta\">\(esc(report.file)) · \(esc(what)) · \(verdict) · \(report.distinctOutcomes) distinct "
            + "outcome\(report.distinctOutcomes == 1 ? "" : "s")</p>\n"
        if let stop = report.memoryStopDescription {
            html += "<p class=\"fail\">\(esc(stop))</p>\n"
        } else if report.interrupted {
            let planned = report.plannedRuns.map { " of \($0.grouped)" } ?? ""
            html += "<p class=\"fail\">interrupted after \(runs.grouped)\(planned) \(unit): the counts below are of those \(unit)</p>\n"
        }
        html += "</header>\n"
        html += HTMLReport.section("checks", "Checks: \(unit) that failed each", checks(report))
        html += HTMLReport.section("outcomes", "Outcomes per device", outcomes(report))
        html += HTMLReport.section("pitfalls", "Pitfalls: \(unit) that reported each", pitfalls(report))
        html += HTMLReport.section("failing", "Failing outcomes", failingSection(failing ?? failingOutcomes(report)))
        html += "</body>\n</html>\n"
        return html
    }

    static func esc(_ text: String) -> String { Markup.html(text) }

    /// A horizontal bar `count` of `total` wide, with its label, as inline SVG.
    static func bar(_ count: ExactCount, of total: ExactCount, label: String, failing: Bool) -> String {
        let width = 320
        let filled = count.scaled(to: UInt64(width), of: total)
        let tone = failing ? "bar-fail" : "bar-pass"
        return "<svg class=\"bar\" width=\"\(width + 170)\" height=\"18\" role=\"img\" aria-label=\"\(esc(label))\">"
            + "<rect class=\"bar-track\" x=\"0\" y=\"2\" width=\"\(width)\" height=\"14\" rx=\"3\"/>"
            + "<rect class=\"\(tone)\" x=\"0\" y=\"2\" width=\"\(filled)\" height=\"14\" rx=\"3\"/>"
            + "<text x=\"\(width + 8)\" y=\"14\">\(esc(label))</text></svg>"
    }

    static func checks(_ report: ExplorationReport) -> String {
        guard !report.checks.isEmpty else { return "<p class=\"none\">No checks.</p>\n" }
        var html = "<table class=\"explore\">\n<tbody>\n"
        for check in report.checks {
            let label = "\(check.failedRuns) of \(report.runs) (\(ExplorationReport.percent(check.failedRuns, of: report.runs)))"
            let place = check.line.map { "line \($0): " } ?? ""
            html += "<tr><td class=\"\(check.failedRuns.isZero ? "pass" : "fail")\">\(check.failedRuns.isZero ? "PASS" : "FAIL")</td>"
            html += "<td><code>\(esc(place + check.text))</code></td>"
            html += "<td>\(bar(check.failedRuns, of: report.runs, label: label, failing: true))</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    static func outcomes(_ report: ExplorationReport) -> String {
        let rows = report.outcomes.filter { row in row.counts.contains { $0.shown.from != nil } }
        guard !rows.isEmpty else { return "<p class=\"none\">No device shows a bubble of any session.</p>\n" }
        var html = "<p class=\"legend\">The live bubble's sender and the state tapping it would show; message numbers vary by run.</p>\n"
        for row in rows {
            html += "<h3>\(esc(row.device)) · \(esc(row.session))</h3>\n<table class=\"explore outcome\">\n<tbody>\n"
            for count in row.counts {
                let label = "\(ExplorationReport.percent(count.runs, of: report.runs)) (\(count.runs))"
                let state = count.shown.from == nil ? "" : count.shown.state.description
                html += "<tr><td>\(esc(ExplorationTextReport.sender(count.shown)))</td><td><code>\(esc(state))</code></td>"
                html += "<td>\(bar(count.runs, of: report.runs, label: label, failing: false))</td></tr>\n"
            }
            html += "</tbody>\n</table>\n"
        }
        return html
    }

    static func pitfalls(_ report: ExplorationReport) -> String {
        guard !report.pitfalls.isEmpty else { return "<p class=\"none\">None.</p>\n" }
        var html = "<table class=\"explore\">\n<tbody>\n"
        for pitfall in report.pitfalls {
            let label = "\(pitfall.runs) of \(report.runs) (\(ExplorationReport.percent(pitfall.runs, of: report.runs)))"
            html += "<tr><td><code>\(esc(pitfall.kind.rawValue))</code></td>"
            html += "<td>\(esc(pitfall.rule.rawValue)), \(esc(pitfall.rule.path))</td>"
            html += "<td>\(bar(pitfall.runs, of: report.runs, label: label, failing: true))</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    static func failingSection(_ failing: [FailingOutcome]) -> String {
        guard !failing.isEmpty else { return "<p class=\"none\">No run failed a check.</p>\n" }
        var html = ""
        for outcome in failing {
            html += "<div class=\"failing-outcome\">\n"
            html += "<p>failed: \(outcome.checks.map { "<code>\(esc($0))</code>" }.joined(separator: "; ")) · first in run "
                + "#\(outcome.run.run), seed \(outcome.run.seed)</p>\n"
            html += "<pre class=\"replay\">\(esc(outcome.replay))</pre>\n"
            if let text = outcome.runReport {
                html += "<details><summary>the run's report</summary>\n<pre class=\"run-report\">\(esc(text))</pre>\n</details>\n"
            }
            if let page = outcome.runPage {
                html += "<details class=\"run-page\"><summary>the run's page: every device's screen at any event</summary>\n"
                html += "<iframe class=\"run-page\" title=\"the failing run, seed \(outcome.run.seed)\" sandbox=\"allow-scripts\" "
                    + "srcdoc=\"\(esc(page))\"></iframe>\n</details>\n"
            }
            html += "</div>\n"
        }
        return html
    }

    static let style = """

    table.explore { border-collapse: collapse; margin: 4px 0 12px; }
    table.explore td { padding: 3px 10px 3px 0; vertical-align: middle; }
    svg.bar text { font-size: 12px; fill: var(--ink); }
    svg.bar .bar-track { fill: #f1f5f9; }
    svg.bar .bar-fail { fill: #dc2626; }
    svg.bar .bar-pass { fill: #2563eb; }
    .failing-outcome { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; margin: 10px 0; }
    pre.replay { background: #0f172a; color: #f8fafc; padding: 6px 10px; border-radius: 6px; overflow-x: auto; }
    pre.run-report { font-size: 12px; max-height: 480px; overflow: auto; background: #f8fafc; padding: 8px; }
    iframe.run-page { width: 100%; height: 900px; border: 1px solid var(--line); border-radius: 8px; }

    """
}
