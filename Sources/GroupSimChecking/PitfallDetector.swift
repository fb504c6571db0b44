import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// Finds the pitfalls of a finished run (docs/scenario-format.md, "Pitfall kinds").
///
/// `lost-update`, `divergence`, `unattributed` and `double-count` are judged on the final
/// states (M1, M4, M12, M13); the others
/// were seen while the app read something and are reported once per device and detail.
/// Every pitfall says where it happened (device, message, time), what was lost or
/// misread, the rule it comes from and the fix; the wording is in
/// `PitfallDetector+Explanations.swift`.
package enum PitfallDetector {
    package static func detect(_ outcome: RunOutcome) -> [Pitfall] {
        detect(outcome, states: SessionStates(outcome: outcome))
    }

    /// `detect(_:)` with the run's session states already worked out (`RunReport` builds
    /// them once for the pitfalls, the checks and exploration's outcome key).
    ///
    /// - Parameter explained: false leaves each pitfall's summary, explanation and fix
    ///   empty: exploration counts pitfalls by kind and rule, and writing the words for
    ///   every run of a large group costs more than the run.
    /// - Parameter shown: `states.shownOnAppDevices` of each of `states.sessions`, when
    ///   the caller worked them out (empty: worked out here).
    static func detect(_ outcome: RunOutcome, states: SessionStates, shown computed: [SessionStates.AppDevicesShow] = [],
                       explained: Bool = true) -> [Pitfall] {
        let evidence = Evidence(outcome: outcome, states: states, explained: explained)
        var found: [Pitfall] = []
        let keys = IdentityKeys(outcome: outcome)
        for (index, session) in evidence.states.sessions.enumerated() {
            // What the session's app devices show is worked out once for all three.
            let shown = computed.indices.contains(index) ? computed[index] : evidence.states.shownOnAppDevices(session)
            // A device whose person joined after the session began never had it (M6): it lost
            // nothing and diverged from nobody.
            // Only a scenario with `join` steps has such a device: most runs ask no device.
            let late = !evidence.states.hasJoinSteps ? [] : shown.devices.indices.filter { index in
                // Matched, not compared with `==`: that copied what each device shows.
                guard case .none = shown.byMessage.distinct[shown.byMessage.of[index]] else { return false }
                return evidence.states.joinedAfterStart(session, device: shown.devices[index])
            }.map { shown.devices[$0] }
            let others = late.isEmpty ? shown : shown.without(late)
            found += lostUpdates(session, others, evidence)
            if let divergence = divergence(session, others, evidence) { found.append(divergence) }
            if !late.isEmpty { found.append(joinedLate(session, late, evidence)) }
            found += identityPitfalls(session, shown, evidence, keys: keys)
        }
        found += sighted(evidence)
        return found
    }

    /// What the explanations read: the final states, the messages' flow and every
    /// device's view over time, built once per run.
    struct Evidence {
        /// The run's outcome is `states.outcome`: a copy here retained and released every part of it.
        let states: SessionStates
        /// Whether pitfalls get their words (`detect(_:states:explained:)`).
        let explained: Bool
        /// The messages' flow as the trace tells it, for the words; empty when `explained`
        /// is false. Verdicts read the run's ledger instead, which is kept with the trace
        /// off too (`RunLedger`).
        let flow: MessageFlow
        /// Empty when `explained` is false.
        let history: ViewHistory
        /// Each device's sends, in send order.
        private let sendsByDevice: [String: [MessageFlow.Send]]
        /// The changes that wrote each value of each key of each session, in the order
        /// made, each change once: who could have overwritten a change is a look-up. Made
        /// the first time it is asked: a run whose lost changes' keys hold no other value
        /// (each voter writes their own key) never asks.
        private let writersByEntry: Writers

        final class Writers {
            private let changes: [Change]
            private(set) lazy var byEntry: [EntryKey: [Change]] = {
                var writers: [EntryKey: [Change]] = [:]
                for change in changes {
                    for entry in change.entries {
                        let key = EntryKey(session: change.session, key: entry.key, value: entry.value)
                        if writers[key]?.last?.id != change.id { writers[key, default: []].append(change) }
                    }
                }
                return writers
            }()

            init(_ changes: [Change]) { self.changes = changes }
        }
        /// Each step's action by step number (the first step of a number, in file order);
        /// empty when `explained` is false, as only the words read it.
        private let actions: [Int: Scenario.Action]

        struct EntryKey: Hashable {
            var session: String
            var key: String
            var value: String
        }

        init(outcome: borrowing RunOutcome, states: SessionStates, explained: Bool = true) {
            self.states = states
            self.explained = explained
            // Only explanations read the trace: the flow of messages and the history of views.
            flow = MessageFlow(trace: explained ? outcome.trace : Simulation.Trace())
            history = explained ? ViewHistory(outcome: copy outcome) : ViewHistory()
            writersByEntry = Writers(outcome.changes)
            var stepActions: [Int: Scenario.Action] = [:]
            if explained {
                for step in outcome.scenario.steps where stepActions[step.number] == nil { stepActions[step.number] = step.action }
            }
            actions = stepActions
            var byDevice: [String: [MessageFlow.Send]] = [:]
            for send in flow.sends { byDevice[send.device, default: []].append(send) }
            sendsByDevice = byDevice
        }

        /// When step `number` began; nil when no step of that number ran.
        func stepStart(_ number: Int) -> VirtualTime? { states.outcome.ledger.start(ofStep: number) }

        /// The changes of `session` that set `key` to `value`, in the order made.
        func writers(of value: String, at key: String, in session: String) -> [Change] {
            writersByEntry.byEntry[EntryKey(session: session, key: key, value: value)] ?? []
        }

        /// The action of step `number`, nil for a number no step has.
        func action(ofStep number: Int) -> Scenario.Action? { actions[number] }

        func contact(_ person: String) -> String { states.outcome.scenario.person(person)?.contactName ?? person }

        /// The message a device sent next after a sighting made while the app wrote it
        /// (a dropped URL, M8): nil when the device sent nothing after it.
        func sentAfter(_ sighting: PitfallSighting) -> Int? {
            sendsByDevice[sighting.device]?.first { $0.time >= sighting.time }?.message
        }

        /// The message that carried a change: the first one its device sent in the
        /// session for the change's step.
        func carrier(of change: Change) -> RunLedger.Carrier? {
            states.outcome.ledger.carrier(device: change.device, session: change.session, step: change.step)
        }

        /// When `device` first had the carrier of `change`: when it sent it, or when its
        /// copy arrived; nil when it never did.
        func firstSeen(_ carrier: RunLedger.Carrier, of change: Change, on device: String) -> VirtualTime? {
            device == change.device ? carrier.time : states.outcome.ledger.arrival(of: carrier, at: device)
        }
    }

    /// A change is lost on a device whose final state neither contains its entries nor
    /// descends from a state that included it (M12; with a cloud store that overwrites, M13),
    /// unless each of its entries was overwritten there by a later change whose maker had
    /// seen it: a lost update is a change that its overwriter never saw, and a sender that
    /// replaces its own earlier value, or one it received, loses nothing.
    static func lostUpdates(_ session: String, _ shown: SessionStates.AppDevicesShow, _ evidence: Evidence) -> [Pitfall] {
        let states = evidence.states
        var found: [Pitfall] = []
        // The session's changes by position, grouped once per run (`SessionStates`).
        let changes = states.sessionIndex(session).map(states.changes(ofSession:)) ?? []
        guard !changes.isEmpty else { return [] }
        // Read out of the outcome once, not once per change and device.
        let allChanges = states.outcome.changes
        let snapshots = states.outcome.devices
        let rule: Rule = states.outcome.scenario.app.state == .message ? "M12" : "M13"
        // Whether a change is missing is decided once per thing shown, not once per device.
        let (devices, shownOn) = (shown.devices, shown.byMessage)
        var kept: [Bool] = []
        kept.reserveCapacity(shownOn.distinct.count)
        for position in changes {
            let change = allChanges[position]
            // One array for every change: each made its own.
            kept.removeAll(keepingCapacity: true)
            kept += shownOn.distinct.lazy.map { shown in
                shown.map { shown in
                    // A state that could not be read is no evidence that the change is missing.
                    shown.unreadable != nil || keeps(change, state: shown.state, provenance: shown.provenance, evidence)
                        // A record a tap fetched before the change was written is out of date,
                        // not missing it: the store, which the next tap reads, decides (M13).
                        || shown.store.map { keeps(change, state: $0.state, provenance: $0.provenance, evidence) } ?? false
                } ?? false
            }
            // Everything shown keeps it: no device lost it.
            guard kept.contains(false) else { continue }
            guard evidence.explained else {
                // The names straight from the positions, into one array made at its size.
                var names: [String] = []
                names.reserveCapacity(devices.count)
                for (device, which) in zip(devices, shownOn.of) where !kept[which] { names.append(snapshots[device].name) }
                if !names.isEmpty {
                    found.append(Pitfall(kind: .lostUpdate, rule: rule, devices: names, message: nil, session: session, summary: "",
                                         explanation: "", fix: ""))
                }
                continue
            }
            // Positions first: what each lost device shows is copied only for an explanation.
            let lostAt = zip(devices, shownOn.of).filter { !kept[$0.1] }
            guard !lostAt.isEmpty else { continue }
            let lost = lostAt.map { (device: states.outcome.devices[$0.0].name, shown: shownOn.distinct[$0.1]) }
            let carrier = evidence.carrier(of: change)
            let what = change.entries.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
            var origin = change.step.map { "step \($0) on \(change.device)" } ?? "on \(change.device)"
            if states.outcome.scenario.app.state == .message, let carrier { origin += ", sent in m\(carrier.message)" }
            let keeping = zip(devices, shownOn.of).filter { kept[$0.1] }.map { states.outcome.devices[$0.0].name }
            let (explanation, fix) = lostUpdateText(change, carrier: carrier, lost: lost, keeping: keeping, evidence)
            found.append(Pitfall(kind: .lostUpdate, rule: rule, devices: lost.map(\.device), message: carrier?.message, session: session,
                                 summary: "\(evidence.contact(change.person))'s change \(what) (\(origin)) is missing from \(session) on "
                                     + "\(lost.map(\.device).joined(separator: ", "))",
                                 explanation: explanation, fix: fix))
        }
        return found
    }

    /// Whether a state with `provenance` keeps `change`: it descends from a state that
    /// included it, holds its entries, or holds later values of them written knowingly.
    static func keeps(_ change: Change, state: StateMap, provenance: Provenance, _ evidence: Evidence) -> Bool {
        provenance.contains(change.id) || state.contains(change.entries) || overwrittenKnowingly(change, in: state, evidence)
    }

    /// Whether every entry of `change` missing from `state` holds there a value written by a
    /// later change whose maker had seen `change`: made on the same device, or after the
    /// message that carried `change` reached its device.
    static func overwrittenKnowingly(_ change: Change, in state: StateMap, _ evidence: Evidence) -> Bool {
        // Looked up when a later value is found: most missing entries have none, and the answer is then false.
        var carrier: RunLedger.Carrier??
        for entry in change.entries where state[entry.key] != entry.value {
            guard let value = state[entry.key] else { return false }
            let found = carrier ?? evidence.carrier(of: change)
            carrier = found
            let writers = evidence.writers(of: value, at: entry.key, in: change.session)
            let saw = writers.contains { later in
                guard later.id > change.id else { return false }
                if later.device == change.device { return true }
                guard let carrier = found, let made = later.step.flatMap(evidence.stepStart),
                      let seen = evidence.firstSeen(carrier, of: change, on: later.device) else { return false }
                return seen <= made
            }
            if !saw { return false }
        }
        return true
    }

    /// The devices whose people joined after the session began, with no bubble of it (M6).
    static func joinedLate(_ session: String, _ late: [Int], _ evidence: Evidence) -> Pitfall {
        let names = late.map { evidence.states.outcome.devices[$0].name }
        guard evidence.explained else {
            return Pitfall(kind: .joinedLate, rule: "M6", devices: names, message: nil, session: session, summary: "", explanation: "",
                           fix: "")
        }
        let conversation = evidence.states.conversation(of: session)
        return Pitfall(kind: .joinedLate, rule: "M6", devices: names, message: nil, session: session,
                       summary: "\(names.joined(separator: ", ")) joined \(conversation) after \(session) began and show\(names.count == 1 ? "s" : "") "
                           + "no bubble of it",
                       explanation: joinedLateExplanation(session, devices: names, conversation: conversation,
                                                          mode: evidence.states.outcome.scenario.app.state),
                       fix: joinedLateFix(registered: evidence.states.outcome.scenario.app.name != nil))
    }

    /// Devices that would show different states for the session if tapped now (M12).
    static func divergence(_ session: String, _ shown: SessionStates.AppDevicesShow, _ evidence: Evidence) -> Pitfall? {
        let states = evidence.states
        let (devices, shownOn) = (shown.devices, shown.byMessage)
        guard evidence.explained else {
            // Whether two things shown to devices read differently is all a verdict needs:
            // no groups are made. A thing shown to no device (a late joiner's) is passed over.
            guard let first = shownOn.of.first else { return nil }
            var used = [Bool](repeating: false, count: shownOn.distinct.count)
            for which in shownOn.of { used[which] = true }
            let reading = SessionStates.Reading(shownOn.distinct[first])
            guard shownOn.distinct.indices.contains(where: { used[$0] && SessionStates.Reading(shownOn.distinct[$0]) != reading }) else {
                return nil
            }
            let snapshots = states.outcome.devices
            return Pitfall(kind: .divergence, rule: "M12", devices: devices.map { snapshots[$0].name }, message: nil,
                           session: session, summary: "", explanation: "", fix: "")
        }
        var groups: [(shown: SessionStates.Reading, devices: [String], from: String)] = []
        // Each thing shown joins the group of its state once; a device then costs an array read.
        // A state that could not be read is a group of its own, as `converged` compares it.
        var groupOfShown: [Int] = []
        var groupOf = FewKeys<SessionStates.Reading>()
        for shown in shownOn.distinct {
            let reading = SessionStates.Reading(shown)
            let (index, inserted) = groupOf.insert(reading)
            groupOfShown.append(index)
            guard inserted else { continue }
            let from = shown.map { "m\($0.message) from \(evidence.contact($0.sender))" } ?? "no bubble"
            groups.append((reading, [], from))
        }
        // How many devices each group has decides; their names are listed for an explanation only.
        var sizes = [Int](repeating: 0, count: groups.count)
        for (_, which) in zip(devices, shownOn.of) { sizes[groupOfShown[which]] += 1 }
        guard sizes.lazy.filter({ $0 > 0 }).count > 1 else { return nil }
        for (device, which) in zip(devices, shownOn.of) {
            groups[groupOfShown[which]].devices.append(states.outcome.devices[device].name)
        }
        // Things shown are listed in the order of the first device showing each, so their
        // groups already come in the order of their first devices.
        groups.removeAll { $0.devices.isEmpty }
        let views = groups.map { group in
            let state = switch group.shown {
            case .state(let state): state.description
            case .noBubble: "nothing"
            case .unreadable: "a state not read"
            }
            return "\(group.devices.joined(separator: ", ")): \(state) (\(group.from))"
        }
        // The story follows the two devices, in different groups, whose views parted first.
        var parting: ViewParting?
        for (index, group) in groups.enumerated() {
            for other in groups.dropFirst(index + 1) {
                let few = group.devices.count * other.devices.count <= 64
                for left in few ? group.devices : [group.devices[0]] {
                    for right in few ? other.devices : [other.devices[0]] {
                        guard let found = evidence.history.parting(left, right, session: session) else { continue }
                        if parting.map({ found.change.traceIndex < $0.change.traceIndex }) ?? true { parting = found }
                    }
                }
            }
        }
        return Pitfall(
            kind: .divergence, rule: "M12", devices: devices.map { states.outcome.devices[$0].name }, message: nil, session: session,
            summary: "devices show \(groups.count) different states for \(session): \(views.joined(separator: "; "))",
            explanation: divergenceExplanation(session, parting: parting, groups: groups.count, mode: states.outcome.scenario.app.state,
                                               fetched: zip(devices, shownOn.of).compactMap { device, which in
                                                   shownOn.distinct[which]?.fetched == true && shownOn.distinct[which]?.store != nil
                                                       && shownOn.distinct[which]?.state != shownOn.distinct[which]?.store?.state
                                                       ? states.outcome.devices[device].name : nil
                                               }),
            fix: states.outcome.scenario.app.name != nil
                ? "Keep the state on your server and fetch it when a bubble is tapped, so every device shows the store's state whatever "
                    + "bubble it kept, and save with a conditional write, merging your change into the server's record on conflict (M13)."
                : "Keep the state on a server and fetch it when a bubble is tapped, so every device shows the store's state whatever "
                    + "bubble it kept, and merge writes atomically there (M13; `app.state: cloud-merge`).")
    }

    /// Pitfalls seen during the run, once per kind, device and detail.
    static func sighted(_ evidence: Evidence) -> [Pitfall] {
        var seen: Set<String> = []
        var found: [Pitfall] = []
        for sighting in evidence.states.outcome.sightings {
            let key = "\(sighting.kind.rawValue)|\(sighting.device)|\(sighting.detail)"
            guard seen.insert(key).inserted else { continue }
            guard evidence.explained else {
                found.append(Pitfall(kind: sighting.kind, rule: sighting.kind.rule, devices: [sighting.device], message: nil,
                                     session: nil, summary: "", explanation: "", fix: ""))
                continue
            }
            // An object shared with another device is about no message.
            let message = sighting.message ?? (sighting.kind == .sharedState ? nil : evidence.sentAfter(sighting))
            let session = message.flatMap { evidence.flow.send(of: $0)?.session }
            found.append(Pitfall(kind: sighting.kind, rule: sighting.kind.rule, devices: [sighting.device], message: message,
                                 session: session, summary: sighting.detail, explanation: explanation(sighting, evidence),
                                 fix: fix(sighting.kind, registered: evidence.states.outcome.scenario.app.name != nil)))
        }
        return found
    }
}
