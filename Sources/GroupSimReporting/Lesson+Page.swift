import GroupSimChecking

/// `groupsim lessons NAME --format html`: one self-contained page with both designs,
/// the broken one first, each as `run --format html` draws a run (its own time slider,
/// every device's screen at each event, the event said in one sentence, the message
/// flow, the checks and pitfalls). The header says which design is broken and that its
/// checks describe the breakage, so a green check there is not read as "all is well".
extension Lesson {
    /// The ids of the broken run's part of the page start with this, the fixed run's with
    /// `fixedPrefix`.
    static let brokenPrefix = "broken-"
    static let fixedPrefix = "fixed-"

    package func page(broken: RunReport, fixed: RunReport) -> String {
        let events = broken.outcome.trace.events.count + fixed.outcome.trace.events.count
        var html = HTMLReport.pageStart(title: "Lesson \(name) · GroupSim", style: HTMLReport.style,
                                        script: events > 0 ? HTMLReport.timelineScriptHash : nil)
        let esc = HTMLReport.esc
        let rules = rules.map { "groupsim help \($0.rawValue)" }.joined(separator: ", ")
        html += "<header>\n<h1>Lesson \(esc(name)): \(esc(title))</h1>\n"
        html += "<p class=\"about\">Two designs of the same app, run on the same steps. The first is broken: \(esc(breakage)). "
            + "The second is the fix. Each has its own slider: move it to watch every device's screen, event by event.</p>\n"
        html += "<p class=\"meta\">rules: \(esc(rules)) · <a href=\"#\(Self.brokenPrefix)run\">the broken design</a> · "
            + "<a href=\"#\(Self.fixedPrefix)run\">the fixed design</a></p>\n</header>\n"
        let brokenVerdict = "this design is broken: its checks describe the breakage"
        html += "<section class=\"run broken-run\" id=\"\(Self.brokenPrefix)run\">\n"
        html += "<p class=\"design broken\">1. The broken design: \(esc(breakage)). The checks below hold because they "
            + "describe how it breaks.</p>\n"
        html += HTMLReport.header(broken, verdict: brokenVerdict, tag: "div", level: 2)
        html += HTMLReport.runBody(broken, prefix: Self.brokenPrefix)
        html += "</section>\n"
        html += "<section class=\"run fixed-run\" id=\"\(Self.fixedPrefix)run\">\n"
        html += "<p class=\"design fixed\">2. The fixed design: \(esc(whyFixed))</p>\n"
        html += HTMLReport.header(fixed, tag: "div", level: 2)
        html += HTMLReport.runBody(fixed, prefix: Self.fixedPrefix)
        html += "</section>\n"
        if events > 0 { html += HTMLReport.scriptTag }
        return html + "</body>\n</html>\n"
    }
}
