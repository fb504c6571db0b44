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
    public var remoteParticipantIdentifiers: [ParticipantID]
    /// The tapped bubble, if any (M15, M21).
    public var selectedMessage: Message?
    /// The staged draft in the input field, if any (M16).
    public var draft: Message?
    public var presentationStyle: Scenario.PresentationStyle

    public init(name: String, localParticipantIdentifier: ParticipantID, remoteParticipantIdentifiers: [ParticipantID],
                selectedMessage: Message?, draft: Message?, presentationStyle: Scenario.PresentationStyle) {
        self.name = name
        self.localParticipantIdentifier = localParticipantIdentifier
        self.remoteParticipantIdentifiers = remoteParticipantIdentifiers
        self.selectedMessage = selectedMessage
        self.draft = draft
        self.presentationStyle = presentationStyle
    }
}
