import GroupSimSimulation

/// Every device's final transcript as Messages would draw it, device next to device:
/// bubbles (the sender's own on the right) with their caption, subcaption and state,
/// and summary lines where collapsed bubbles were (M10, M14). Tokens are already drawn
/// as this device's contact names (M5).
extension HTMLReport {
    static func transcripts(_ outcome: RunOutcome) -> String {
        let several = outcome.scenario.conversations.count > 1
        var html = "<div class=\"devices\">\n"
        for device in outcome.devices {
            let contact = outcome.scenario.person(device.person)?.contactName ?? device.person
            var notes = [device.platform.rawValue]
            if !device.runsApp && device.platform == .ios { notes.append("app missing") }
            if device.generation > 0 { notes.append("reinstalled \(device.generation)×") }
            html += "<div class=\"device-transcript\">\n"
            html += "<h3>\(esc(device.name))</h3>\n<p class=\"who\">\(esc(contact)) · \(esc(notes.joined(separator: ", ")))</p>\n"
            html += "<div class=\"screen\">\n"
            for conversation in device.transcripts {
                if several { html += "<p class=\"conversation\">\(esc(conversation.conversation))</p>\n" }
                if conversation.entries.isEmpty { html += "<p class=\"empty\">(nothing yet)</p>\n" }
                for entry in conversation.entries { html += drawn(entry, on: device) }
            }
            html += "</div>\n</div>\n"
        }
        return html + "</div>\n"
    }

    /// One transcript entry as HTML.
    static func drawn(_ entry: DeviceSnapshot.DrawnEntry, on device: DeviceSnapshot) -> String {
        let side = entry.senderPerson == device.person ? "mine" : "theirs"
        let meta = "<span class=\"id\">m\(entry.message)</span> \(esc(entry.senderName))"
        switch entry.kind {
        case .bubble:
            var html = "<div class=\"bubble \(side)\">\n<div "
                + "class=\"meta\">\(meta)\(entry.session.map { " · <span class=\"session\">\(esc($0))</span>" } ?? "")</div>\n"
            html += "<div class=\"caption\">\(esc(entry.text ?? "(no caption)"))</div>\n"
            if let subcaption = entry.subcaption { html += "<div class=\"subcaption\">\(esc(subcaption))</div>\n" }
            if let state = entry.state, !state.isEmpty {
                let items = state.entries.map { "<span class=\"key\">\(esc($0.key))</span>=\(esc($0.value))" }
                html += "<div class=\"state\">\(items.joined(separator: " "))</div>\n"
            } else if let url = entry.url {
                html += "<div class=\"state\">url \(esc(url))</div>\n"
            } else {
                html += "<div class=\"state none\">no URL</div>\n"
            }
            return html + "</div>\n"
        case .summary:
            return "<div class=\"summary\" title=\"m\(entry.message), collapsed (M10)\">\(esc(entry.text ?? ""))</div>\n"
        case .text:
            return "<div class=\"bubble text \(side)\">\n<div class=\"meta\">\(meta)</div>\n<div "
                + "class=\"caption\">\(esc(entry.text ?? ""))</div>\n</div>\n"
        case .sticker:
            return "<div class=\"bubble sticker \(side)\">\n<div class=\"meta\">\(meta) · sticker</div>\n<div "
                + "class=\"caption\">\(esc(entry.text ?? ""))</div>\n</div>\n"
        case .plain:
            return "<div class=\"bubble plain \(side)\">\n<div class=\"meta\">\(meta) · plain (M26)</div>\n<div "
                + "class=\"caption\">\(esc(entry.text ?? ""))</div>\n</div>\n"
        }
    }
}
