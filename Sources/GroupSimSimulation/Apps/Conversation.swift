import GroupSimCore
import GroupSimScenario

/// `MSConversation`: one device's view of one conversation, as the app sees it now.
///
/// Identifiers are this device's own (M1); `selectedMessage` is the bubble the user
/// tapped and is not refreshed when newer messages of its session arrive (M15).
public struct Conversation: Sendable, Hashable {
    /// The conversation's name in the scenario (`group` for the single-conversation form).
    public var name: String
    /// This device's identifier for its owner (M1).
    public var localParticipantIdentifier: ParticipantID
    /// One identifier per other member, in this device's seeded order (M6).
    public var remoteParticipantIdentifiers: [ParticipantID] {
        get { remote.identifiers }
        set { remote = .listing(newValue) }
    }
    /// `remoteParticipantIdentifiers`, worked out the first time something reads them: a
    /// device hands its app a view on every callback, and most apps never read the list.
    private var remote: RemoteIdentifiers
    /// The tapped bubble, if any (M15, M21).
    public var selectedMessage: Message?
    /// The staged draft in the input field, if any (M16).
    public var draft: Message?
    public var presentationStyle: Scenario.PresentationStyle

    public init(name: String, localParticipantIdentifier: ParticipantID, remoteParticipantIdentifiers: [ParticipantID],
                selectedMessage: Message?, draft: Message?, presentationStyle: Scenario.PresentationStyle) {
        self.init(name: name, localParticipantIdentifier: localParticipantIdentifier, remote: .listing(remoteParticipantIdentifiers),
                  selectedMessage: selectedMessage, draft: draft, presentationStyle: presentationStyle)
    }

    /// A view whose remote identifiers `remote` works out when they are read.
    init(name: String, localParticipantIdentifier: ParticipantID, remote: RemoteIdentifiers, selectedMessage: Message?, draft: Message?,
         presentationStyle: Scenario.PresentationStyle) {
        self.name = name
        self.localParticipantIdentifier = localParticipantIdentifier
        self.remote = remote
        self.selectedMessage = selectedMessage
        self.draft = draft
        self.presentationStyle = presentationStyle
    }

    /// Equal when everything the app can read is: the identifiers compared as lists.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.localParticipantIdentifier == rhs.localParticipantIdentifier
            && lhs.remoteParticipantIdentifiers == rhs.remoteParticipantIdentifiers && lhs.selectedMessage == rhs.selectedMessage
            && lhs.draft == rhs.draft && lhs.presentationStyle == rhs.presentationStyle
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(localParticipantIdentifier)
        hasher.combine(remoteParticipantIdentifiers)
        hasher.combine(selectedMessage)
        hasher.combine(draft)
        hasher.combine(presentationStyle)
    }
}
