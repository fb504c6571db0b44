/// What each device would show for a session if the user tapped it now: the state in
/// the live bubble's URL (`message`), or the cloud record it points to (cloud modes, M13).
struct SessionStates {
    struct Shown: Equatable {
        var state: StateMap
        var provenance: Provenance
        /// The live bubble's message and sender, for explanations.
        var message: Int
        var sender: String
    }

    let outcome: RunOutcome

    /// The devices that run the app and belong to the session's conversation at the end,
    /// in the scenario's order.
    func appDevices(for session: String) -> [DeviceSnapshot] {
        let conversation = conversation(of: session)
        let members = outcome.members.first { $0.conversation == conversation }?.members ?? []
        return outcome.devices.filter { $0.runsApp && members.contains($0.person) }
    }

    /// The conversation a session lives in: where any device shows it, else the first.
    func conversation(of session: String) -> String {
        for device in outcome.devices {
            if let view = device.session(session) { return view.conversation }
        }
        return outcome.scenario.conversations.first?.name ?? ConversationSpec.defaultName
    }

    /// nil when the device shows no bubble of the session.
    func shown(_ session: String, on device: DeviceSnapshot) -> Shown? {
        guard let view = device.session(session) else { return nil }
        switch outcome.scenario.app.state {
        case .message:
            return Shown(state: view.urlState, provenance: view.provenance, message: view.message, sender: view.senderPerson)
        case .cloudOverwrite, .cloudMerge, .cloudCAS:
            let key = view.urlState[BuiltInApp.tokenKey] ?? session
            let entry = outcome.cloud.first { $0.key == key }
            return Shown(state: entry?.state ?? StateMap(), provenance: entry?.provenance ?? Provenance(),
                         message: view.message, sender: view.senderPerson)
        }
    }

    /// Every session name in the order it first appears: in changes, then on devices.
    var sessions: [String] {
        var names: [String] = []
        for change in outcome.changes where !names.contains(change.session) { names.append(change.session) }
        for device in outcome.devices {
            for view in device.sessions where !names.contains(view.session) { names.append(view.session) }
        }
        return names
    }
}
