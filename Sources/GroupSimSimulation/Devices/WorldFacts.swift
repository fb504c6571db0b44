import GroupSimCore
import GroupSimScenario

/// What every device of a run knows and nobody changes: the people and their contact
/// names, the conversations, the options and the app, and the seed's streams.
package final class WorldFacts: Sendable {
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
    /// Each sticker file the steps name, read and checked before the run starts, so that
    /// no file is read while it runs (determinism rule 5, README).
    let stickerFiles: [StickerSpec: Result<Sticker, MessageErrorCode>]
    /// Each person's position in `people`: how a device finds an identifier in a map.
    package let personIndex: [String: Int]
    /// Each session a step names, numbered in the order first named: a message of one of
    /// them carries its number, so that a transcript keeps the live bubbles in an array.
    let sessionNumbers: [String: Int]
    /// Each conversation's position in `conversations` (the first, if two share a name).
    let conversationNumbers: [String: Int]

    package init(scenario: Scenario, seed: UInt64) {
        people = scenario.people
        conversations = scenario.conversations
        options = scenario.options
        app = scenario.app
        streams = RandomStreams(seed: seed)
        let file = scenario.file
        scenarioDirectory = file.contains("/") ? String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)]) : "."
        contactNames = Dictionary(scenario.people.map { ($0.key, $0.contactName) }, uniquingKeysWith: { first, _ in first })
        let steps = scenario.steps
        var numbers: [String: Int] = [:]
        var reinstalls: [String: Int] = [:]
        var stickers: [StickerSpec: Result<Sticker, MessageErrorCode>] = [:]
        for step in steps {
            if let session = step.action.session, numbers[session] == nil { numbers[session] = numbers.count }
            switch step.action {
            case .reinstall:
                reinstalls[step.device, default: 0] += 1
            case .sticker(let sticker):
                // A relative path is relative to the scenario file, as a reader of the file expects.
                if case .file(let path, let description) = sticker, stickers[sticker] == nil {
                    stickers[sticker] = Sticker.load(path: path.hasPrefix("/") ? path : scenarioDirectory + "/" + path,
                                                     description: description)
                }
            default:
                break
            }
        }
        installations = scenario.devices.map { ($0.name, 1 + (reinstalls[$0.name] ?? 0)) }
        stickerFiles = stickers
        sessionNumbers = numbers
        conversationNumbers = Dictionary(scenario.conversations.enumerated().map { ($0.element.name, $0.offset) },
                                         uniquingKeysWith: { first, _ in first })
        personIndex = Dictionary(scenario.people.enumerated().map { ($0.element.key, $0.offset) }, uniquingKeysWith: { first, _ in first })
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

    /// The session's number in this run; -1 for one no step names (an app may name any).
    func sessionNumber(_ session: String) -> Int { sessionNumbers[session] ?? -1 }

    /// The name Messages draws for `person` (M5): `name:` or the capitalised key.
    func contactName(_ person: String) -> String { contactNames[person] ?? person }

    /// A fresh identifier set for one installation of the app on one device (M1, M2, M6).
    package func mintIdentifiers(device: String, generation: Int) -> IdentifierMap {
        IdentifierMap(device: device, generation: generation, people: people.map(\.key),
                      conversations: conversations.map(\.name),
                      perConversation: options.identifiers == .perConversation, streams: streams)
    }
}
