import Testing
import GroupSimCore

/// `Message` keeps what every device sees alike in one shared box; it must still behave
/// as a plain value: a changed copy leaves the original alone, and equality and hashing
/// follow what the values hold, not which box they share.
@Suite struct MessageValueTests {
    private static func sample() -> Message {
        Message(id: 3, session: Session(name: "poll"), url: "?pizza=2", layout: TemplateLayout(caption: "Lunch?", subcaption: "2 votes"),
                summaryText: "Alice voted", accessibilityLabel: "poll")
    }

    @Test func aChangedCopyLeavesTheOriginalAlone() {
        let original = Self.sample()
        var copy = original
        copy.url = "?pizza=3"
        copy.layout.caption = "Dinner?"
        copy.summaryText = nil
        copy.session = Session(name: "other")
        copy.accessibilityLabel = "other"
        #expect(original.url == "?pizza=2")
        #expect(original.layout.caption == "Lunch?")
        #expect(original.layout.subcaption == "2 votes")
        #expect(original.summaryText == "Alice voted")
        #expect(original.session?.name == "poll")
        #expect(original.accessibilityLabel == "poll")
        #expect(copy.url == "?pizza=3")
        #expect(copy.layout.caption == "Dinner?")
        #expect(copy.layout.subcaption == "2 votes")
        #expect(copy.summaryText == nil)
        #expect(copy != original)
    }

    @Test func equalValuesInDifferentBoxesAreEqualAndHashAlike() {
        var built = Message(id: 3)
        built.session = Session(name: "poll")
        built.url = "?pizza=2"
        built.layout = TemplateLayout(caption: "Lunch?", subcaption: "2 votes")
        built.summaryText = "Alice voted"
        built.accessibilityLabel = "poll"
        let made = Self.sample()
        #expect(built == made)
        #expect(Set([built, made]).count == 1)
        var other = made
        other.isPending = true
        #expect(other != made)
        other.isPending = false
        other.senderParticipantIdentifier = ParticipantID(bits: 1, 2)
        #expect(other != made)
        #expect(Set([other, made]).count == 2)
    }
}
