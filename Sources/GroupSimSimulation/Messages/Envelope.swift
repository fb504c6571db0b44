import GroupSimCore
import GroupSimScenario

/// A sent message as it crosses the network: one immutable object shared by every copy.
///
/// Holds what the sender sent plus what only the simulator knows: who really sent it,
/// the identifier map its `$UUID` tokens were minted with (M5), and which state changes
/// it carries (its provenance), used to find lost updates (M12).
package final class Envelope: Sendable {
    package enum Content: Sendable, Hashable {
        /// An interactive message of the app (M7).
        case app(Message)
        /// A plain text message typed by the user.
        case text(String)
        /// A sticker (M28).
        case sticker(Sticker)
    }

    /// The run-wide message number (`m3`), in send order.
    package let id: Int
    package let conversation: String
    package let senderDevice: String
    package let senderPerson: String
    package let sentAt: VirtualTime
    package let content: Content
    /// The sender's identifiers when it sent: how receivers resolve `$UUID` tokens (M5).
    let senderMap: IdentifierMap
    /// The ids of every state change this message's state includes.
    package let provenance: Provenance
    /// The state change this message itself makes, if any.
    let change: Change?
    /// The app message's session name, kept apart so that a transcript need not copy the
    /// whole message to find it.
    let sessionName: String?
    /// The session's number in the run (`WorldFacts.sessionNumber`), or -1 for a session no
    /// step names: transcripts find a session's live bubble by it without hashing its name.
    package let sessionNumber: Int
    /// The conversation's position in the scenario, or -1: a device finds its transcript by it.
    package let conversationNumber: Int
    /// The sender installation's install id, which the built-in app sends with every
    /// message under `app.identity: install-id` (nil otherwise). GroupSim carries it
    /// beside the URL, so that it is not part of the shared state.
    let senderInstall: String?
    /// The sender's position in the scenario's people (-1 when unknown), so a receiver
    /// finds the sender's identifier without hashing the name.
    let senderPosition: Int
    /// The sending device's position in the scenario's devices (-1 when unknown): the
    /// link a copy travels on, asked for every pending copy under a schedule controller.
    package let senderDeviceNumber: Int
    /// The app's state in the message URL (M12), parsed once when the message is sent and
    /// shared by every copy and every device that draws it; empty for a message with no URL.
    package let state: StateMap
    /// The app message's URL and summary text, kept apart like `sessionName`: read on
    /// every delivery, where taking the message out would copy all of its fields.
    let url: String?
    let summaryText: String?
    /// The participant identifiers written in the URL, in order, found once when the
    /// message is sent: every receiver whose app reads it looks for them (M2, M4).
    let identifiersInURL: [ParticipantID]

    /// `given`: the app message URL's state when the caller has read it already (a staged
    /// draft keeps it), the same as reading `message.url` again.
    package init(id: Int, conversation: String, senderDevice: String, senderPerson: String, sentAt: VirtualTime, content: Content,
         senderMap: IdentifierMap, provenance: Provenance, change: Change?, senderInstall: String? = nil, senderPosition: Int = -1,
             sessionNumber: Int = -1,
         conversationNumber: Int = -1, senderDeviceNumber: Int = -1, state given: StateMap? = nil) {
        self.id = id
        self.conversation = conversation
        self.senderDevice = senderDevice
        self.senderPerson = senderPerson
        self.sentAt = sentAt
        self.content = content
        self.senderMap = senderMap
        self.provenance = provenance
        self.change = change
        self.senderInstall = senderInstall
        self.senderPosition = senderPosition
        self.senderDeviceNumber = senderDeviceNumber
        self.conversationNumber = conversationNumber
        if case .app(let message) = content {
            sessionName = message.session?.name
            self.sessionNumber = message.session == nil ? -1 : sessionNumber
            state = given ?? StateMap(url: message.url)
            url = message.url
            summaryText = message.summaryText
            identifiersInURL = message.url.map(ParticipantID.occurrences) ?? []
        } else {
            sessionName = nil
            self.sessionNumber = -1
            state = StateMap()
            url = nil
            summaryText = nil
            identifiersInURL = []
        }
    }

    /// The app message, if this is one.
    package var message: Message? {
        if case .app(let message) = content { return message }
        return nil
    }

    /// `m3`.
    package var label: String { "m\(id)" }
}

/// One state change made by a `send`, `reply` or app write: which entries it set, where
/// and when. A change is *lost* on a device whose final state neither includes it nor
/// descends from a state that did (M12, M13).
package struct Change: Sendable, Hashable {
    package var id: Int
    /// The step that made it (1-based, file order).
    package var step: Int?
    package var device: String
    package var person: String
    package var session: String
    package var entries: [Scenario.DataEntry]
}

/// The set of changes a state descends from. Sorted ids: small, and equal sets compare equal.
package struct Provenance: Sendable, Hashable {
    package private(set) var changes: [Int] = []

    package init() {}

    /// Binary search: a state in a long session descends from many changes.
    package func contains(_ id: Int) -> Bool {
        let index = position(of: id)
        return index < changes.count && changes[index] == id
    }

    package mutating func insert(_ id: Int) {
        let index = position(of: id)
        guard index == changes.count || changes[index] != id else { return }
        changes.insert(id, at: index)
    }

    /// One merge of the two sorted lists.
    package func union(_ other: Provenance) -> Provenance {
        guard !other.changes.isEmpty else { return self }
        guard !changes.isEmpty else { return other }
        var merged: [Int] = []
        merged.reserveCapacity(changes.count + other.changes.count)
        var left = 0
        var right = 0
        while left < changes.count || right < other.changes.count {
            let next: Int
            if right == other.changes.count || (left < changes.count && changes[left] <= other.changes[right]) {
                next = changes[left]
                left += 1
            } else {
                next = other.changes[right]
                right += 1
            }
            if merged.last != next { merged.append(next) }
        }
        var result = Provenance()
        result.changes = merged
        return result
    }

    /// The first position whose id is not below `id`.
    private func position(of id: Int) -> Int {
        var low = 0
        var high = changes.count
        while low < high {
            let middle = (low + high) / 2
            if changes[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
