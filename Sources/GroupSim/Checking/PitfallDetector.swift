/// Finds the pitfalls of a finished run (SCENARIO-FORMAT.md, "Pitfall kinds").
///
/// `lost-update` and `divergence` are judged on the final states (M12, M13); the others
/// were seen while the app read something and are reported once per device and detail.
public enum PitfallDetector {
    public static func detect(_ outcome: RunOutcome) -> [Pitfall] {
        let states = SessionStates(outcome: outcome)
        var found: [Pitfall] = []
        for session in states.sessions {
            found += lostUpdates(session, states)
            if let divergence = divergence(session, states) { found.append(divergence) }
        }
        found += sighted(outcome)
        return found
    }

    /// A change is lost on a device whose final state neither contains its entries nor
    /// descends from a state that included it (M12; with a cloud store that overwrites, M13).
    static func lostUpdates(_ session: String, _ states: SessionStates) -> [Pitfall] {
        let devices = states.appDevices(for: session)
        let mode = states.outcome.scenario.app.state
        var found: [Pitfall] = []
        for change in states.outcome.changes where change.session == session {
            var lostOn: [String] = []
            var shownThere: [String] = []
            for device in devices {
                let shown = states.shown(session, on: device)
                if let shown, shown.provenance.contains(change.id) || shown.state.contains(change.entries) { continue }
                lostOn.append(device.name)
                shownThere.append(shown.map { "\(device.name) shows m\($0.message) from \(states.outcome.scenario.person($0.sender)?.contactName ?? $0.sender) with \($0.state)" }
                                  ?? "\(device.name) shows no bubble of \(session)")
            }
            guard !lostOn.isEmpty else { continue }
            let who = states.outcome.scenario.person(change.person)?.contactName ?? change.person
            let what = change.entries.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
            let step = change.step.map { "step \($0), " } ?? ""
            let rule = mode == .message ? "M12" : "M13"
            let explanation: String
            let fix: String
            switch mode {
            case .message:
                explanation = "The app keeps its whole state in the message URL. \(who)'s change was built on a bubble that another reply was also built on; each device keeps only the bubble that reached it last (M12), so where the other reply arrived last, \(who)'s change is simply gone: \(shownThere.joined(separator: "; "))."
                fix = "Keep the state on a server and let the URL carry only a token; fetch on tap and merge each change atomically at the store (M13; `app.state: cloud-merge`)."
            case .cloudOverwrite:
                explanation = "The app fetched the whole state, changed it and wrote the whole state back. Another reply fetched the same version and wrote after it, overwriting \(who)'s change at the store (M13): \(shownThere.joined(separator: "; "))."
                fix = "Make the write atomic at the store: merge only the changed keys, or compare-and-set on the version and retry (M13; `app.state: cloud-merge`)."
            case .cloudMerge:
                explanation = "The change never reached the store's state that these devices would fetch: \(shownThere.joined(separator: "; ")) (M13)."
                fix = "Check that every device got a bubble of the session (an offline device catches up when it is back, M30)."
            }
            found.append(Pitfall(kind: .lostUpdate, rule: rule, devices: lostOn, message: nil, session: session,
                                 summary: "\(who)'s change \(what) (\(step)\(change.device)) is missing from \(session) on \(lostOn.joined(separator: ", "))",
                                 explanation: explanation, fix: fix))
        }
        return found
    }

    /// Devices that would show different states for the session if tapped now (M12).
    static func divergence(_ session: String, _ states: SessionStates) -> Pitfall? {
        let devices = states.appDevices(for: session)
        var groups: [(shown: StateMap?, devices: [String], from: String)] = []
        for device in devices {
            let shown = states.shown(session, on: device)
            let from = shown.map { "m\($0.message) from \(states.outcome.scenario.person($0.sender)?.contactName ?? $0.sender)" } ?? "no bubble"
            if let index = groups.firstIndex(where: { $0.shown == shown?.state }) {
                groups[index].devices.append(device.name)
            } else {
                groups.append((shown?.state, [device.name], from))
            }
        }
        guard groups.count > 1 else { return nil }
        let views = groups.map { "\($0.devices.joined(separator: ", ")): \($0.shown.map(\.description) ?? "nothing") (\($0.from))" }
        return Pitfall(
            kind: .divergence, rule: "M12", devices: devices.map(\.name), message: nil, session: session,
            summary: "devices show \(groups.count) different states for \(session): \(views.joined(separator: "; "))",
            explanation: "Each device keeps as live bubble the one that reached it last, and arrival order differs per device; a replier even sees the other reply as the survivor, because its own was added when it tapped Send (M11, M12). Nothing reconciles them, so the group no longer agrees on \(session).",
            fix: "Keep the state on a server and fetch it when a bubble is tapped, so every device shows the store's state, and merge writes atomically there (M13; `app.state: cloud-merge`).")
    }

    /// Pitfalls seen during the run, once per kind, device and detail.
    static func sighted(_ outcome: RunOutcome) -> [Pitfall] {
        var seen: Set<String> = []
        var found: [Pitfall] = []
        for sighting in outcome.sightings {
            let key = "\(sighting.kind.rawValue)|\(sighting.device)|\(sighting.detail)"
            guard seen.insert(key).inserted else { continue }
            found.append(Pitfall(kind: sighting.kind, rule: sighting.kind.rule, devices: [sighting.device], message: sighting.message,
                                 session: nil, summary: sighting.detail, explanation: explanation(sighting.kind), fix: fix(sighting.kind)))
        }
        return found
    }

    static func explanation(_ kind: PitfallKind) -> String {
        switch kind {
        case .foreignIdentifier:
            "Participant identifiers are per device: the same person has a different UUID on every device, so a UUID another device wrote into the URL names nobody here (M1, M4)."
        case .staleIdentifier:
            "A reinstall gives the device a completely new set of identifiers, its own included; UUIDs it wrote before mean nothing to it any more (M2)."
        case .staleSelection:
            "The extension sees only the bubble the user tapped; selectedMessage is not refreshed when newer messages of the session arrive, so a reply built on it undoes what came since (M15)."
        case .droppedURL:
            "MSMessage.url keeps only no scheme, http, https or data; any other scheme is silently dropped by the setter, so the message carries no state at all (M8)."
        case .lostUpdate, .divergence:
            "See M12 and M13."
        }
    }

    static func fix(_ kind: PitfallKind) -> String {
        switch kind {
        case .foreignIdentifier:
            "Never send participant UUIDs between devices; send your own stable user ids (from your server), and use `$UUID` only in layout text, which Messages draws as a name (M5)."
        case .staleIdentifier:
            "Do not persist participant identifiers across launches as if they were permanent; map them to your own ids and expect them to change on reinstall (M2)."
        case .staleSelection:
            "Fetch the current state when you build a reply (from your server, M13), or check that the selected message is the session's latest before you apply a change."
        case .droppedURL:
            "Put the state in query items of a URL with no scheme or https (`?key=value`), and check `message.url` after setting it (M8)."
        case .lostUpdate, .divergence:
            "Keep the state on a server and merge writes atomically (M13)."
        }
    }
}
