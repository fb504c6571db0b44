/// The first event at which two devices' views of a session parted (M11, M12): what they
/// had agreed on, what one of them then showed while the other still showed something
/// else, and where each ended.
package struct ViewParting: Sendable, Hashable {
    package var session: String
    package var first: String
    package var second: String
    /// The messages both devices showed as the live bubble, in order, before they parted.
    package var agreed: [Int]
    /// The change that parted them: the earlier of the two first differing changes.
    package var change: ViewHistory.Change
    /// What the other device still showed at that moment (nil: nothing of the session).
    package var otherShowed: Int?
    /// The other device's own next change, which differs from `change`; nil when it
    /// never showed another bubble of the session.
    package var otherNext: ViewHistory.Change?
    package var finalFirst: Int?
    package var finalSecond: Int?

    /// The device that did not make `change`.
    package var other: String { change.device == first ? second : first }

    /// One paragraph: `alice-phone and carol-phone agreed on poll until 501ms (both
    /// showed m1); then alice-phone sent m3 while carol-phone still showed m1, and
    /// carol-phone went on to m4 instead (it sent m4 at 502ms). In the end alice-phone
    /// shows m2 and carol-phone shows m3.`
    package var description: String {
        let showed = otherShowed.map { "still showed m\($0)" } ?? "showed nothing of \(session) yet"
        var text = "\(first) and \(second) agreed on \(session) until \(change.time) (\(Self.agreement(agreed))); "
        text += "then \(change.device) \(change.action) while \(other) \(showed)"
        if let next = otherNext {
            let how = next.wasSent ? "it sent m\(next.message)" : "m\(next.message) from \(next.from) reached it"
            text += ", and \(other) went on to m\(next.message) instead (\(how) at \(next.time))"
        } else {
            text += ", and \(other) never showed another bubble of \(session)"
        }
        text += ". In the end \(first) shows \(Self.shown(finalFirst)) and \(second) shows \(Self.shown(finalSecond))."
        return text
    }

    static func agreement(_ agreed: [Int]) -> String {
        guard !agreed.isEmpty else { return "neither showed a bubble of it" }
        let names = agreed.map { "m\($0)" }
        let listed = names.count > 4 ? ["…"] + names.suffix(3) : names
        return "both showed " + listed.joined(separator: " then ")
    }

    static func shown(_ message: Int?) -> String { message.map { "m\($0)" } ?? "no bubble" }
}
