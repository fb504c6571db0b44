import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// Evaluates a scenario's checks on a finished, quiet run (docs/scenario-format.md, "Checks").
package enum CheckEvaluator {
    public static func evaluate(_ outcome: RunOutcome, pitfalls: [Pitfall]) -> [CheckResult] {
        evaluate(outcome, pitfalls: pitfalls, states: SessionStates(outcome: outcome))
    }

    /// `evaluate(_:pitfalls:)` with the run's session states already worked out.
    ///
    /// - Parameter explained: false leaves out the check's title and, where it costs, the
    ///   word of what it found (`latest` without a caption, `converged`, `diverged`,
    ///   `complete`): exploration reads only whether it held.
    static func evaluate(_ outcome: RunOutcome, pitfalls: [Pitfall], states: SessionStates, explained: Bool = true) -> [CheckResult] {
        outcome.scenario.checks.map { evaluate($0, outcome, states, pitfalls, explained: explained) }
    }

    static func evaluate(_ spec: CheckSpec, _ outcome: RunOutcome, _ states: SessionStates, _ pitfalls: [Pitfall],
                         explained: Bool = true) -> CheckResult {
        let (passed, detail) = judge(spec.check, outcome, states, pitfalls, explained: explained)
        return CheckResult(spec: spec, passed: passed, text: explained ? title(spec.check) : "", detail: detail)
    }

    /// The check as one line, as written: its descriptor's keyword, then its arguments
    /// (`latest alice-phone poll from=bob`). It depends on nothing a run decides.
    static func title(_ check: Check) -> String {
        let keyword = check.kind.descriptor.keyword
        switch check {
        case .latest(let deviceName, let session, let from, let written, let caption):
            var text = "\(keyword) \(deviceName) \(session)"
            if let from { text += " from=\(from)" }
            if !written.isEmpty { text += " data=\(StateMap(written))" }
            if let caption { text += " caption=\"\(caption)\"" }
            return text
        case .summaries(let deviceName, let session, let count, let texts):
            var text = "\(keyword) \(deviceName) \(session)"
            if let count { text += " count=\(count)" }
            if let texts { text += " texts=\(texts)" }
            return text
        case .converged(let session), .diverged(let session):
            return "\(keyword) \(session)"
        case .complete(let session, let written):
            return "\(keyword) \(session) \(StateMap(written))"
        case .pitfalls(let kinds):
            return "\(keyword) \(kinds.map(\.rawValue).joined(separator: ", "))"
        case .noPitfalls:
            return keyword
        case .callbacks(let deviceName, _):
            return "\(keyword) \(deviceName)"
        case .error(let step, let code):
            return "\(keyword) step=\(step) code=\(code.name)"
        }
    }

    /// Whether the check held, and what was found.
    private static func judge(_ check: Check, _ outcome: RunOutcome, _ states: SessionStates, _ pitfalls: [Pitfall],
                              explained: Bool) -> (Bool, String) {
        switch check {
        case .latest(let deviceName, let session, let from, let written, let caption):
            let data = accountKeys(written, outcome)
            // The live bubble's sender and state need no drawing; its caption alone does,
            // and only when the rest held.
            if !explained, let device = outcome.device(deviceName), let shown = states.shown(session, on: device) {
                let passed = (from == nil || from == shown.sender) && shown.state.contains(data)
                guard passed, let caption else { return (passed, "") }
                return (device.caption(ofSession: session) == .some(caption), "")
            }
            guard let device = outcome.device(deviceName), let view = device.session(session),
                  let shown = states.shown(session, on: device) else {
                return (false, "\(deviceName) shows no bubble of \(session)")
            }
            let drawn = view.caption.map { "\"\($0)\"" } ?? "no caption"
            let detail = "\(deviceName) shows m\(view.message) from \(view.senderPerson) with \(shown.state), caption \(drawn)"
            let passed = (from == nil || from == view.senderPerson) && shown.state.contains(data)
                && (caption == nil || caption == view.caption)
            return (passed, detail)
        case .summaries(let deviceName, let session, let count, let texts):
            // A summary line exists only because a newer bubble of its session replaced it,
            // so a session with summary lines always has a live bubble (M10).
            let drawn = outcome.device(deviceName)?.session(session)?.summaries ?? []
            let passed = (count == nil || count == drawn.count) && (texts == nil || texts == drawn)
            guard explained else { return (passed, "") }
            return (passed, "\(deviceName) draws \(Plural.count(drawn.count, "summary line")) for \(session): \(drawn)")
        case .converged(let session), .diverged(let session):
            if !explained {
                // One state per message shown, not one per device.
                let shown = states.shownOnAppDevices(session).byMessage.distinct
                let converged = shown.allSatisfy { $0?.state == shown.first??.state }
                if case .converged = check { return (converged, "") }
                return (!converged, "")
            }
            let devices = states.appDevices(for: session)
            var distinct: [StateMap?] = []
            var lines: [String] = []
            for device in devices {
                let shown = states.shown(session, on: device)
                if !distinct.contains(shown?.state) { distinct.append(shown?.state) }
                guard explained else { continue }
                lines.append("\(device.name): \(shown.map { $0.state.description } ?? "no bubble")")
            }
            let converged = distinct.count <= 1
            if case .converged = check {
                return (converged, lines.joined(separator: "; "))
            }
            return (!converged, lines.joined(separator: "; "))
        case .complete(let session, let written):
            let data = accountKeys(written, outcome)
            if !explained {
                // One look per message shown, not one per device.
                let shown = states.shownOnAppDevices(session).byMessage.distinct
                return (shown.allSatisfy { $0?.state.contains(data) ?? false }, "")
            }
            let missing = states.appDevices(for: session).filter { !(states.shown(session, on: $0)?.state.contains(data) ?? false) }
            func shown(_ device: DeviceSnapshot) -> String { states.shown(session, on: device).map { $0.state.description } ?? "no bubble" }
            let detail = missing.isEmpty
                ? "every app device's state has \(StateMap(data))"
                : "missing on " + missing.map { "\($0.name) (\(shown($0)))" }.joined(separator: ", ")
            return (missing.isEmpty, detail)
        case .pitfalls(let kinds):
            let reported = Set(pitfalls.map(\.kind))
            let absent = kinds.filter { !reported.contains($0) }
            guard explained else { return (absent.isEmpty, "") }
            let seen = reported.sorted().map(\.rawValue)
            guard !absent.isEmpty else { return (true, "reported: \(seen.joined(separator: ", "))") }
            let missing = absent.map(\.rawValue).joined(separator: ", ")
            return (false, "not reported: \(missing); reported: \(seen.isEmpty ? "none" : seen.joined(separator: ", "))")
        case .noPitfalls:
            guard explained else { return (pitfalls.isEmpty, "") }
            let seen = Set(pitfalls.map(\.kind)).sorted().map(\.rawValue)
            return (pitfalls.isEmpty, seen.isEmpty ? "none reported" : "reported: \(seen.joined(separator: ", "))")
        case .callbacks(let deviceName, let sequence):
            let got = outcome.device(deviceName)?.callbacks ?? []
            guard explained else { return (got == sequence, "") }
            return (got == sequence, "received \(got.map(\.rawValue).joined(separator: ", "))")
        case .error(let step, let code):
            // A failure after the step ended, set off by it (a cloud round trip), is the step's too.
            let failed = outcome.failures.filter { $0.attributedStep == step }
            let passed = failed.contains { $0.code == code }
            guard explained else { return (passed, "") }
            let detail = failed.isEmpty
                ? "step \(step) did not fail"
                : "step \(step) failed with " + failed.map { failure in
                    let later = failure.step == nil ? failure.origin.map { " (\($0.text(failedAt: failure.time)))" } ?? "" : ""
                    return "\(failure.code.name)\(later): \(failure.reason)"
                }.joined(separator: "; ")
            return (passed, detail)
        }
    }

    /// Under `app.identity: account`, `$name` in a check's data stands for that person's
    /// account id, the same on every device (the `app.identity` setting); in the
    /// other modes the key is per device and a check keeps the text as written.
    static func accountKeys(_ data: [DataEntry], _ outcome: RunOutcome) -> [DataEntry] {
        guard outcome.scenario.app.identity == .account, data.contains(where: { $0.key.hasPrefix("$") || $0.value.hasPrefix("$") }) else {
            return data
        }
        let streams = RandomStreams(seed: outcome.seed)
        func resolved(_ text: String) -> String {
            guard text.hasPrefix("$"), let person = outcome.scenario.person(String(text.dropFirst())) else { return text }
            return AppIdentity.accountID(streams, person: person.key)
        }
        return data.map { DataEntry(resolved($0.key), resolved($0.value)) }
    }
}
