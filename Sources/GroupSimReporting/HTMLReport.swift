import GroupSimCore
import GroupSimScenario
import GroupSimSimulation
import GroupSimChecking

/// `--format html`: the whole run on one self-contained page.
///
/// The page needs no network access: no external script, font, style or image (a
/// Content-Security-Policy meta tag forbids them), only inline CSS, inline SVG and one
/// inline script, the time slider (`HTMLReport+Timeline.swift`), which the policy names
/// by its hash. It shows, in order: the scenario and its outcome; the message flow as an SVG
/// Lamport diagram (`HTMLReport+Flow.swift`); every device's final transcript drawn as
/// bubbles and summary lines, side by side (`HTMLReport+Transcripts.swift`); the live
/// bubble of each session over time and where divergent devices' views parted
/// (`HTMLReport+Views.swift`); the checks; the pitfalls with their explanations and fixes.
///
/// Every string from the scenario goes through `Markup.html`. The same report always
/// gives the same bytes.
public enum HTMLReport {
    public static func render(_ report: RunReport) -> String {
        let events = report.outcome.trace.events.count
        var html = pageStart(title: "\(report.outcome.scenario.name) · GroupSim", style: style, script: events > 0 ? timelineScriptHash : nil)
        html += header(report)
        html += runBody(report, prefix: "")
        if events > 0 { html += scriptTag }
        html += "</body>\n</html>\n"
        return html
    }

    /// One run's part of a page after its header: the slider, the sections, the footer
    /// and the run's embedded events. Every id in it starts with `prefix`, so that a
    /// page can hold several runs (a lesson's broken and fixed designs), each with its
    /// own slider; the page adds `scriptTag` once, after the last run.
    static func runBody(_ report: RunReport, prefix: String) -> String {
        let outcome = report.outcome
        let history = ViewHistory(outcome: outcome)
        let flow = MessageFlow(trace: outcome.trace)
        var geometry = FlowGeometry()
        let diagram = flowDiagram(outcome, flow: flow, geometry: &geometry)
        let events = outcome.trace.events.count
        var html = events > 0 ? scrubber(events: events, prefix: prefix) : ""
        html += section(prefix + "flow", "Message flow", diagram)
        html += section(prefix + "transcripts", "What each device shows at the end", transcripts(outcome))
        html += section(prefix + "views", "What each user saw over time", views(report, history: history))
        html += section(prefix + "checks", "Checks", checks(report))
        html += section(prefix + "pitfalls", "Pitfalls", pitfalls(report, prefix: prefix))
        if !outcome.failures.isEmpty { html += section(prefix + "failures", "Failed steps", failures(outcome)) }
        html += "<footer>trace: <code>\(esc(report.digest))</code> · \(Plural.count(outcome.copiesDelivered, "copy", plural: "copies")) "
            + "delivered · quiet at \(outcome.endTime)</footer>\n"
        if events > 0 { html += timelineData(report, history: history, geometry: geometry, prefix: prefix) }
        return html
    }

    static func esc(_ text: String) -> String { Markup.html(text) }

    static func section(_ id: String, _ title: String, _ body: String) -> String {
        "<section id=\"\(id)\">\n<h2>\(title)</h2>\n\(body)</section>\n"
    }

    /// The start of a self-contained page up to `<body>`: a content security policy that
    /// lets nothing load (styles inline, pictures as data URLs) and runs no script but the
    /// one whose hash `script` gives (the time slider's), none when it is nil.
    static func pageStart(title: String, style: String, script: String? = nil) -> String {
        let scripts = script.map { "; script-src \($0)" } ?? ""
        return """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:\(scripts)">
        <title>\(esc(title))</title>
        <style>\(style)</style>
        </head>
        <body>

        """
    }

    /// The run's name, its `about` and one line of facts; `verdict` replaces the line's
    /// green "every check held" (a lesson's broken design, whose checks describe how it
    /// breaks), `heading` the name.
    static func header(_ report: RunReport, heading: String? = nil, verdict: String? = nil, tag: String = "header",
                       level: Int = 1) -> String {
        let outcome = report.outcome
        let scenario = outcome.scenario
        let counts = report.checkCounts
        var html = "<\(tag)>\n<h\(level)>\(esc(heading ?? scenario.name))</h\(level)>\n"
        if let about = scenario.about?.trimmingTrailingNewlines, !about.isEmpty {
            html += "<p class=\"about\">\(esc(about))</p>\n"
        }
        let verdict = !report.passed ? "<span class=\"fail\">a check failed</span>"
            : verdict.map { "<span class=\"broken\">\(esc($0))</span>" } ?? "<span class=\"pass\">every check held</span>"
        html += "<p class=\"meta\">seed \(outcome.seed) · \(scenario.devices.count) devices · app state: "
            + "\(esc(scenario.app.state.rawValue)) · "
        html += "\(verdict) (\(counts.held) of \(counts.total)) · \(Plural.count(report.pitfalls.count, "pitfall"))</p>\n"
        if !outcome.quiet {
            html += "<p class=\"fail\">The run was stopped after \(Simulation.eventLimit) events without going quiet; checks see the "
                + "state at that point.</p>\n"
        }
        return html + "</\(tag)>\n"
    }

    static func checks(_ report: RunReport) -> String {
        guard !report.checks.isEmpty || !report.unexpectedFailures.isEmpty else { return "<p class=\"none\">No checks.</p>\n" }
        var html = "<table class=\"checks\">\n<thead><tr><th>result</th><th>check</th><th>what was "
            + "found</th><th>line</th></tr></thead>\n<tbody>\n"
        for check in report.checks {
            let result = check.passed ? "<td class=\"pass\">PASS</td>" : "<td class=\"fail\">FAIL</td>"
            let line = check.spec.location.map { String($0.line) } ?? ""
            html += "<tr>\(result)<td><code>\(esc(check.text))</code></td><td>\(esc(check.detail))</td><td>\(line)</td></tr>\n"
        }
        for failure in report.unexpectedFailures {
            let line = failure.line.map(String.init) ?? ""
            html += "<tr><td class=\"fail\">FAIL</td><td><code>\(esc(failure.text))</code></td>"
                + "<td>\(esc(failure.detail))</td><td>\(line)</td></tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    static func pitfalls(_ report: RunReport, prefix: String = "") -> String {
        guard !report.pitfalls.isEmpty else { return "<p class=\"none\">None found.</p>\n" }
        var html = ""
        for (number, pitfall) in report.pitfalls.enumerated() {
            html += "<article class=\"pitfall\" id=\"\(prefix)pitfall-\(number + 1)\">\n"
            html += "<h3>\(esc(pitfall.kind.rawValue)) <span class=\"rule\">\(esc(pitfall.rule.rawValue))</span></h3>\n"
            html += "<p class=\"what\">\(esc(pitfall.summary))</p>\n"
            html += "<p><strong>Why.</strong> \(esc(pitfall.explanation))</p>\n"
            html += "<p><strong>Fix.</strong> \(esc(pitfall.fix))</p>\n"
            html += "</article>\n"
        }
        let cited = report.pitfalls.map { "\($0.rule) \($0.explanation) \($0.fix)" }.joined(separator: " ")
        if let footnote = RuleReference.footnote(for: cited) { html += "<p class=\"legend\">\(esc(footnote))</p>\n" }
        return html
    }

    static func failures(_ outcome: RunOutcome) -> String {
        var html = "<ul class=\"failures\">\n"
        for failure in outcome.failures {
            html += "<li>\(esc(failure.stepText)) on <b>\(esc(failure.device))</b> at \(failure.time): "
                + "<code>\(esc(failure.code.name))</code> "
                + "(\(failure.code.rawValue)): \(esc(failure.reason))</li>\n"
        }
        return html + "</ul>\n"
    }
}
