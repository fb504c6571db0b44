/// The words the lessons, the reports and the docs use in one sense only, each defined
/// in one line: `groupsim help terms` lists them, docs/terms.md says the same, and each
/// lesson defines the ones it is the first to use (`Lesson.terms`) before it uses them.
package struct Term: Sendable, Hashable {
    /// The term as written: `live bubble`.
    package var name: String
    /// One line: what it means here.
    package var definition: String
    /// Every spelling that counts as a use, lower case (`live bubble`, `live bubbles`).
    package var forms: [String]

    package init(_ name: String, _ definition: String, forms: [String]? = nil) {
        self.name = name
        self.definition = definition
        self.forms = forms ?? [name, name + "s"]
    }

    /// `   live bubble: the one bubble ...`: the line a lesson defines it with.
    package var line: String { "\(name): \(definition)" }
}

package enum Glossary {
    package static let terms: [Term] = [
        Term("session", "an app's messages sent as one thread (MSSession); each replaces the last (M10)"),
        Term("live bubble", "the one bubble a session draws, its newest message; a tap opens the app (M11)"),
        Term("summary line", "the summaryText line a bubble leaves when the next one replaces it (M10, M14)"),
        Term("participant identifier", "a device's own UUID for a person; other devices use others (M1, M4)"),
        Term("account id", "the id of your app's own sign-in: one per person, the same on every device"),
        Term("$bob", "Bob as the app writes him (data, checks): per-device UUID or account id (app.identity)",
             forms: ["$me", "$bob", "$carol", "$alice", "$person"]),
        Term("staged draft", "a message the app put in the input field; nothing is sent until Send (M16)"),
        Term("converged", "a check: every device's app reads the same state (the bubbles may still differ)", forms: ["converged"]),
        Term("complete", "a check: the state the devices agree on holds every change any device made", forms: ["complete"]),
        Term("outcome", "what a run ends with: each device's transcript and app state, and the store"),
        Term("pitfall", "a known way a group app goes wrong; GroupSim reports each with its rule and fix"),
    ]

    package static func term(_ name: String) -> Term? { terms.first { $0.name == name } }

    /// The glossary terms `text` uses, each with the offset (in characters) of its first
    /// use, in order of first use. A use is a form of the term, in any case, not inside a
    /// longer word (`completely` is no use of `complete`).
    package static func firstUses(in text: String) -> [(term: Term, offset: Int)] {
        let lower = Array(text.lowercased())
        var found: [(term: Term, offset: Int)] = []
        for term in terms {
            let offsets = term.forms.compactMap { firstOffset(of: Array($0), in: lower) }
            if let first = offsets.min() { found.append((term, first)) }
        }
        return found.sorted { $0.offset < $1.offset }
    }

    static func firstOffset(of form: [Character], in text: [Character]) -> Int? {
        guard !form.isEmpty, text.count >= form.count else { return nil }
        func wordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" }
        var start = 0
        while start + form.count <= text.count {
            if text[start] == form[0], Array(text[start..<(start + form.count)]) == form,
               start == 0 || !wordCharacter(text[start - 1]) || form[0] == "$",
               start + form.count == text.count || !wordCharacter(text[start + form.count]) {
                return start
            }
            start += 1
        }
        return nil
    }
}
