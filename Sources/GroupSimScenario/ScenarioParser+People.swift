extension ScenarioParser.Context {
    /// Where a person key or device name was first written, so that a second use can point back to it.
    private struct Claim {
        var isPerson: Bool
        var location: Scenario.SourceLocation
    }

    // MARK: people

    /// `people:` person -> `[devices]` or `{devices: [...], name: "..."}`.
    mutating func readPeople(_ node: Node) {
        guard let entries = mapping(node, expected: "a mapping of people to their devices, such as { alice: [alice-phone] }") else {
            knowsAllPeople = false
            knowsAllDevices = false
            return
        }
        if entries.isEmpty {
            report("people is empty; list at least one person and their devices", at: node.location)
        }
        var claims: [String: Claim] = [:]
        for entry in entries {
            guard !entry.key.isEmpty else {
                report("a person needs a non-empty key", at: entry.keyLocation)
                knowsAllDevices = false
                continue
            }
            guard withinNameLimit(entry.key, at: entry.keyLocation) else {
                knowsAllPeople = false
                knowsAllDevices = false
                continue
            }
            if let claim = claims[entry.key] {
                let first = claim.isPerson ? "is listed twice" : "has the same name as a device"
                report("person \(Self.quoted(entry.key)) \(first) (\(place(claim.location)))", at: entry.keyLocation)
                if claim.isPerson { continue }
            } else {
                claims[entry.key] = Claim(isPerson: true, location: entry.keyLocation)
            }
            let (deviceNodes, contactName) = readPerson(entry)
            var names: [String] = []
            for deviceNode in deviceNodes {
                guard let name = name(deviceNode, expected: "a device name") else {
                    knowsAllDevices = false
                    continue
                }
                if let claim = claims[name] {
                    let first = claim.isPerson ? "has the same name as a person" : "is listed twice"
                    report("device \(Self.quoted(name)) \(first) (\(place(claim.location)))", at: deviceNode.location)
                    if !claim.isPerson { continue }
                } else {
                    claims[name] = Claim(isPerson: false, location: deviceNode.location)
                }
                names.append(name)
                deviceIndex[name] = devices.count
                devices.append(Scenario.DeviceSpec(name: name, person: entry.key))
                deviceNames.append(name)
            }
            personIndex[entry.key] = people.count
            people.append(Scenario.Person(key: entry.key, contactName: contactName, devices: names))
            personKeys.append(entry.key)
        }
    }

    /// The device nodes and contact name of one `people:` entry.
    private mutating func readPerson(_ entry: Node.Entry) -> (devices: [Node], contactName: String?) {
        let what = "a list of devices such as [alice-phone], or { devices: [alice-phone], name: Alice }"
        let place = "person \(Self.quoted(entry.key))"
        var deviceList = entry.value
        var contactName: String?
        switch entry.value.value {
        case .sequence:
            break
        case .mapping:
            guard let fields = fields(entry.value, expected: what, place: place, allowed: ScenarioVocabulary.person.keys),
                  let node = required("devices", in: fields, place: place)
            else {
                knowsAllDevices = false
                return ([], nil)
            }
            deviceList = node
            if let node = fields.optional("name") { contactName = name(node, expected: "a contact name") }
        case .scalar:
            expected(what, found: entry.value)
            knowsAllDevices = false
            return ([], nil)
        }
        guard let items = list(deviceList, expected: "a list of devices such as [alice-phone]") else {
            knowsAllDevices = false
            return ([], contactName)
        }
        if items.isEmpty {
            report("\(entry.key) has no devices; list at least one, such as [\(entry.key)-phone]", at: deviceList.location)
        }
        return (items, contactName)
    }

    // MARK: Looking names up

    func person(named key: String) -> Scenario.Person? {
        personIndex[key].map { people[$0] }
    }

    func device(named name: String) -> Scenario.DeviceSpec? {
        deviceIndex[name].map { devices[$0] }
    }

    /// A person key that the file declares; an unknown one is reported with the nearest key.
    mutating func knownPerson(_ node: Node) -> String? {
        guard let key = name(node, expected: "a person") else { return nil }
        if personIndex[key] != nil { return key }
        if knowsAllPeople {
            reportUnknown("person", key, at: node.location, candidates: personKeys)
        }
        return nil
    }

    /// A device name that the file declares; an unknown one is reported with the nearest name.
    mutating func knownDevice(_ node: Node) -> String? {
        guard let name = name(node, expected: "a device name") else { return nil }
        if deviceIndex[name] != nil { return name }
        if knowsAllDevices {
            reportUnknown("device", name, at: node.location, candidates: deviceNames)
        }
        return nil
    }

    // MARK: devices

    /// `devices:` device -> `{platform, app}`.
    mutating func readDeviceSettings(_ node: Node) {
        guard let entries = mapping(node, expected: "a mapping of devices to settings, such as { carol-mac: { platform: macos } }") else {
            return
        }
        for entry in entries {
            let index = deviceIndex[entry.key]
            if index == nil, knowsAllDevices {
                reportUnknown("device", entry.key, at: entry.keyLocation, candidates: deviceNames)
            }
            guard let fields = fields(
                entry.value, expected: "device settings such as { platform: macos, app: missing }",
                place: "device \(Self.quoted(entry.key))", allowed: ScenarioVocabulary.deviceSettings.keys
            ) else { continue }
            var platform: Scenario.DeviceSpec.Platform?
            if let node = fields.optional("platform") { platform = choice(node, of: Scenario.DeviceSpec.Platform.self) }
            var hasApp: Bool?
            if let node = fields.optional("app") { hasApp = word(node, among: ScenarioVocabulary.appPresence).map { $0 == "installed" } }
            if let index {
                if let platform { devices[index].platform = platform }
                if let hasApp { devices[index].hasApp = hasApp }
            }
        }
    }

    // MARK: conversation, conversations

    /// `conversation: [people]` (named `group`), or `conversations: {name: [people]}`, or
    /// neither: one conversation `group` of everyone in file order.
    mutating func readConversations(single: Node.Entry?, several: Node.Entry?) {
        if let single, let several {
            let later = Self.precedes(single.keyLocation, several.keyLocation) ? several : single
            report("give either conversation or conversations, not both", at: later.keyLocation)
            knowsAllConversations = false
        }
        if let single, let members = members(of: Scenario.ConversationSpec.defaultName, single.value, place: "conversation") {
            conversations.append(Scenario.ConversationSpec(members: members))
        }
        if let several {
            guard let entries = mapping(several.value,
                expected: "a mapping of conversations to members, such as { family: [alice, bob] }") else {
                knowsAllConversations = false
                return
            }
            if entries.isEmpty {
                report("conversations is empty; list at least one", at: several.value.location)
            }
            for entry in entries {
                guard !entry.key.isEmpty else {
                    report("a conversation needs a non-empty name", at: entry.keyLocation)
                    knowsAllConversations = false
                    continue
                }
                guard withinNameLimit(entry.key, at: entry.keyLocation) else {
                    knowsAllConversations = false
                    continue
                }
                let place = "conversation \(Self.quoted(entry.key))"
                if let members = members(of: entry.key, entry.value, place: place) {
                    conversations.append(Scenario.ConversationSpec(name: entry.key, members: members))
                }
            }
        }
        if single == nil, several == nil {
            if knowsAllPeople {
                conversations = [Scenario.ConversationSpec(members: people.map(\.key))]
            } else {
                knowsAllConversations = false
            }
        }
    }

    /// The members of one conversation: known people, each once, at least one.
    private mutating func members(of conversation: String, _ node: Node, place: String) -> [String]? {
        guard let items = list(node, expected: "a list of people such as [alice, bob]") else {
            knowsAllConversations = false
            return nil
        }
        if items.isEmpty {
            report("\(place) has no members; list at least one person", at: node.location)
        }
        var members: [String] = []
        var listed: Set<String> = []
        for item in items {
            guard let key = knownPerson(item) else {
                conversationsWithUnreadMembers.insert(conversation)
                continue
            }
            if listed.insert(key).inserted {
                members.append(key)
            } else {
                report("\(key) is listed twice in \(place)", at: item.location)
            }
        }
        return members
    }
}
