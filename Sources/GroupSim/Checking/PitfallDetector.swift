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
        /// The run's changes by session, in the order made: one pass, not one per session.
        let changesBySession: [String: [Change]]
        /// Each device's sends, in send order.
        private let sendsByDevice: [String: [MessageFlow.Send]]
        /// The first send per device, session and step: the carrier of that step's change.
        private let firstSends: [CarrierKey: MessageFlow.Send]

        struct CarrierKey: Hashable {
            var device: String
            var session: String?
            var step: Int?
        }

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
            var bySession: [String: [Change]] = [:]
            for change in outcome.changes { bySession[change.session, default: []].append(change) }
            changesBySession = bySession
            var byDevice: [String: [MessageFlow.Send]] = [:]
            var first: [CarrierKey: MessageFlow.Send] = [:]
            for send in flow.sends {
                byDevice[send.device, default: []].append(send)
                let key = CarrierKey(device: send.device, session: send.session, step: send.step)
                if first[key] == nil { first[key] = send }
            }
            sendsByDevice = byDevice
            firstSends = first
        }

        func contact(_ person: String) -> String { outcome.scenario.person(person)?.contactName ?? person }

        /// The message a device sent next after a sighting made while the app wrote it
        /// (a dropped URL, M8): nil when the device sent nothing after it.
        func sentAfter(_ sighting: PitfallSighting) -> Int? {
            sendsByDevice[sighting.device]?.first { $0.time >= sighting.time }?.message
        }

        /// The message that carried a change: the first one its device sent in the
        /// session for the change's step.
        func carrier(of change: Change) -> MessageFlow.Send? {
            firstSends[CarrierKey(device: change.device, session: change.session, step: change.step)]
        }
    }

    /// A change is lost on a device whose final state neither contains its entries nor
    /// descends from a state that included it (M12; with a cloud store that overwrites, M13).
    static func lostUpdates(_ session: String, _ evidence: Evidence) -> [Pitfall] {
        let states = evidence.states
        let devices = states.appDevices(for: session)
        var found: [Pitfall] = []
        let changes = evidence.changesBySession[session] ?? []
        // What each device shows, worked out once for all the session's changes.
        let shownOn = changes.isEmpty ? [] : devices.map { states.shown(session, on: $0) }
        for change in changes {
            var lost: [(device: String, shown: SessionStates.Shown?)] = []
            for (device, shown) in zip(devices, shownOn) {
                if let shown, shown.provenance.contains(change.id) || shown.state.contains(change.entries) { continue }
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

    /// Devices that would show different states for the session if tapped now (M12).
    static func divergence(_ session: String, _ evidence: Evidence) -> Pitfall? {
        let states = evidence.states
        let devices = states.appDevices(for: session)
        var groups: [(shown: StateMap?, devices: [String], from: String)] = []
        // Where each state's group is: a look-up per device, however many groups there are.
        var groupOf: [StateMap?: Int] = [:]
        for device in devices {
            let shown = states.shown(session, on: device)
            if let index = groupOf[shown?.state] {
                groups[index].devices.append(device.name)
            } else {
                groupOf[shown?.state] = groups.count
                let from = shown.map { "m\($0.message) from \(evidence.contact($0.sender))" } ?? "no bubble"
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
