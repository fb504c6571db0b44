import GroupSimCore
/// One lesson of `groupsim lessons`: a pitfall or rule family taught by a pair of
/// scenario files, the broken design and the fixed one, each with checks that prove it.
///
/// The files live in a lessons directory (`Scenarios/lessons/` in the repository) as
/// `NAME-broken.yaml` and `NAME-fixed.yaml`; their `about:` text tells the story, and
/// this type adds the title, the docs/behaviour.md rules and why the fix works. The catalog
/// is `Lesson.all`, in teaching order (`Lesson+Catalog.swift`).
package struct Lesson: Sendable, Hashable {
    /// The lesson's name on the command line and in its file names.
    package var name: String
    /// The lesson's heading.
    package var title: String
    /// One line for the list: what the learner will see.
    package var preview: String
    /// The docs/behaviour.md rules it teaches (`M12`).
    package var rules: [Rule]
    /// Why the fixed design holds up, said after its run.
    package var whyFixed: String
    /// What the broken design gets wrong, as a clause: `it loses a vote`. The page's
    /// header and the text say it, so that the broken design's passing checks read as
    /// what they are: a description of the breakage.
    package var breakage: String
    /// The glossary terms this lesson is the first (in teaching order) to use: it defines
    /// them before anything else (`Glossary`).
    package var terms: [String]

    package init(name: String, title: String, preview: String? = nil, rules: [Rule], breakage: String? = nil, terms: [String] = [],
                whyFixed: String) {
        self.name = name
        self.title = title
        self.preview = preview ?? title
        self.rules = rules
        self.breakage = breakage ?? "its checks below show how it goes wrong"
        self.terms = terms
        self.whyFixed = whyFixed
    }

    /// The broken design's file name: `NAME-broken.yaml`.
    package var brokenFile: String { "\(name)-broken.yaml" }
    /// The fixed design's file name: `NAME-fixed.yaml`.
    package var fixedFile: String { "\(name)-fixed.yaml" }

    /// The catalog's lesson called `name`, if any.
    package static func named(_ name: String) -> Lesson? { all.first { $0.name == name } }

    /// The lesson to take after this one in the catalog's teaching order; nil for the
    /// last one and for lessons outside the catalog.
    package var next: Lesson? {
        guard let index = Lesson.all.firstIndex(where: { $0.name == name }), index + 1 < Lesson.all.count else { return nil }
        return Lesson.all[index + 1]
    }

    /// The lesson names a directory's files pair up, sorted: every `X-broken.yaml` that
    /// has an `X-fixed.yaml` next to it.
    package static func pairs(in fileNames: [String]) -> [String] {
        let names = Set(fileNames)
        return fileNames.filter { $0.hasSuffix("-broken.yaml") }
            .map { String($0.dropLast("-broken.yaml".count)) }
            .filter { names.contains("\($0)-fixed.yaml") }
            .sorted()
    }
}
