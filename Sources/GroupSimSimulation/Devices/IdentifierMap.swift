import GroupSimCore
import GroupSimScenario

/// One installation's participant identifiers on one device (M1, M2, M6): immutable, so
/// a sent message can keep a reference to the map its tokens were minted with (M5).
///
/// Keyed by (conversation, person) in per-conversation mode, and by person alone in the
/// default per-device mode, where one person has one identifier on the device whatever
/// the conversation.
///
/// `@unchecked Sendable` for `streams` alone, which `reused` changes only on a map nothing
/// else holds: no other thread can see it then.
package final class IdentifierMap: @unchecked Sendable {
    /// The installation number: 0 at first install, +1 per reinstall (M2).
    package let generation: Int
    /// By conversation slot (one slot in per-device mode) times people plus person position:
    /// each identifier's stream key (shared with the scenario's tables).
    private let keys: [UInt64]
    private var streams: RandomStreams
    /// The identifiers, minted up front only for a map too large to search by minting
    /// (`scanLimit`); a smaller map mints an identifier when it is asked for, which costs
    /// two draws, so that a run whose devices read a few identifiers mints a few.
    private let minted: [ParticipantID]
    /// The people, conversations and mode the slots stand for.
    private let tables: ScenarioTables
    /// By identifier, the slot; built only for a map too large to search (`person(for:)`).
    private let slots: [ParticipantID: Int]

    /// A map above this many identifiers is minted up front and searched through a
    /// dictionary; below, minted on demand and searched by a scan, which costs less than
    /// minting them all in a run that asks a few times.
    private static let scanLimit = 64

    /// The identifiers minted for every person in every conversation (per-conversation
    /// mode) or for every person (per-device mode) for one installation, laid out as
    /// `ScenarioTables.identifierKeys` gives their `keys`. Each identifier is drawn from its
    /// own stream, so adding a person or a conversation never changes the others
    /// (determinism rule 2, README).
    init(generation: Int, keys: [UInt64], streams: RandomStreams, tables: ScenarioTables) {
        self.generation = generation
        self.keys = keys
        self.streams = streams
        self.tables = tables
        if keys.count > Self.scanLimit {
            let ids = keys.map { ParticipantID.mint(streams, key: $0) }
            minted = ids
            slots = Dictionary(ids.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { _, last in last })
        } else {
            minted = []
            slots = [:]
        }
    }

    /// `map`, if it mints on demand and nothing else holds it, as `init` makes it with
    /// the same generation and keys from `streams` (another run's seed); nil otherwise.
    /// A restart keeps the first installation's map of a device no sent message kept
    /// instead of freeing it and making one.
    static func reused(_ map: inout IdentifierMap, streams: RandomStreams) -> IdentifierMap? {
        guard map.minted.isEmpty, isKnownUniquelyReferenced(&map) else { return nil }
        map.streams = streams
        return map
    }

    /// The identifier in `slot`.
    private func id(at slot: Int) -> ParticipantID {
        minted.isEmpty ? ParticipantID.mint(streams, key: keys[slot]) : minted[slot]
    }

    /// `id(for:in:)` for the person at `position` in the scenario's people, without hashing
    /// a name: what a device asks for the sender of every copy it draws or hands its app.
    package func id(forPersonAt position: Int, person: String, in conversation: String) -> ParticipantID? {
        guard !tables.perConversation, keys.indices.contains(position) else { return id(for: person, in: conversation) }
        return id(at: position)
    }

    /// This device's identifier for `person` in `conversation` (M1, M6).
    package func id(for person: String, in conversation: String) -> ParticipantID? {
        guard let position = tables.personIndex[person] else { return nil }
        guard tables.perConversation else { return keys.indices.contains(position) ? id(at: position) : nil }
        guard let slot = tables.conversationSlot(conversation), keys.indices.contains(slot * tables.personKeys.count + position) else {
            return nil
        }
        return id(at: slot * tables.personKeys.count + position)
    }

    /// The person an identifier of this map stands for, or nil when this map never minted it (M4).
    package func person(for id: ParticipantID) -> String? {
        slot(of: id).map { tables.personKeys[$0 % tables.personKeys.count] }
    }

    /// The position in the scenario's people of the person an identifier of this map
    /// stands for (`person(for:)` is the key there), or nil when this map never minted it.
    func personPosition(for id: ParticipantID) -> Int? {
        slot(of: id).map { $0 % tables.personKeys.count }
    }

    /// The conversation an identifier of this map was minted for (per-conversation mode,
    /// M6); empty in per-device mode; nil when this map never minted it.
    package func conversation(for id: ParticipantID) -> String? {
        slot(of: id).map { tables.perConversation ? tables.scenario.conversations[$0 / tables.personKeys.count].name : "" }
    }

    /// The person an identifier stands for in `conversation`; in per-conversation mode an
    /// identifier minted for another conversation is foreign here (M6).
    package func person(for id: ParticipantID, in conversation: String) -> String? {
        guard let person = person(for: id) else { return nil }
        return tables.perConversation && self.conversation(for: id) != conversation ? nil : person
    }

    /// Where `id` is among the slots: the last place, as a map keyed by identifier would keep.
    private func slot(of id: ParticipantID) -> Int? {
        if !minted.isEmpty { return slots[id] }
        return keys.indices.last { self.id(at: $0) == id }
    }
}
