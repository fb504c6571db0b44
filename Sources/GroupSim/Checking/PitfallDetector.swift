/// Finds the pitfalls of a finished run (SCENARIO-FORMAT.md, "Pitfall kinds").
///
/// `lost-update`, `divergence`, `unattributed` and `double-count` are judged on the final
/// states (M1, M4, M12, M13); the others
/// were seen while the app read something and are reported once per device and detail.
/// Every pitfall says where it happened (device, message, time), what was lost or
/// misread, the rule it comes from and the fix; the wording is in
/// `PitfallDetector+Explanations.swift`.
public enum PitfallDetector {
    public static func detect(_ outcome: RunOutcome) -> [Pitfall] {
        let evidence = Evidence(outcome: outcome)
        var found: [Pitfall] = []
        let keys = IdentityKeys(outcome: outcome)
        for session in evidence.states.sessions {
            found += lostUpdates(session, evidence)
            if let divergence = divergence(session, evidence) { found.append(divergence) }
            found += identityPitfalls(session, evidence, keys: keys)
        }
        found += sighted(evidence)
        return found
    }

    /// What the explanations read: the final states, the messages' flow and every
    /// device's view over time, built once per run.
    struct Evidence {
        let outcome: RunOutcome
        let states: SessionStates
        let flow: MessageFlow
        let history: ViewHistory
        /// When each step began, by step number.
        let stepTimes: [Int: VirtualTime]

        init(outcome: RunOutcome) {
            self.outcome = outcome
            states = SessionStates(outcome: outcome)
            flow = MessageFlow(trace: outcome.trace)
            history = ViewHistory(outcome: outcome)
            var times: [Int: VirtualTime] = [:]
            for event in outcome.trace.events {
                if case .step(let number, _) = event.kind, times[number] == nil { times[number] = event.time }
            }
            stepTimes = times
        }

        func contact(_ person: String) -> String { outcome.scenario.person(person)?.contactName ?? person }

        /// The message a device sent next after a sighting made while the app wrote it
        /// (a dropped URL, M8): nil when the device sent nothing after it.
        func sentAfter(_ sighting: PitfallSighting) -> Int? {
            flow.sends.first { $0.device == sighting.device && $0.time >= sighting.time }?.message
        }

        /// The message that carried a change: the first one its device sent in the
        /// session for the change's step.
        func carrier(of change: Change) -> MessageFlow.Send? {
            flow.sends.first { $0.device == change.device && $0.session == change.session && $0.step == change.step }
        }
    }

    /// A change is lost on a device whose final state neither contains its entries nor
    /// descends from a state that included it (M12; with a cloud store that overwrites, M13),
    /// unless each of its entries was overwritten there by a later change whose maker had
    /// seen it: a lost update is a change that its overwriter never saw, and a sender that
    /// replaces its own earlier value, or one it received, loses nothing.
    static func lostUpdates(_ session: String, _ evidence: Evidence) -> [Pitfall] {
        let states = evidence.states
        let devices = states.appDevices(for: session)
        let sessionChanges = states.outcome.changes.filter { $0.session == session }
        var found: [Pitfall] = []
        for change in sessionChanges {
            var lost: [(device: String, shown: SessionStates.Shown?)] = []
            for device in devices {
                let shown = states.shown(session, on: device)
                if let shown, shown.provenance.contains(change.id) || shown.state.contains(change.entries) { continue }
                if let shown, overwrittenKnowingly(change, in: shown.state, among: sessionChanges, evidence) { continue }
                lost.append((device.name, shown))
            }
            guard !lost.isEmpty else { continue }
            let carrier = evidence.carrier(of: change)
            let what = change.entries.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
            var origin = change.step.map { "step \($0) on \(change.device)" } ?? "on \(change.device)"
            if states.outcome.scenario.app.state == .message, let carrier { origin += ", sent in m\(carrier.message)" }
            let rule = states.outcome.scenario.app.state == .message ? "M12" : "M13"
            let (explanation, fix) = lostUpdateText(change, carrier: carrier, lost: lost, evidence)
            found.append(Pitfall(kind: .lostUpdate, rule: rule, devices: lost.map(\.device), message: carrier?.message, session: session,
                                 summary: "\(evidence.contact(change.person))'s change \(what) (\(origin)) is missing from \(session) on \(lost.map(\.device).joined(separator: ", "))",
                                 explanation: explanation, fix: fix))
        }
        return found
    }

    /// Whether every entry of `change` missing from `state` holds there a value written by a
    /// later change whose maker had seen `change`: made on the same device, or after the
    /// message that carried `change` reached its device.
    static func overwrittenKnowingly(_ change: Change, in state: StateMap, among changes: [Change], _ evidence: Evidence) -> Bool {
        let carrier = evidence.carrier(of: change)
        for entry in change.entries where state[entry.key] != entry.value {
            guard let value = state[entry.key] else { return false }
            let overwriters = changes.filter { later in
                later.id > change.id && later.entries.contains { $0.key == entry.key && $0.value == value }
            }
            let saw = overwriters.contains { later in
                if later.device == change.device { return true }
                guard let carrier, let made = later.step.flatMap({ evidence.stepTimes[$0] }),
                      let seen = evidence.flow.firstSeen(carrier.message, on: later.device) else { return false }
                return seen <= made
            }
            if !saw { return false }
        }
        return true
    }

    /// Devices that would show different states for the session if tapped now (M12).
    static func divergence(_ session: String, _ evidence: Evidence) -> Pitfall? {
        let states = evidence.states
        let devices = states.appDevices(for: session)
        var groups: [(shown: StateMap?, devices: [String], from: String)] = []
        for device in devices {
            let shown = states.shown(session, on: device)
            let from = shown.map { "m\($0.message) from \(evidence.contact($0.sender))" } ?? "no bubble"
            if let index = groups.firstIndex(where: { $0.shown == shown?.state }) {
                groups[index].devices.append(device.name)
            } else {
                groups.append((shown?.state, [device.name], from))
            }
        }
        guard groups.count > 1 else { return nil }
        let views = groups.map { "\($0.devices.joined(separator: ", ")): \($0.shown.map(\.description) ?? "nothing") (\($0.from))" }
        let parting = evidence.history.partings(session: session, among: groups.map { $0.devices[0] }).first
        return Pitfall(
            kind: .divergence, rule: "M12", devices: devices.map(\.name), message: nil, session: session,
            summary: "devices show \(groups.count) different states for \(session): \(views.joined(separator: "; "))",
            explanation: divergenceExplanation(session, parting: parting, groups: groups.count, mode: states.outcome.scenario.app.state),
            fix: "Keep the state on a server and fetch it when a bubble is tapped, so every device shows the store's state whatever bubble it kept, and merge writes atomically there (M13; `app.state: cloud-merge`).")
    }

    /// Pitfalls seen during the run, once per kind, device and detail.
    static func sighted(_ evidence: Evidence) -> [Pitfall] {
        var seen: Set<String> = []
        var found: [Pitfall] = []
        for sighting in evidence.outcome.sightings {
            let key = "\(sighting.kind.rawValue)|\(sighting.device)|\(sighting.detail)"
            guard seen.insert(key).inserted else { continue }
            let message = sighting.message ?? evidence.sentAfter(sighting)
            let session = message.flatMap { evidence.flow.send(of: $0)?.session }
            found.append(Pitfall(kind: sighting.kind, rule: sighting.kind.rule, devices: [sighting.device], message: message,
                                 session: session, summary: sighting.detail, explanation: explanation(sighting, evidence),
                                 fix: fix(sighting.kind)))
        }
        return found
    }
}
