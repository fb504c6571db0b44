import GroupSimScenario
import GroupSimSimulation

/// What each device would show for a session if the user tapped it now: the state in
/// the live bubble's URL (`message`), or the cloud record it points to (cloud modes, M13).
struct SessionStates: Sendable {
    struct Shown: Equatable {
        var state: StateMap
        var provenance: Provenance
        /// The live bubble's message and sender, for explanations.
        var message: Int
        var sender: String
    }

    let outcome: RunOutcome
    /// Built once per run so that every question below costs a look-up, not a scan of
    /// every device, member or record: checking every session on every device stays
    /// linear in what the devices show.
    private let appDevicesByConversation: [String: [Int]]
    private let conversationBySession: [String: String]
    private let cloudByKey: [String: Int]
    /// Every session name in the order it first appears: in changes, then on devices.
    let sessions: [String]

    init(outcome: RunOutcome) {
        self.outcome = outcome
        var appDevices: [String: [Int]] = [:]
        for entry in outcome.members where appDevices[entry.conversation] == nil {
            let members = Set(entry.members)
            appDevices[entry.conversation] = outcome.devices.indices.filter { outcome.devices[$0].runsApp && members.contains(outcome.devices[$0].person) }
        }
        appDevicesByConversation = appDevices
        var conversations: [String: String] = [:]
        var names: [String] = []
        var named: Set<String> = []
        for change in outcome.changes where named.insert(change.session).inserted { names.append(change.session) }
        for device in outcome.devices {
            for view in device.sessions {
                if named.insert(view.session).inserted { names.append(view.session) }
                // The first device, in the scenario's order, that shows the session decides.
                if conversations[view.session] == nil, let first = device.session(view.session) {
                    conversations[view.session] = first.conversation
                }
            }
        }
        conversationBySession = conversations
        sessions = names
        var cloud: [String: Int] = [:]
        for (index, entry) in outcome.cloud.enumerated() where cloud[entry.key] == nil { cloud[entry.key] = index }
        cloudByKey = cloud
    }

    /// The devices that run the app and belong to the session's conversation at the end,
    /// in the scenario's order.
    func appDevices(for session: String) -> [DeviceSnapshot] {
        (appDevicesByConversation[conversation(of: session)] ?? []).map { outcome.devices[$0] }
    }

    /// The conversation a session lives in: where any device shows it, else the first.
    func conversation(of session: String) -> String {
        conversationBySession[session] ?? outcome.scenario.conversations.first?.name ?? ConversationSpec.defaultName
    }

    /// nil when the device shows no bubble of the session.
    func shown(_ session: String, on device: DeviceSnapshot) -> Shown? {
        guard let view = device.session(session) else { return nil }
        switch outcome.scenario.app.state {
        case .message:
            return Shown(state: view.urlState, provenance: view.provenance, message: view.message, sender: view.senderPerson)
        case .cloudOverwrite, .cloudMerge, .cloudCAS:
            let key = view.urlState[BuiltInApp.tokenKey] ?? session
            let entry = cloudByKey[key].map { outcome.cloud[$0] }
            return Shown(state: entry?.state ?? StateMap(), provenance: entry?.provenance ?? Provenance(),
                         message: view.message, sender: view.senderPerson)
        }
    }
}
