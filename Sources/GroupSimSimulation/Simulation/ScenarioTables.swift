import GroupSimCore
import GroupSimScenario

/// What every run of one scenario builds alike, whatever its seed: the people, devices
/// and conversations with their numbers, each link's delays, the seed-free part of every
/// random stream's name, and the sticker files the steps name, read once.
///
/// Exploration and benchmarks make one and hand it to each `Simulation`, so a run pays
/// only for what its seed changes.
package final class ScenarioTables: Sendable {
    let scenario: Scenario
    /// The folder of the scenario file, for files it names by a relative path (stickers).
    let scenarioDirectory: String
    let contactNames: [String: String]
    /// `contactNames` of each person by position in the people (the key when it has none):
    /// a drawn token's person is found by position, and its name then costs no hash.
    let contactNamesByPosition: [String]
    /// Every device, and how many installations it can have in a run (one plus its
    /// `reinstall` steps), for finding which one minted an identifier (M4).
    let installations: [(device: String, count: Int)]
    /// Each sticker file the steps name, read and checked before any run starts, so that
    /// no file is read while one runs (determinism rule 5, README).
    let stickerFiles: [Scenario.StickerSpec: Result<Sticker, MessageErrorCode>]
    /// Each person's position in the scenario's people: how a device finds an identifier in a map.
    let personIndex: [String: Int]
    /// Each person's key, by position.
    let personKeys: [String]
    /// Each session a step names, numbered in the order first named: a message of one of
    /// them carries its number, so that a transcript keeps the live bubbles in an array.
    let sessionNumbers: [String: Int]
    /// Each conversation's position in the scenario's conversations (the first, if two share a name).
    let conversationNumbers: [String: Int]
    /// Each device's position in the scenario's devices.
    let deviceIndex: [String: Int]
    /// Each conversation's members at the start (the first, if two share a name).
    let initialMembers: [String: [String]]
    /// `initialMembers` by conversation number, and each of their people by position in
    /// the scenario's people (-1: not listed).
    let initialMembersByNumber: [[String]]
    let initialMemberPositions: [[Int]]
    /// Each device's first installation's order stream key (`remoteIdentifiers`) in each
    /// conversation, device-major: worked out once, not hashed from names in every run.
    let orderKeys: [UInt64]
    /// The devices of each conversation's starting members, by position: in member order
    /// and each person's device order, as a run fans a message out until someone joins or leaves.
    let initialMemberDevices: [String: [Int]]
    /// Each person's conversations at the start, for every device of theirs to begin with.
    let initialConversations: [String: Set<String>]
    /// The same by person's position in the scenario's people, for a device that knows it.
    let initialConversationsByPerson: [Set<String>]
    /// Whether identifiers are minted per conversation (M6) rather than per device.
    let perConversation: Bool
    /// The identifiers' stream keys, by device position, then installation, then
    /// conversation slot (one slot in per-device mode) times people plus person.
    private let identifierKeys: [[[UInt64]]]
    /// The conversations identifiers are minted for: every one in per-conversation mode,
    /// one unnamed slot in per-device mode.
    private let identifierSlots: [String]
    /// Each ordered pair of devices' latency and jitter, sender-major; empty when every
    /// link has the network's base values (`baseDelay`).
    let linkDelays: [LinkDelay]
    let baseDelay: LinkDelay
    /// Each ordered pair's latency stream key, sender-major.
    let linkKeys: [UInt64]
    /// The steps as the scheduler plans them: their events, windows and, without races,
    /// their order.
    let steps: StepPlan
    /// Per conversation (by number): each device's column in the run ledger's row of a
    /// message of that conversation (-1: the device is never a member), at `conversation *
    /// devices + device` in one array, and the row's width. A device can be a member when
    /// its person is one at the start or joins later.
    let ledgerColumns: [Int32]
    let ledgerWidths: [Int]

    /// A link's delay: latency plus a draw in [0, jitter).
    struct LinkDelay: Sendable {
        var latency: Int64
        var jitter: UInt64
    }

    package init(scenario: Scenario) {
        self.scenario = scenario
        let file = scenario.file
        scenarioDirectory = file.contains("/") ? String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)]) : "."
        let contactNames = Dictionary(scenario.people.map { ($0.key, $0.contactName) }, uniquingKeysWith: { first, _ in first })
        self.contactNames = contactNames
        var numbers: [String: Int] = [:]
        var reinstalls: [String: Int] = [:]
        var stickers: [Scenario.StickerSpec: Result<Sticker, MessageErrorCode>] = [:]
        // Flattened once: every use below walks the same list.
        let allSteps = scenario.steps
        for step in allSteps {
            if let session = step.action.session, numbers[session] == nil { numbers[session] = numbers.count }
            switch step.action.kind.built.preload {
            case .none:
                break
            case .installation:
                reinstalls[step.device, default: 0] += 1
            case .stickerFile:
                if case .sticker(let sticker) = step.action, case .file(let path, let description) = sticker, stickers[sticker] == nil {
                    stickers[sticker] = Sticker.load(path: scenario.stickerPath(path), description: description)
                }
            }
        }
        let installations = scenario.devices.map { (device: $0.name, count: 1 + (reinstalls[$0.name] ?? 0)) }
        self.installations = installations
        stickerFiles = stickers
        sessionNumbers = numbers
        conversationNumbers = Dictionary(scenario.conversations.enumerated().map { ($0.element.name, $0.offset) },
                                         uniquingKeysWith: { first, _ in first })
        let personKeys = scenario.people.map(\.key)
        self.personKeys = personKeys
        contactNamesByPosition = personKeys.map { contactNames[$0] ?? $0 }
        let personIndex = Dictionary(personKeys.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        self.personIndex = personIndex
        let deviceIndex = Dictionary(scenario.devices.enumerated().map { ($0.element.name, $0.offset) },
                                     uniquingKeysWith: { _, last in last })
        self.deviceIndex = deviceIndex
        steps = StepPlan(scenario: scenario, deviceIndex: deviceIndex)
        let members = Dictionary(scenario.conversations.map { ($0.name, $0.members) }, uniquingKeysWith: { first, _ in first })
        initialMembers = members
        let membersByNumber = scenario.conversations.map { members[$0.name] ?? $0.members }
        initialMembersByNumber = membersByNumber
        initialMemberPositions = membersByNumber.map { people in people.map { personIndex[$0] ?? -1 } }
        orderKeys = scenario.devices.flatMap { device in
            scenario.conversations.map { RandomStreams.key(.order, [device.name, "0", $0.name]) }
        }
        initialMemberDevices = members.mapValues { people in Self.devices(of: people, in: scenario, deviceIndex: deviceIndex) }
        var conversationsOf: [String: Set<String>] = [:]
        for (conversation, people) in members {
            for person in people { conversationsOf[person, default: []].insert(conversation) }
        }
        initialConversations = conversationsOf
        initialConversationsByPerson = scenario.people.map { conversationsOf[$0.key] ?? [] }
        var joiners: [String] = []
        var joined: Set<String> = []
        for step in allSteps {
            if case .join(let person) = step.action, joined.insert(person).inserted { joiners.append(person) }
        }
        let count = scenario.devices.count
        var columns = [Int32](repeating: -1, count: scenario.conversations.count * count)
        var widths: [Int] = []
        for (number, conversation) in scenario.conversations.enumerated() {
            var width = 0
            for device in Self.devices(of: conversation.members + joiners, in: scenario, deviceIndex: deviceIndex)
            where columns[number * count + device] < 0 {
                columns[number * count + device] = Int32(width)
                width += 1
            }
            widths.append(width)
        }
        ledgerColumns = columns
        ledgerWidths = widths
        perConversation = scenario.options.identifiers == .perConversation
        let slots = perConversation ? scenario.conversations.map(\.name) : [""]
        identifierSlots = slots
        identifierKeys = installations.map { entry in
            (0..<entry.count).map { Self.identifierKeys(device: entry.device, generation: $0, slots: slots, people: personKeys) }
        }
        let network = scenario.network
        baseDelay = LinkDelay(latency: network.latency.nanoseconds, jitter: UInt64(max(0, network.jitter.nanoseconds)))
        let devices = scenario.devices
        linkKeys = devices.flatMap { from in devices.map { RandomStreams.key(.latency, [from.name, $0.name]) } }
        linkDelays = network.links.isEmpty ? [] : devices.flatMap { from in
            devices.map { to in
                var latency = network.latency
                var jitter = network.jitter
                // Each `links:` entry that matches, in file order, the last match winning.
                for link in network.links where Self.matches(link.from, from) && Self.matches(link.to, to) {
                    latency = link.latency ?? latency
                    jitter = link.jitter ?? jitter
                }
                return LinkDelay(latency: latency.nanoseconds, jitter: UInt64(max(0, jitter.nanoseconds)))
            }
        }
    }

    /// The devices of `people`, by position: in their order and each person's device order.
    static func devices(of people: [String], in scenario: Scenario, deviceIndex: [String: Int]) -> [Int] {
        var found: [Int] = []
        for person in people {
            guard let owner = scenario.person(person) else { continue }
            found += owner.devices.compactMap { deviceIndex[$0] }
        }
        return found
    }

    private static func matches(_ endpoint: Scenario.LinkSpec.Endpoint, _ device: Scenario.DeviceSpec) -> Bool {
        switch endpoint {
        case .device(let name): name == device.name
        case .person(let key): key == device.person
        }
    }

    /// The delay of the link from the device at `sender` to the one at `receiver`.
    func delay(from sender: Int, to receiver: Int) -> LinkDelay {
        linkDelays.isEmpty ? baseDelay : linkDelays[sender * scenario.devices.count + receiver]
    }

    /// The link a copy travels on: sender and receiver as one index.
    func link(of envelope: Envelope, to receiver: Int) -> Int? {
        sender(of: envelope).map { $0 * scenario.devices.count + receiver }
    }

    /// The sending device's position: the one the message carries, else (a message made
    /// outside a device, by a test harness) looked up by name.
    func sender(of envelope: Envelope) -> Int? {
        envelope.senderDeviceNumber >= 0 ? envelope.senderDeviceNumber : deviceIndex[envelope.senderDevice]
    }

    /// The slot of `conversation`'s identifiers in a per-conversation `IdentifierMap`.
    func conversationSlot(_ conversation: String) -> Int? { conversationNumbers[conversation] }

    /// The positions of `members`' people when they are the conversation's members at the
    /// start, the very list the tables handed out (compared by storage first, so at once);
    /// nil when the list changed since (a join or a leave): then names are looked up.
    /// `number`: the conversation's (`conversationNumbers`), -1 for none.
    func initialPositions(of members: [String], number: Int) -> [Int]? {
        guard initialMembersByNumber.indices.contains(number), initialMembersByNumber[number] == members else { return nil }
        return initialMemberPositions[number]
    }

    /// The seed-free key of the order stream of installation `generation` of the device
    /// at `device` in the conversation numbered `number`: the same as naming it
    /// (`.order`, the device, the installation, the conversation).
    func orderKey(device: Int, generation: Int, conversation number: Int, named conversation: String, deviceName: String) -> UInt64 {
        let count = scenario.conversations.count
        guard generation == 0, device >= 0, number >= 0, number < count, device * count + number < orderKeys.count else {
            return RandomStreams.key(.order, [deviceName, String(generation), conversation])
        }
        return orderKeys[device * count + number]
    }

    /// The identifiers' stream keys of `device`'s installation `generation`, as
    /// `IdentifierMap` lays them out: looked up for the scenario's devices and
    /// installations, worked out for any other (a test harness's sender).
    /// The keys of the identifiers installation `generation` of the device at `index`
    /// mints, without hashing its name.
    func identifierKeys(deviceAt index: Int, generation: Int) -> [UInt64]? {
        identifierKeys.indices.contains(index) && identifierKeys[index].indices.contains(generation) ? identifierKeys[index][generation] : nil
    }

    func identifierKeys(device: String, generation: Int) -> [UInt64] {
        if let index = deviceIndex[device], let keys = identifierKeys(deviceAt: index, generation: generation) { return keys }
        return Self.identifierKeys(device: device, generation: generation, slots: identifierSlots, people: personKeys)
    }

    private static func identifierKeys(device: String, generation: Int, slots: [String], people: [String]) -> [UInt64] {
        var keys: [UInt64] = []
        keys.reserveCapacity(slots.count * people.count)
        for conversation in slots {
            for person in people { keys.append(RandomStreams.key(.identifiers, [device, String(generation), conversation, person])) }
        }
        return keys
    }
}
