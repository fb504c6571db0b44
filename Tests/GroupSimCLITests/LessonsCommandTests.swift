import Foundation
import Testing
import GroupSim
import GroupSimCLI

/// `groupsim lessons`: at least eight lessons, each a broken and a fixed scenario file
/// whose checks hold, narrated step by step (issue 5).
@Suite struct LessonsCommandTests {
    /// Scenarios/lessons of this package, found from this file's path.
    static let directory = CLI.path("Scenarios/lessons")

    static var lessonFiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { "Scenarios/lessons/" + $0 }
    }

    @Test func listsAtLeastEightLessons() async throws {
        let result = await CLI.run(["lessons", "--dir", Self.directory])
        #expect(result.status == 0, "\(result.error)")
        let rows = result.output.split(separator: "\n").filter { $0.hasPrefix("  ") }
        #expect(rows.count >= 8)
        #expect(Lesson.all.count >= 8)
        for lesson in Lesson.all {
            let row = try #require(rows.first { $0.hasPrefix("  \(lesson.name) ") })
            #expect(row.contains(lesson.title))
            #expect(row.hasSuffix(lesson.rules.joined(separator: ", ")))
            #expect(!row.contains("missing"))
        }
        #expect(result.output.contains("\(rows.count) lessons in \(Self.directory)"))
    }

    /// Every lesson file runs with exit 0, twice with the same digest (DESIGN.md rule 6).
    @Test(arguments: Self.lessonFiles)
    func everyLessonFileHolds(file: String) async throws {
        let first = await CLI.run(["run", CLI.path(file)])
        #expect(first.status == 0, "\(file): \(first.error)\(first.output.split(separator: "\n").filter { $0.contains("FAIL") })")
        let second = await CLI.run(["run", CLI.path(file)])
        #expect(first.output == second.output)
    }

    /// Each catalog lesson has both files; the broken one expects a pitfall or shows the
    /// problem with a check, the fixed one expects none.
    @Test(arguments: Lesson.all.map(\.name))
    func everyLessonIsAPairThatProvesItself(name: String) async throws {
        let lesson = try #require(Lesson.named(name))
        let broken = try ScenarioParser.load(path: Self.directory + "/" + lesson.brokenFile)
        let fixed = try ScenarioParser.load(path: Self.directory + "/" + lesson.fixedFile)
        #expect(fixed.checks.contains { $0.check == .noPitfalls }, "\(lesson.fixedFile) should expect no pitfalls")
        #expect(!broken.checks.contains { $0.check == .noPitfalls && name != "session-collapse" })
        #expect(broken.about != nil && fixed.about != nil)
        let result = await CLI.run(["lessons", name, "--dir", Self.directory])
        #expect(result.status == 0, "\(result.error)")
        let text = result.output
        for heading in ["Lesson \(name): \(lesson.title)", "1. The broken design", "2. Step by step", "3. What went wrong",
                        "4. The fixed design", "Why it works: ", "Both designs behaved as their checks say."] {
            #expect(text.contains(heading), "\(name): \(heading)")
        }
        #expect(text.contains("step 1: "))
        #expect(text.contains("now:"))
        #expect(!text.contains("FAIL"))
    }

    /// The narration of the race: each step with what every device then shows (M11, M12).
    @Test func narratesTheRaceStepByStep() async throws {
        let result = await CLI.run(["lessons", "simultaneous-replies", "--dir", Self.directory])
        let text = result.output
        #expect(text.contains("   500ms  step 2: bob-phone reply poll (data bob=tomatoes)"))
        #expect(text.contains("bob-phone sent m2 in poll, \"Bob picked tomatoes\" {bob: tomatoes, q: topping}"))
        #expect(text.contains("       bob-phone    poll: m3 from Carol \"Carol picked pickles\" {carol: pickles, q: topping}"))
        #expect(text.contains("- lost-update (M12): Bob's change bob=tomatoes"))
        #expect(text.contains("Where the devices' views parted:"))
        #expect(text.contains("the store's poll record (v3): {bob: tomatoes, carol: pickles, q: topping}"))
    }

    /// M15: tapping a bubble sets selectedMessage, and the narration says so.
    @Test func narratesTheSelection() async throws {
        let result = await CLI.run(["lessons", "stale-selection", "--dir", Self.directory])
        #expect(result.output.contains("bob-phone's app opens on the tapped bubble: selectedMessage is m1 (M21)"))
        #expect(result.output.contains("! stale-selection: bob-phone built on m1"))
    }

    @Test func unknownLessonIsAUsageError() async {
        let result = await CLI.run(["lessons", "stale-selectoin", "--dir", Self.directory])
        #expect(result.status == 2)
        #expect(result.error.contains("no lesson named \"stale-selectoin\"; did you mean \"stale-selection\"?"))
    }

    @Test func missingDirectoryIsAUsageError() async {
        let result = await CLI.run(["lessons", "--dir", "/nonexistent/lessons"])
        #expect(result.status == 2)
        #expect(result.error.contains("--dir /nonexistent/lessons: no such directory"))
    }

    /// Found by searching upward from the current directory: from the package root (where
    /// `swift test` runs) without --dir.
    @Test func findsTheDirectoryUpward() async throws {
        let here = FileManager.default.currentDirectoryPath
        guard URL(fileURLWithPath: here).standardizedFileURL.path.hasPrefix(CLI.root.standardizedFileURL.path) else { return }
        let result = await CLI.run(["lessons"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("stale-selection"))
    }

    /// A pair of files the catalog does not know is listed and runs, titled by its about.
    @Test func extraPairsAreLessonsToo() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("groupsim-lessons-tests-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.echo(name: "echo-broken", expect: "diverged: s").write(to: folder.appendingPathComponent("echo-broken.yaml"), atomically: true, encoding: .utf8)
        try Self.echo(name: "echo-fixed", expect: "converged: s").write(to: folder.appendingPathComponent("echo-fixed.yaml"), atomically: true, encoding: .utf8)
        let directory = folder.path
        let list = await CLI.run(["lessons", "--dir", directory])
        #expect(list.output.contains("  echo                  Echo lesson."))
        let run = await CLI.run(["lessons", "echo", "--dir", directory])
        #expect(run.status == 1, "the broken echo's check fails: \(run.output)")
        #expect(run.output.contains("warning: a check did not hold (broken design)"))
    }

    static func echo(name: String, expect: String) -> String {
        """
        name: \(name)
        about: |
          Echo lesson.
        people:
          alice: [alice-phone]
          bob: [bob-phone]
        steps:
          - at: 0ms
            device: alice-phone
            send: { session: s, caption: "hi" }
        expect:
          - \(expect)

        """
    }

    @Test func runFormatsWriteTheirFiles() async throws {
        let target = try CLI.temporaryFile("race.html", "")
        let html = await CLI.run(["run", CLI.path("Scenarios/pickles-race.yaml"), "--format", "html", "--output", target])
        #expect(html.status == 0)
        #expect(html.output.hasPrefix("wrote \(target)"))
        let page = try String(contentsOfFile: target, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("<svg class=\"flow\""))
        let toStdout = await CLI.run(["run", CLI.path("Scenarios/pickles-race.yaml"), "--format", "html"])
        #expect(toStdout.output == page)
        let mermaid = await CLI.run(["run", CLI.path("Scenarios/pickles-race.yaml"), "--format", "mermaid"])
        #expect(mermaid.status == 0)
        #expect(mermaid.output.hasPrefix("sequenceDiagram\n"))
        let sides = await CLI.run(["run", CLI.path("Scenarios/pickles-race.yaml"), "--format", "sides"])
        #expect(sides.status == 0)
        #expect(sides.output.contains("Final transcripts, side by side"))
        let wrong = await CLI.run(["run", CLI.path("Scenarios/pickles-race.yaml"), "--format", "htm"])
        #expect(wrong.status == 2)
        #expect(wrong.error.contains("did you mean \"html\"?"))
    }
}
