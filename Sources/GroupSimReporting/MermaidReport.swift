import GroupSimCore
import GroupSimChecking
import GroupSimSimulation

/// `--format mermaid`: the run as a Mermaid `sequenceDiagram` that GitHub renders inside a
/// ```` ```mermaid ```` block.
///
/// Participants are the devices in the scenario's order, then the cloud store when the app
/// used it. Each delivered copy is one arrow from its sender to its receiver, drawn where
/// it arrived, labelled `m3 poll · 501ms → 551ms`; each step, send, session collapse
/// (M10), step failure, offline hold (M30) and pitfall seen on a device is a note over
/// it, events of one device at one instant sharing one note. Statements follow the
/// trace's order, so the same run always gives the same text. Every name and text from
/// the scenario goes through `Markup.mermaid`.
public enum MermaidReport {
    public static func render(_ report: RunReport) -> String {
        let outcome = report.outcome
        let scenario = outcome.scenario
        var ids: [String: String] = [:]
        var lines = ["sequenceDiagram"]
        lines.append("    title \(Markup.mermaid(scenario.name)) (seed \(outcome.seed))")
        for (index, device) in scenario.devices.enumerated() {
            ids[device.name] = "D\(index + 1)"
            lines.append("    participant D\(index + 1) as \(Markup.mermaid(device.name))")
        }
        let flow = MessageFlow(trace: outcome.trace)
        if !flow.cloudTrips.isEmpty { lines.append("    participant C as cloud store") }

        var sessions: [Int: String] = [:]
        for send in flow.sends { sessions[send.message] = send.session }
        var note: (subject: String, time: VirtualTime, parts: [String])?
        func flush() {
            guard let pending = note, let id = ids[pending.subject] else { note = nil; return }
            lines.append("    Note over \(id): \(pending.time) \(pending.parts.joined(separator: " · "))")
            note = nil
        }
        func add(_ part: String, on subject: String, at time: VirtualTime) {
            guard ids[subject] != nil else { return }
            if let pending = note, pending.subject == subject, pending.time == time {
                note?.parts.append(part)
            } else {
                flush()
                note = (subject, time, [part])
            }
        }

        var drawnArrivals: Set<Int> = []
        var drawnAnswers: Set<Int> = []
        for event in outcome.trace.events {
            let subject = event.subject
            switch event.kind {
            case .step(let number, let action):
                add("step \(number) \(Markup.mermaid(action.summary))", on: subject, at: event.time)
            case .sent(let message, let session, _):
                add("sends m\(message)\(session.map { " in " + Markup.mermaid($0) } ?? "")", on: subject, at: event.time)
            case .delivered(let message, let from):
                flush()
                guard let to = ids[subject], let sender = ids[from] else { continue }
                let sentAt = flow.send(of: message).map { "\($0.time)" } ?? "?"
                let session = sessions[message].map { " " + Markup.mermaid($0) } ?? ""
                lines.append("    \(sender)->>\(to): m\(message)\(session) · \(sentAt) → \(event.time)")
            case .collapsed(_, let replaced, let summary):
                add("m\(replaced) → \(summary ? "summary line" : "removed")", on: subject, at: event.time)
            case .failed(let step, let code, let origin):
                let failing = RunOutcome.StepFailure.stepText(step: step, origin: origin, failedAt: event.time)
                add("✖ \(failing) failed: \(code.name)", on: subject, at: event.time)
            case .held(let message):
                add("m\(message) held (offline)", on: subject, at: event.time)
            case .queued(let message):
                add("m\(message) waits (offline)", on: subject, at: event.time)
            case .reinstalled:
                add("reinstalled: new identifiers", on: subject, at: event.time)
            case .offline:
                add("offline", on: subject, at: event.time)
            case .online:
                add("online", on: subject, at: event.time)
            case .droppedURL:
                add("url dropped", on: subject, at: event.time)
            case .note(let note):
                add(Markup.mermaid(note.text), on: subject, at: event.time)
            case .pitfall(let kind, _):
                add("⚠ \(kind.rawValue)", on: subject, at: event.time)
            case .joined(let person):
                add("\(Markup.mermaid(person)) joined", on: subject, at: event.time)
            case .left(let person):
                add("\(Markup.mermaid(person)) left", on: subject, at: event.time)
            case .cloudRequest:
                flush()
            case .cloudHandled(let handling, let key, let device, _):
                flush()
                guard let index = flow.cloudTrips.indices.first(where: { index in
                    let trip = flow.cloudTrips[index]
                    return !drawnArrivals.contains(index) && trip.arrivedAt == event.time && trip.device == device
                        && trip.operation == handling.operation && trip.key == key
                }), let id = ids[device] else { continue }
                drawnArrivals.insert(index)
                let trip = flow.cloudTrips[index]
                lines.append("    \(id)->>C: \(trip.operation.rawValue) \(Markup.mermaid(trip.key)) · "
                             + "\(trip.requestedAt) → \(event.time)")
            case .cloudAnswer(let answer, let key, let version):
                flush()
                guard let id = ids[subject], let index = flow.cloudTrips.indices.first(where: { index in
                    let trip = flow.cloudTrips[index]
                    return !drawnAnswers.contains(index) && trip.device == subject && trip.answeredAt == event.time && trip.key == key
                }) else { continue }
                drawnAnswers.insert(index)
                lines.append("    C-->>\(id): \(answer.rawValue) \(Markup.mermaid(key)) v\(version)")
            case .callback, .staged, .cancelled:
                continue
            }
        }
        flush()
        if let footnote = RuleReference.footnote(for: lines.joined(separator: "\n")) { lines.append("    %% " + footnote) }
        return lines.joined(separator: "\n") + "\n"
    }
}
