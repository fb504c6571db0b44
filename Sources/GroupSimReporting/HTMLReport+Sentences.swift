import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// One sentence per trace event for the time slider: what the event did, in the words of
/// the people involved, and the rule of docs/behaviour.md it follows. For a message that
/// reaches a device, the sentence says which bubble it replaced as the session's live
/// bubble there (M10, M11), and when that bubble was the device owner's own.
extension HTMLReport {
    static func sentence(_ event: Simulation.Trace.Event, outcome: RunOutcome, replay: ScreenReplay,
                         before: ScreenReplay.State) -> (text: String, rule: Rule?) {
        let scenario = outcome.scenario
        let device = event.subject
        let owner = scenario.device(device).flatMap { scenario.person($0.person) }
        let who = owner?.contactName ?? device
        let live = scenario.devices.firstIndex { $0.name == device }.map { before.live[$0] } ?? [:]
        switch event.kind {
        case .step(let number, let action):
            return ("\(device) (\(who)): step \(number), \(action.summary).", action.kind.built.rules.first)
        case .sent(let message, let session, _):
            guard let session else { return ("\(device) sends m\(message): it appears at once on its own screen.", "M30") }
            let previous = live[session]
            let replaced = previous.map { ", in place of m\($0.message)" } ?? ""
            return ("\(device) sends m\(message): on \(who)'s own screen it is at once the live bubble of \(session)\(replaced).", "M11")
        case .delivered(let message, let from):
            let sender = replay.messages[message]?.senderName ?? from
            let opening = "\(device) receives m\(message) from \(sender)"
            guard let face = replay.messages[message], let session = face.session else { return (opening + ".", "M30") }
            if scenario.device(device)?.platform == .ios9 {
                return (opening + ": an old system shows it as plain messages, not a bubble.", "M26")
            }
            guard let previous = live[session] else {
                return (opening + "; it is now the live bubble of \(session) there.", "M11")
            }
            var text = opening + "; it replaces m\(previous.message) as the live bubble of \(session)"
            if previous.senderPerson == owner?.key, face.senderPerson != owner?.key {
                text += ": \(who)'s own m\(previous.message) is no longer what \(device) shows"
            }
            if previous.message > message { text += ". An older message now sits below a newer one: arrival order alone decides" }
            return (text + ".", "M11")
        case .collapsed(let session, let replaced, let summary):
            let what = summary ? "a summary line takes its place" : "it is removed (it had no summary text)"
            return ("On \(device), m\(replaced)'s bubble of \(session) leaves its place: \(what).", "M10")
        case .held(let message):
            return ("m\(message) reaches \(device) while it is offline and waits there.", "M30")
        case .queued(let message):
            return ("\(device) is offline: m\(message) waits to leave until it is back.", "M30")
        case .offline:
            return ("\(device) goes offline.", "M30")
        case .online:
            return ("\(device) is back online: what waited is delivered in send order.", "M30")
        case .callback(let callback):
            return ("The extension on \(device) is told \(callback.rawValue).", callback.descriptor.rules.first)
        case .staged:
            return ("\(device) stages a message in the input field: nothing leaves until \(who) taps Send.", "M16")
        case .cancelled:
            return ("\(who) removes the draft on \(device).", "M17")
        case .failed(let step, let code, let origin):
            var reason = "", rule: Rule?
            if case .failure(let text, let cited)? = event.payload { (reason, rule) = (": " + text, cited) }
            let failing = step == nil && origin == nil ? "An app action"
                : "S" + RunOutcome.StepFailure.stepText(step: step, origin: origin, failedAt: event.time).dropFirst()
            return ("\(failing) fails on \(device) with \(code.name)\(reason).", rule)
        case .reinstalled:
            return ("\(device) reinstalls the app: a whole new set of identifiers; the old ones mean nothing now.", "M2")
        case .joined(let person):
            return ("\(person) joins the conversation (done on \(device)).", "M6")
        case .left(let person):
            return ("\(person) leaves the conversation (done on \(device)).", "M6")
        case .droppedURL(let url):
            return ("On \(device) the URL \(url) is dropped: a message accepts no custom scheme.", "M8")
        // The store's events in the lessons' words: a refused conditional save, the record
        // coming back with the conflict, and the retry are each said as what they are.
        case .cloudRequest(let operation, let key):
            return (storeSentence(LessonNarration.cloudRequest(operation, key: key, device: device, mode: scenario.app.state)), "M13")
        case .cloudHandled(let handling, let key, let asker, let version):
            return (storeSentence(LessonNarration.cloudHandled(handling, key: key, device: asker, version: version)), "M13")
        case .cloudAnswer(let answer, let key, let version):
            return (storeSentence(LessonNarration.cloudAnswer(answer, key: key, version: version, device: device)), "M13")
        case .pitfall(let kind, let detail):
            return ("Pitfall \(kind.rawValue): \(detail)", kind.rule)
        case .note(let note):
            return ("On \(device): \(note.text).", "M25")
        }
    }

    /// A lesson's sentence about the store as the slider says it: "the store" capitalised, its rule
    /// (linked beside it) left out, ending with a full stop.
    static func storeSentence(_ text: String) -> String {
        var text = text.hasSuffix(" (M13)") ? String(text.dropLast(6)) : text
        if text.hasPrefix("the ") { text = "The " + text.dropFirst(4) }
        return text + "."
    }
}
