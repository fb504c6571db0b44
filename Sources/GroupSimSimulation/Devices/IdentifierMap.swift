import GroupSimCore
import GroupSimScenario

/// One installation's participant identifiers on one device (M1, M2, M6): immutable, so
/// a sent message can keep a reference to the map its tokens were minted with (M5).
///
/// Keyed by (conversation, person) in per-conversation mode, and by person alone in the
/// default per-device mode, where one person has one identifier on the device whatever
/// the conversation.
package final class IdentifierMap: Sendable {
    /// The installation number: 0 at first install, +1 per reinstall (M2).
    public let generation: Int
    /// Per-conversation mode: by (conversation, person).
    private let byKey: [Key: ParticipantID]
    /// Per-device mode: by person (the conversation does not matter).
    private let byPerson: [String: ParticipantID]
    private let byID: [ParticipantID: (conversation: String, person: String)]
    /// Per-device mode: by the person's position in the scenario's people (`id(forPersonAt:)`).
    private let byPosition: [ParticipantID]
    private let perConversation: Bool

    /// Mints identifiers for every person in every conversation for `device`'s installation
    /// `generation`. Each identifier is drawn from its own stream, so adding a person or a
    /// conversation never changes the others (determinism rule 2, README).
    init(device: String, generation: Int, people: [String], conversations: [String], perConversation: Bool, streams: RandomStreams) {
        self.generation = generation
        self.perConversation = perConversation
        var byKey: [Key: ParticipantID] = [:]
        var byPerson: [String: ParticipantID] = [:]
        var byID: [ParticipantID: (conversation: String, person: String)] = [:]
        var byPosition: [ParticipantID] = []
        for conversation in perConversation ? conversations : [""] {
            for person in people {
                let id = ParticipantID.mint(streams, device, String(generation), conversation, person)
                if perConversation {
                    byKey[Key(conversation: conversation, person: person)] = id
                } else {
                    byPerson[person] = id
                    byPosition.append(id)
                }
                byID[id] = (conversation, person)
            }
        }
        self.byKey = byKey
        self.byPerson = byPerson
        self.byID = byID
        self.byPosition = byPosition
    }

    /// `id(for:in:)` for the person at `position` in the scenario's people, without hashing
    /// a name: what a device asks for the sender of every copy it draws or hands its app.
    public func id(forPersonAt position: Int, person: String, in conversation: String) -> ParticipantID? {
        guard !perConversation, byPosition.indices.contains(position) else { return id(for: person, in: conversation) }
        return byPosition[position]
    }

    /// This device's identifier for `person` in `conversation` (M1, M6).
    public func id(for person: String, in conversation: String) -> ParticipantID? {
        perConversation ? byKey[Key(conversation: conversation, person: person)] : byPerson[person]
    }

    /// The person an identifier of this map stands for, or nil when this map never minted it (M4).
    public func person(for id: ParticipantID) -> String? { byID[id]?.person }

    /// The conversation an identifier of this map was minted for (per-conversation mode,
    /// M6); empty in per-device mode; nil when this map never minted it.
    public func conversation(for id: ParticipantID) -> String? { byID[id]?.conversation }

    /// The person an identifier stands for in `conversation`; in per-conversation mode an
    /// identifier minted for another conversation is foreign here (M6).
    public func person(for id: ParticipantID, in conversation: String) -> String? {
        guard let entry = byID[id] else { return nil }
        return perConversation && entry.conversation != conversation ? nil : entry.person
    }

    private struct Key: Hashable {
        var conversation: String
        var person: String
    }
}
