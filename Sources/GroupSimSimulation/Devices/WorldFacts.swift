import GroupSimCore
import GroupSimScenario

/// What every device of a run knows and nobody changes: the people and their contact
/// names, the conversations, the options and the app, and the seed's streams.
final class WorldFacts: Sendable {
    let people: [Person]
    let conversations: [ConversationSpec]
    let options: Options
    let app: AppSpec
    let streams: RandomStreams
    /// The folder of the scenario file, for files it names by a relative path (stickers).
    let scenarioDirectory: String
    private let contactNames: [String: String]
    /// Every device, and how many installations it can have in this run (one plus its
    /// `reinstall` steps), for finding which one minted an identifier (M4).
    private let installations: [(device: String, count: Int)]

    init(scenario: Scenario, seed: UInt64) {
        people = scenario.people
        conversations = scenario.conversations
        options = scenario.options
        app = scenario.app
        streams = RandomStreams(seed: seed)
        let file = scenario.file
        scenarioDirectory = file.contains("/") ? String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)]) : "."
        contactNames = Dictionary(scenario.people.map { ($0.key, $0.contactName) }, uniquingKeysWith: { first, _ in first })
        let steps = scenario.steps
        installations = scenario.devices.map { device in
            (device.name, 1 + steps.filter { $0.device == device.name && $0.action == .reinstall }.count)
        }
    }

    /// The device installation that minted `id`, and for whom: identifiers are minted from
    /// the seed, so every installation of the run can be minted again and asked (M1, M2,
    /// M6). Called only when a device reads an identifier it cannot resolve.
    func minter(of id: ParticipantID) -> (device: String, generation: Int, person: String, conversation: String)? {
        for entry in installations {
            for generation in 0..<entry.count {
                let map = mintIdentifiers(device: entry.device, generation: generation)
                if let person = map.person(for: id) { return (entry.device, generation, person, map.conversation(for: id) ?? "") }
            }
        }
        return nil
    }

    /// `path` as written in the scenario, resolved against the scenario file's folder.
    func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : scenarioDirectory + "/" + path
    }

    /// The name Messages draws for `person` (M5): `name:` or the capitalised key.
    func contactName(_ person: String) -> String { contactNames[person] ?? person }

    /// A fresh identifier set for one installation of the app on one device (M1, M2, M6).
    func mintIdentifiers(device: String, generation: Int) -> IdentifierMap {
        IdentifierMap(device: device, generation: generation, people: people.map(\.key),
                      conversations: conversations.map(\.name),
                      perConversation: options.identifiers == .perConversation, streams: streams)
    }
}
