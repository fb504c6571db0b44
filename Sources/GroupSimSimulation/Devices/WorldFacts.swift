import GroupSimCore
import GroupSimScenario

/// What every device of a run knows and nobody changes: the people and their contact
/// names, the conversations, the options and the app, and the seed's streams.
package final class WorldFacts: Sendable {
    /// What does not depend on the seed, shared by every run of the scenario.
    let tables: ScenarioTables
    let streams: RandomStreams

    var people: [Scenario.Person] { tables.scenario.people }
    var conversations: [Scenario.ConversationSpec] { tables.scenario.conversations }
    /// Kept apart from the scenario, read on every delivered copy: reaching them through
    /// `tables.scenario` copied (and retained) more of the scenario than the one field.
    let options: Scenario.Options
    let app: Scenario.AppSpec
    /// What the run's extensions share by running in one process (`ExtensionProcess`).
    let extensionProcess = ExtensionProcess()
    /// The folder of the scenario file, for files it names by a relative path (stickers).
    var scenarioDirectory: String { tables.scenarioDirectory }
    /// Each sticker file the steps name, read and checked before the run starts, so that
    /// no file is read while it runs (determinism rule 5, README).
    var stickerFiles: [Scenario.StickerSpec: Result<Sticker, MessageErrorCode>] { tables.stickerFiles }
    /// Each person's position in `people`: how a device finds an identifier in a map.
    package var personIndex: [String: Int] { tables.personIndex }
    /// Each session a step names, numbered in the order first named: a message of one of
    /// them carries its number, so that a transcript keeps the live bubbles in an array.
    var sessionNumbers: [String: Int] { tables.sessionNumbers }
    /// Each conversation's position in `conversations` (the first, if two share a name).
    var conversationNumbers: [String: Int] { tables.conversationNumbers }

    /// `conversationNumbers[name] ?? -1`, the number a send and a live-bubble look-up ask for.
    func conversationNumber(_ name: String) -> Int { tables.conversationNumbers[name] ?? -1 }

    package convenience init(scenario: Scenario, seed: UInt64) {
        self.init(tables: ScenarioTables(scenario: scenario), seed: seed)
    }

    package init(tables: ScenarioTables, seed: UInt64) {
        self.tables = tables
        streams = RandomStreams(seed: seed)
        options = tables.scenario.options
        app = tables.scenario.app
    }

    /// The device installation that minted `id`, and for whom: identifiers are minted from
    /// the seed, so every installation of the run can be minted again and asked (M1, M2,
    /// M6). Called only when a device reads an identifier it cannot resolve.
    func minter(of id: ParticipantID) -> (device: String, generation: Int, person: String, conversation: String)? {
        for entry in tables.installations {
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
    func contactName(_ person: String) -> String { tables.contactNames[person] ?? person }

    /// `contactName` of the person at `position` in the people.
    func contactName(at position: Int) -> String { tables.contactNamesByPosition[position] }

    /// A fresh identifier set for one installation of the app on one device (M1, M2, M6).
    /// `index`: the device's position in the scenario's devices, when the caller knows it.
    package func mintIdentifiers(device: String, at index: Int? = nil, generation: Int) -> IdentifierMap {
        let keys = index.flatMap { tables.identifierKeys(deviceAt: $0, generation: generation) }
            ?? tables.identifierKeys(device: device, generation: generation)
        return IdentifierMap(generation: generation, keys: keys, streams: streams, tables: tables)
    }
}
