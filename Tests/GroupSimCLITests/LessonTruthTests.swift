import Foundation
import Testing
import GroupSim
@testable import GroupSimCLI

/// Every lesson, run and told both ways (one screen and `--full`), says nothing its own
/// run or the reference contradicts: each rule it cites exists, each glossary term is
/// defined before it is used (by this lesson, first thing, or by an earlier one in
/// teaching order), no part says "no pitfall" of a run that reported one or tells a
/// pitfall of a run that reported none, and the one-screen text fits 40 lines of 100
/// columns (the full text keeps to 100 columns too).
@Suite struct LessonTruthTests {
    static let directory = CLI.path("Scenarios/lessons")

    struct Told {
        var lesson: Lesson
        var broken: RunReport
        var fixed: RunReport
        var short: String
        var full: String
    }

    static func told(_ lesson: Lesson) async throws -> Told {
        let broken = try await ScenarioParser.load(path: directory + "/" + lesson.brokenFile).run()
        let fixed = try await ScenarioParser.load(path: directory + "/" + lesson.fixedFile).run()
        return Told(lesson: lesson, broken: broken, fixed: fixed,
                    short: LessonNarration.render(lesson, broken: broken, fixed: fixed),
                    full: LessonNarration.render(lesson, broken: broken, fixed: fixed, full: true))
    }

    /// The text after the heading line (a title names the subject; it defines nothing).
    static func body(_ text: String) -> String {
        text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().joined()
    }

    /// Each rule a lesson cites, in its catalog entry or its text, is one of M1 to M30
    /// with a section of its own in docs/behaviour.md (what `groupsim help M12` prints).
    @Test(arguments: Lesson.all.map(\.name))
    func everyRuleCitedExists(name: String) async throws {
        let told = try await Self.told(try #require(Lesson.named(name)))
        let sections = Set(Help.ruleSections().map(\.rule))
        #expect(sections.count == 30)
        for rule in told.lesson.rules { #expect(sections.contains(rule.rawValue), "\(name) teaches \(rule)") }
        for text in [told.short, told.full] {
            let cited = RuleReference.rulesInOrder(in: text)
            #expect(!cited.isEmpty)
            for rule in cited { #expect(sections.contains(rule.rawValue), "\(name) cites \(rule), which docs/behaviour.md lacks") }
            #expect(!text.contains("docs/behaviour.md"), "\(name): rules are cited as groupsim help Mn")
            #expect(text.contains("groupsim help \(cited[0].rawValue)"))
        }
    }

    /// Walking the lessons in teaching order, every glossary term a lesson uses was
    /// defined by an earlier lesson or is defined by this one, in one line, before its
    /// first use; a lesson defines only terms no earlier lesson defined, and uses each.
    @Test func everyTermIsDefinedBeforeUse() async throws {
        var defined: [String: String] = [:]
        for lesson in Lesson.all {
            let told = try await Self.told(lesson)
            for term in lesson.terms {
                let known = try #require(Glossary.term(term), "\(lesson.name) defines \(term), which the glossary lacks")
                #expect(defined[term] == nil, "\(term) is defined by \(defined[term] ?? "") and again by \(lesson.name)")
                for text in [told.short, told.full] {
                    let body = Self.body(text)
                    let definition = try #require(body.range(of: "   " + known.line), "\(lesson.name) does not define \(term)")
                    let use = Glossary.firstUses(in: body).first { $0.term == known }
                    let offset = body.distance(from: body.startIndex, to: definition.lowerBound)
                    #expect(use.map { $0.offset >= offset } ?? false, "\(lesson.name) uses \(term) before defining it, or never")
                }
            }
            for text in [told.short, told.full] {
                for use in Glossary.firstUses(in: Self.body(text)) where !lesson.terms.contains(use.term.name) {
                    #expect(defined[use.term.name] != nil, "\(lesson.name) uses \"\(use.term.name)\", which no lesson before it defines")
                }
            }
            for term in lesson.terms { defined[term] = lesson.name }
        }
        #expect(defined.count >= 9, "the lessons define \(defined.keys.sorted())")
    }

    /// The broken design's part (sections 1 to 3) and the fixed design's (from 4) never say
    /// "no pitfall" of a run that reported one, nor tell a pitfall of a run that reported none.
    @Test(arguments: Lesson.all.map(\.name))
    func noPitfallMeansNone(name: String) async throws {
        let told = try await Self.told(try #require(Lesson.named(name)))
        for text in [told.short, told.full] {
            let fixedStart = try #require(text.range(of: "\n4. The fix")).lowerBound
            let parts = [(String(text[..<fixedStart]), told.broken), (String(text[fixedStart...]), told.fixed)]
            for (part, report) in parts {
                let saysNone = part.lowercased().contains("no pitfall")
                let tellsOne = Scenario.PitfallKind.allCases.contains { kind in
                    part.contains("- \(kind.rawValue) (") || part.contains("! \(kind.rawValue)")
                        || part.contains("Pitfalls still found")
                }
                if report.pitfalls.isEmpty {
                    #expect(!tellsOne, "\(name): \(report.outcome.scenario.name) reported no pitfall, yet its part tells one")
                } else {
                    #expect(!saysNone, "\(name): \(report.outcome.scenario.name) reported \(report.pitfalls.count), yet says none")
                    #expect(tellsOne)
                }
            }
        }
    }

    /// One screen: at most 40 lines of at most 100 columns by default; --full keeps to
    /// 100 columns and tells more.
    @Test(arguments: Lesson.all.map(\.name))
    func fitsFortyLinesOfHundredColumns(name: String) async throws {
        let told = try await Self.told(try #require(Lesson.named(name)))
        let lines = told.short.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count <= 40, "\(name) prints \(lines.count) lines")
        for line in lines { #expect(line.count <= 100, "\(name): \(line.count) columns: \(line)") }
        let full = told.full.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(full.count > lines.count)
        for line in full { #expect(line.count <= 100, "\(name) --full: \(line.count) columns: \(line)") }
    }

    /// `groupsim help terms` and docs/terms.md list the glossary the lessons define, one
    /// line each, as the lessons word it.
    @Test func glossaryIsInHelpAndDocs() async throws {
        let help = await CLI.run(["help", "terms"])
        #expect(help.status == 0)
        let document = try String(contentsOfFile: CLI.path("docs/terms.md"), encoding: .utf8)
        for name in ["session", "live bubble", "summary line", "participant identifier", "staged draft", "converged", "complete",
                     "outcome", "pitfall"] {
            let term = try #require(Glossary.term(name), "\(name) is missing from the glossary")
            #expect(help.output.contains("  \(term.name)") && help.output.contains(term.definition), "help terms: \(name)")
            #expect(document.contains("| \(term.name) | \(term.definition) |"), "docs/terms.md: \(name)")
        }
        for term in Glossary.terms { #expect(document.contains("| \(term.name) | \(term.definition) |"), "docs/terms.md: \(term.name)") }
    }
}
