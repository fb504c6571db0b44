import Foundation
import GroupSimCore

/// A conversation view's remote identifiers (M6): a list, or what a device needs to work
/// it out, worked out once, the first time an app reads it. A device kept the list it
/// made for each conversation, but made it for the first view of every run: one
/// identifier minted per other member, sorted and shuffled, which the built-in app never
/// reads. What it is made from cannot change under it: the members are a copy, the map
/// is immutable while held, and the order stream's seed is drawn when the view is made.
///
/// `@unchecked Sendable`: the list is made and kept under `lock`, one for every list (a
/// lock each cost a run of the vote six locks made and freed, and apps read them seldom).
final class RemoteIdentifiers: @unchecked Sendable {
    /// How one device lists the other members of one conversation.
    struct Recipe {
        /// The conversation's members, in the order the run keeps them.
        var members: [String]
        /// The device's owner, whom the list leaves out.
        var owner: String
        var identifiers: IdentifierMap
        var tables: ScenarioTables
        var conversation: String
        /// The conversation's number (`WorldFacts.conversationNumber`).
        var number: Int
        /// The seed of the device's order stream for the conversation.
        var orderSeed: UInt64

        /// One identifier per other member, in the seeded order.
        func make() -> [ParticipantID] {
            // By position while the members are the scenario's, without hashing each name.
            let positions = tables.initialPositions(of: members, number: number)
            var ids: [ParticipantID] = []
            ids.reserveCapacity(members.count)
            for (index, person) in members.enumerated() where person != owner {
                let id = positions.map { identifiers.id(forPersonAt: $0[index], person: person, in: conversation) }
                    ?? identifiers.id(for: person, in: conversation)
                if let id { ids.append(id) }
            }
            var generator = SplitMix64(seed: orderSeed)
            ids.sort()
            ids.shuffle(using: &generator)
            return ids
        }
    }

    private static let lock = NSLock()
    private var list: [ParticipantID]?
    /// Dropped once the list is made, with the map it holds.
    private var recipe: Recipe?

    init(_ list: [ParticipantID]) { self.list = list }

    /// No identifiers: shared, as nothing changes it.
    static let none = RemoteIdentifiers([])

    /// `list`, the shared empty one for none.
    static func listing(_ list: [ParticipantID]) -> RemoteIdentifiers { list.isEmpty ? none : RemoteIdentifiers(list) }

    init(_ recipe: Recipe) { self.recipe = recipe }

    var identifiers: [ParticipantID] {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        if let list { return list }
        let made = recipe?.make() ?? []
        list = made
        recipe = nil
        return made
    }
}
