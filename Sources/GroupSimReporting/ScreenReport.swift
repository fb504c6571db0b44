import GroupSimCore
import GroupSimChecking

/// `--format screens`: every device's screen after each event of the run, as JSON, for
/// checking what the HTML page's time slider draws (`scripts/check-timeline.py`).
///
/// `{"scenario", "seed", "conversations", "devices", "events": [{"index", "time", "at",
/// "subject", "screens": {DEVICE: [[LINE...] per conversation]}}]}`: an event lists only
/// the screens it changed (the first event every screen), each whole, so the output grows
/// with the events times the transcripts (a checking aid for scenario-sized runs); a screen
/// is what the device draws (M14's limit applied). A line is
/// `{"kind", "message", "sender", "session", "text", "subcaption", "url", "state"}`, the
/// state as `[[key, value]...]`.
package enum ScreenReport {
    package static func render(_ report: RunReport) -> String {
        let outcome = report.outcome
        let replay = ScreenReplay(outcome: outcome)
        var events: [JSONValue] = []
        replay.walk(outcome) { index, state, changed in
            let event = outcome.trace.events[index]
            let shown = index == 0 ? Array(state.screens.indices) : changed.map { [$0] } ?? []
            let screens: [(String, JSONValue)] = shown.map { device in
                let screen = state.screens[device]
                return (screen.name, .array(screen.lines.map { .array(replay.drawn($0).map { line(replay, $0) }) }))
            }
            events.append(.object([("index", .int(index)), ("time", .int(event.time.nanoseconds)), ("at", .string(event.time.description)),
                                   ("subject", .string(event.subject)), ("screens", .object(screens))]))
        }
        let document: JSONValue = .object([
            ("scenario", .string(outcome.scenario.name)),
            ("seed", .string(String(outcome.seed))),
            ("conversations", .array(replay.conversations.map { .string($0) })),
            ("devices", .array(outcome.scenario.devices.map { .string($0.name) })),
            ("events", .array(events)),
        ])
        return document.rendered(indent: nil) + "\n"
    }

    static func line(_ replay: ScreenReplay, _ line: ScreenReplay.Line) -> JSONValue {
        let face = replay.messages[line.message]
        return .object([("kind", .string(line.kind.rawValue)), ("message", .int(line.message)),
                        ("sender", .string(face?.senderName)), ("session", .string(line.session)),
                        ("text", .string(line.text)), ("subcaption", .string(line.subcaption)),
                        ("url", .string(line.kind == .bubble ? face?.url : nil)),
                        ("state", line.state.map { HTMLReport.pairs($0) } ?? .null)])
    }
}
