import GroupSimCore
import GroupSimScenario
import GroupSimSimulation

/// The identity pitfalls, judged on the final states like `lost-update` (M1, M3, M4):
/// a choice whose key the device cannot resolve to a member (`unattributed`), and one
/// person's choice held under two of their devices' keys (`double-count`). Both are
/// found in every `app.state` mode, on the state a device would show if tapped now: the
/// live bubble's URL, or the cloud record it points to.
extension PitfallDetector {
    /// Who a key in the state stands for, as GroupSim knows it (not as a device does).
    struct KeyOwner: Equatable {
        enum Kind: Equatable {
            case participant(ParticipantID)
            case install
            case account
        }

        var kind: Kind
        var person: String
        /// The device that minted or created the key; nil for an account id.
        var device: String?
    }

    /// Every identity key of the run: participant identifiers of every installation,
    /// install ids, account ids. Built once per run; the install ids the first time a key
    /// looks like one (most runs' states hold none, and every device was read for them).
    final class IdentityKeys {
        let devices: [DeviceSnapshot]
        private(set) lazy var installs: [String: (person: String, device: String)] = {
            var installs: [String: (person: String, device: String)] = [:]
            for device in devices {
                for id in device.installIDs { installs[id] = (device.person, device.name) }
            }
            return installs
        }()
        let accounts: [String: String]

        init(outcome: borrowing RunOutcome) {
            devices = outcome.devices
            var accounts: [String: String] = [:]
            // Account ids exist only where the app signs people in: the seed's streams are made only there.
            if outcome.scenario.app.identity == .account {
                let streams = RandomStreams(seed: outcome.seed)
                for person in outcome.scenario.people { accounts[AppIdentity.accountID(streams, person: person.key)] = person.key }
            }
            self.accounts = accounts
        }

        /// nil for a plain key (`q`, `bob`): one the app chose itself.
        func owner(of key: String) -> KeyOwner? {
            if let id = ParticipantID(uuidString: key) {
                for device in devices {
                    for map in device.identifierMaps {
                        if let person = map.person(for: id) { return KeyOwner(kind: .participant(id), person: person, device: device.name) }
                    }
                }
                return nil
            }
            if AppIdentity.isInstallID(key), let install = installs[key] {
                return KeyOwner(kind: .install, person: install.person, device: install.device)
            }
            if AppIdentity.isAccountID(key), let person = accounts[key] { return KeyOwner(kind: .account, person: person, device: nil) }
            return nil
        }

        /// Whether `device`'s app can tell whose choice a key is: a participant identifier
        /// of its current installation (M1, M2), an install id it created or learned from
        /// a message's senderParticipantIdentifier (M3), or an account id.
        func attributable(_ owner: KeyOwner, key: String, on device: DeviceSnapshot, conversation: String) -> Bool {
            let current = device.identifierMaps.first
            switch owner.kind {
            case .participant(let id):
                return current?.person(for: id, in: conversation) != nil
            case .install:
                if device.localStorage[AppIdentity.installKey] == key { return true }
                guard let learned = device.localStorage[AppIdentity.learnedPrefix + key],
                      let id = ParticipantID(uuidString: learned) else { return false }
                return current?.person(for: id, in: conversation) != nil
            case .account:
                return true
            }
        }
    }

    /// `unattributed` once per session and key, `double-count` once per session and person.
    static func identityPitfalls(_ session: String, _ shown: SessionStates.AppDevicesShow, _ evidence: Evidence,
                                 keys: IdentityKeys) -> [Pitfall] {
        let states = evidence.states
        var unattributed: [(key: String, owner: KeyOwner, value: String, devices: [String])] = []
        var doubled: [(person: String, keys: [(key: String, owner: KeyOwner, value: String)], devices: [String])] = []
        guard states.sessionIndex(session) != nil else { return [] }
        // Whose each key is depends only on the state shown, so it is worked out once per
        // live bubble's message; a device whose state has no such key is passed over, and
        // only whether it can attribute a key is asked per device.
        let (devices, shownOn) = (shown.devices, shown.byMessage)
        let owned: [[(entry: Scenario.DataEntry, owner: KeyOwner)]] = shownOn.distinct.map { shown in
            (shown?.state.entries ?? []).compactMap { entry in keys.owner(of: entry.key).map { (entry, $0) } }
        }
        // Most states hold no identity key (each voter writes their own name): nothing to attribute.
        guard owned.contains(where: { !$0.isEmpty }) else { return [] }
        let conversation = states.conversation(of: session)
        for (place, index) in devices.enumerated() {
            let entries = owned[shownOn.of[place]]
            guard !entries.isEmpty else { continue }
            let device = states.outcome.devices[index]
            var byPerson: [(person: String, keys: [(key: String, owner: KeyOwner, value: String)])] = []
            for (entry, owner) in entries {
                if !keys.attributable(owner, key: entry.key, on: device, conversation: conversation) {
                    if let index = unattributed.firstIndex(where: { $0.key == entry.key }) {
                        unattributed[index].devices.append(device.name)
                    } else {
                        unattributed.append((entry.key, owner, entry.value, [device.name]))
                    }
                }
                if let index = byPerson.firstIndex(where: { $0.person == owner.person }) {
                    byPerson[index].keys.append((entry.key, owner, entry.value))
                } else {
                    byPerson.append((owner.person, [(entry.key, owner, entry.value)]))
                }
            }
            for group in byPerson where group.keys.count > 1 {
                if let index = doubled.firstIndex(where: { $0.person == group.person && $0.keys.map(\.key) == group.keys.map(\.key) }) {
                    doubled[index].devices.append(device.name)
                } else {
                    doubled.append((group.person, group.keys, [device.name]))
                }
            }
        }
        var found: [Pitfall] = []
        let mode = states.outcome.scenario.app.state
        let place = mode.usesCloud ? "the store's \(session) record" : "the live bubble's URL"
        // The `app.identity` modes configure the built-in app; a registered app's fix is in its code.
        let registered = states.outcome.scenario.app.name != nil
        func identityMode(_ name: String) -> String { registered ? "" : " (`app.identity: \(name)`)" }
        for item in unattributed {
            let who = evidence.contact(item.owner.person)
            let key = described(item.key, item.owner)
            let devices = listed(item.devices)
            let why: String
            switch item.owner.kind {
            case .participant:
                let own = item.devices.filter { states.outcome.scenario.device($0)?.person == item.owner.person }
                let ownToo = own.isEmpty ? "" : ", \(who)'s own \(listed(own)) included"
                let source = registered ? "the app's own code wrote it, from the conversation's participant identifiers"
                    : "`$me` in data; `app.identity: participant-id`"
                why = "The app keyed \(who)'s choice by \(key), the participant identifier its sender's device has for \(who) "
                    + "(\(source)). Participant identifiers are per device (M1): \(devices) each know \(who) by another UUID, "
                    + "and a UUID minted on one device means nothing on another (M4)\(ownToo). So \(place) there holds "
                    + "\(item.value) under a key the app cannot say whose it is."
            case .install:
                why = "The app keyed \(who)'s choice by \(key), an install id. \(devices) never learned it: a device learns an install id "
                    + "from a message of that installation, matching it with the message's senderParticipantIdentifier (M3), and a "
                    + "reinstall wipes what it had learned (M2). So \(place) there holds \(item.value) under a key the app cannot say "
                    + "whose it is."
            case .account:
                why = "The account id \(key) names nobody in this conversation."
            }
            found.append(Pitfall(
                kind: .unattributed, rule: Scenario.PitfallKind.unattributed.rule, devices: item.devices, message: nil, session: session,
                summary: "\(who)'s choice \(item.value) in \(session) is keyed by \(key), which \(devices) cannot attribute to anyone",
                explanation: why,
                fix: "Key each choice by an id every device can resolve. Have each installation create a random id once, keep it in its "
                    + "own storage (UserDefaults), put it in every message's URL, and record on receipt which senderParticipantIdentifier "
                    + "sent it\(identityMode("install-id")); or sign the user in to your own account system (Sign in with Apple or your "
                    + "server's login) and key by the account id\(identityMode("account"))."))
        }
        for item in doubled {
            let who = evidence.contact(item.person)
            let parts = item.keys.map { "\(described($0.key, $0.owner)) = \($0.value)" }
            let sources = item.keys.compactMap(\.owner.device)
            found.append(Pitfall(
                kind: .doubleCount, rule: Scenario.PitfallKind.doubleCount.rule, devices: item.devices, message: nil, session: session,
                summary: "\(who)'s choice is counted \(times(item.keys.count)) in \(session) on \(listed(item.devices)): \(listed(parts))",
                explanation: "\(who) answered from \(listed(sources)). The app keys a choice by the device it came from: every device of "
                    + "a person has its own participant identifier, even for its owner (M1, M3), and its own install id. So \(place) "
                    + "holds one entry per device, and \(who)'s change of mind on one device did not replace the answer from the other: "
                    + "\(who) is counted \(times(item.keys.count)).",
                fix: "Key each choice by the person, not the device: sign the user in to your own account system (Sign in with Apple or "
                    + "your server's login) and key by the account id, which every device of the person shares\(identityMode("account")). "
                    + "Participant identifiers and install ids are per device and cannot be joined."))
        }
        return found
    }

    static func times(_ count: Int) -> String { count == 2 ? "twice" : "\(count) times" }

    /// `bob-phone's identifier 6F1C2A0B…`, `install id i-3f…`, `account acct-…`.
    static func described(_ key: String, _ owner: KeyOwner) -> String {
        switch owner.kind {
        case .participant: "\(owner.device.map { "\($0)'s identifier" } ?? "the identifier") \(key.prefix(8))…"
        case .install: "\(owner.device.map { "\($0)'s install id" } ?? "the install id") \(key)"
        case .account: "the account id \(key)"
        }
    }
}
