import GroupSimChecking

/// What each user saw over time: per session, the live bubble every device showed at
/// each instant one of them changed (M11), and for every divergence pitfall where two
/// devices' views parted (M12).
extension HTMLReport {
    static func views(_ report: RunReport, history: ViewHistory) -> String {
        var html = ""
        let sessions = history.sessions
        if sessions.isEmpty { html += "<p class=\"none\">No session had a bubble.</p>\n" }
        for session in sessions {
            html += "<h3>The live bubble of <code>\(esc(session))</code></h3>\n"
            html += liveTable(session, history)
        }
        let partings = SideBySideReport.partings(report, history)
        if !partings.isEmpty {
            html += "<h3>Where the views parted (M12)</h3>\n<ul class=\"partings\">\n"
            for parting in partings { html += "<li>\(esc(parting.description))</li>\n" }
            html += "</ul>\n"
        }
        return html
    }

    static func liveTable(_ session: String, _ history: ViewHistory) -> String {
        var html = "<div class=\"table-wrap\"><table class=\"live\">\n<thead><tr><th>time</th>"
        for device in history.devices { html += "<th>\(esc(device))</th>" }
        html += "</tr></thead>\n<tbody>\n"
        var current: [String: Int] = [:]
        for instant in history.instants(of: session) {
            html += "<tr><td class=\"time\">\(esc(instant.time.description))</td>"
            for device in history.devices {
                let now = instant.changes.filter { $0.device == device }
                if let last = now.last {
                    current[device] = last.message
                    let how = last.wasSent ? "sent here" : "from \(last.from)"
                    let messages = now.map { "m\($0.message)" }.joined(separator: ", ")
                    html += "<td class=\"changed\" style=\"border-left-color:\(color(last.message))\"><b>\(messages)</b> <span "
                        + "class=\"how\">\(esc(how))</span></td>"
                } else if let shown = current[device] {
                    html += "<td class=\"same\">m\(shown)</td>"
                } else {
                    html += "<td class=\"same\">–</td>"
                }
            }
            html += "</tr>\n"
        }
        return html + "</tbody>\n</table></div>\n"
    }
}
