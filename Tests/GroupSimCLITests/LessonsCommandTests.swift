import Foundation
import Testing
import GroupSim
import GroupSimCLI
import GroupSimTesting

/// `groupsim lessons`: at least eleven lessons, each a broken and a fixed scenario file
/// whose checks hold, told in one screen or step by step with --full.
@Suite struct LessonsCommandTests {
    /// Scenarios/lessons of this package, found from this file's path.
    static let directory = CLI.path("Scenarios/lessons")

    static var lessonFiles: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { "Scenarios/lessons/" + $0 }
    }

    /// `lessons NAME --format html`: both runs on one page, the broken design first, each
    /// with its own time slider and events; the header says which design is broken and
    /// that its passing checks describe the breakage.
    @Test(arguments: ["session-collapse", "conditional-write"])
    func lessonAsAPageWithBothRuns(name: String) async throws {
        let result = await CLI.run(["lessons", name, "--format", "html", "--dir", Self.directory])
        #expect(result.status == 0, "\(result.error)")
        let page = result.output
        let lesson = try #require(Lesson.named(name))
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("<h1>Lesson \(name): \(Markup.html(lesson.title))</h1>"))
        #expect(page.contains("The first is broken: \(Markup.html(lesson.breakage))."))
        for prefix in ["broken-", "fixed-"] {
            #expect(page.contains("<nav id=\"\(prefix)scrubber\""))
            #expect(page.contains("<script type=\"application/json\" id=\"\(prefix)timeline-data\">"))
            #expect(page.contains("<section id=\"\(prefix)transcripts\">"))
        }
        #expect(page.components(separatedBy: "<script>").count == 2, "one script for both sliders")
        #expect(page.contains("this design is broken: its checks describe the breakage"))
        let broken = try #require(page.range(of: "id=\"broken-run\""))
        let fixed = try #require(page.range(of: "id=\"fixed-run\""))
        #expect(broken.lowerBound < fixed.lowerBound)
        // No green "every check held" over the broken design: its checks describe the breakage.
        #expect(!page[broken.lowerBound..<fixed.lowerBound].contains("every check held"))
        #expect(page[fixed.lowerBound...].contains("<span class=\"pass\">every check held</span>"))
        if name == "conditional-write" {
            // The refused save, the store's record coming back and the retry are events of the fixed run.
            let fixedPart = page[fixed.lowerBound...]
            #expect(fixedPart.contains("refuses"), "the refused save")
            #expect(fixedPart.contains("conflict"), "the store's record coming back")
        }
        let wrong = await CLI.run(["lessons", "session-collapse", "--format", "pdf", "--dir", Self.directory])
        #expect(wrong.status == 2)
    }

    /// At least eleven lessons, numbered in teaching order, one line each.
    @Test func listsAtLeastElevenLessonsInTeachingOrder() async throws {
        let result = await CLI.run(["lessons", "--dir", Self.directory])
        #expect(result.status == 0, "\(result.error)")
        let rows = result.output.split(separator: "\n").filter { $0.hasPrefix("  ") }
        #expect(rows.count >= 11)
        #expect(Lesson.all.count >= 11)
        for (index, lesson) in Lesson.all.enumerated() {
            let number = String(index + 1)
            let prefix = String(repeating: " ", count: String(rows.count).count - number.count) + number + ". " + lesson.name + " "
            let row = try #require(rows.first { $0.hasPrefix("  " + prefix) }, "\(lesson.name) at \(number)")
            #expect(row.contains(lesson.preview))
            #expect(row.hasSuffix("(\(lesson.rules.map(\.rawValue).joined(separator: ", ")))"))
            #expect(!row.contains("missing"))
        }
        for name in ["who-voted", "two-devices", "conditional-write"] { #expect(Lesson.named(name) != nil) }
        #expect(result.output.contains("\(rows.count) lessons in \(Self.directory); start with: groupsim lessons \(Lesson.all[0].name)"))
        // The shipped lessons are listed without the folder they were installed in.
        let shipped = await CLI.run(["lessons"])
        #expect(shipped.status == 0, "\(shipped.error)")
        #expect(shipped.output.contains("lessons shipped with groupsim; start with: groupsim lessons \(Lesson.all[0].name)"))
        #expect(!shipped.output.contains("/"), "no path in the list")
    }

    /// Every lesson file runs with exit 0, twice with the same digest (determinism rule 6, README).
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
        let full = await CLI.run(["lessons", name, "--full", "--dir", Self.directory])
        #expect(full.status == 0, "\(full.error)")
        let text = full.output
        for heading in ["Lesson \(name): \(lesson.title)", "1. The broken design", "2. Step by step", "3. What went wrong",
                        "4. The fixed design", "5. The fixed design step by step", "Why it works: ",
                        "Both designs behaved as their checks say."] {
            #expect(text.contains(heading), "\(name): \(heading)")
        }
        #expect(text.contains("step 1: "))
        #expect(text.contains("now:"))
        #expect(!text.contains("FAIL"))
        // The broken file reports the pitfalls its checks name; the fixed one none.
        let brokenKinds = broken.checks.flatMap { spec -> [Scenario.PitfallKind] in
            if case .pitfalls(let kinds) = spec.check { return kinds }
            return []
        }
        let brokenReport = try await broken.run()
        #expect(brokenKinds.allSatisfy(brokenReport.pitfalls.map(\.kind).contains), "\(name): \(brokenReport.pitfalls.map(\.kind))")
        #expect(try await fixed.run().pitfalls.isEmpty)
    }

    /// By default every lesson fits one screen (at most 40 lines), tells each
    /// kind of pitfall once (no explanation twice, the parting once), and ends with the
    /// command for the next lesson.
    @Test(arguments: Lesson.all.map(\.name))
    func everyLessonFitsOneScreen(name: String) async throws {
        let result = await CLI.run(["lessons", name, "--dir", Self.directory])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count <= LessonNarration.shortLimit, "\(name) prints \(lines.count) lines")
        for heading in ["1. The broken design", "2. What happens", "3. What went wrong", "4. The fix", "Checks that prove it:"] {
            #expect(result.output.contains(heading), "\(name): \(heading)")
        }
        #expect(!result.output.contains("Where the devices' views parted"))
        #expect(result.output.components(separatedBy: "Where it started").count <= 2)
        let flat = result.output.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        for sentence in flat.components(separatedBy: ". ") where sentence.count > 60 {
            #expect(flat.components(separatedBy: sentence).count == 2, "\(name) repeats: \(sentence)")
        }
        let lesson = try #require(Lesson.named(name))
        let last = try #require(lines.last)
        if let next = lesson.next {
            #expect(last.hasPrefix("Next: groupsim lessons \(next.name)"))
        } else {
            #expect(last == "That was the last lesson. List them all: groupsim lessons")
        }
        #expect(lines.contains { $0.hasPrefix("More: groupsim lessons \(name) --full") })
    }

    /// The stale-selection fix is a change to the app (`app.selection: newest`),
    /// not an extra tap in the scenario.
    @Test func staleSelectionFixIsAnAppChange() throws {
        let broken = try ScenarioParser.load(path: Self.directory + "/stale-selection-broken.yaml")
        let fixed = try ScenarioParser.load(path: Self.directory + "/stale-selection-fixed.yaml")
        #expect(fixed.app.selection == .newest && broken.app.selection == .tapped)
        #expect(fixed.steps.map(\.action) == broken.steps.map(\.action))
    }

    /// Every fix a lesson prints names how an extension does it (an API or an app option).
    @Test(arguments: Lesson.all.map(\.name))
    func everyFixNamesHowAnExtensionDoesIt(name: String) async throws {
        let broken = try await (try ScenarioParser.load(path: Self.directory + "/\(name)-broken.yaml")).run()
        for pitfall in broken.pitfalls {
            #expect(pitfall.fix.contains("`") || pitfall.fix.contains("summaryText") || pitfall.fix.contains("?key=value"),
                    "\(name) \(pitfall.kind.rawValue): \(pitfall.fix)")
        }
    }

    /// The narration of the race: each step with what every device then shows (M11, M12).
    @Test func narratesTheRaceStepByStep() async throws {
        let result = await CLI.run(["lessons", "simultaneous-replies", "--full", "--dir", Self.directory])
        let text = result.output
        #expect(text.contains("   500ms  step 2: bob-phone reply poll (data bob=tomatoes)"))
        #expect(text.contains("bob-phone sent m2 in poll, \"Bob picked tomatoes\" {bob: tomatoes, q: topping}"))
        #expect(text.contains("       bob-phone    poll: m3 from Carol \"Carol picked pickles\" {carol: pickles, q: topping}"))
        #expect(text.contains("- lost-update (M12): Bob's change bob=tomatoes"))
        // The parting is told once, in the divergence pitfall, not again in its own section,
        // and it follows the two devices that parted first (M12).
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.components(separatedBy: "Where it started: ").count == 2)
        #expect(flat.contains("Where it started: bob-phone and carol-phone agreed on poll until 500ms (both showed m1); then bob-phone "
            + "sent m2 while carol-phone still showed m1"))
        #expect(flat.contains("Bob's update is lost to the group's agreed state, though carol-phone still shows it."))
        #expect(!text.contains("Where the devices' views parted:"))
        #expect(text.contains("the store's poll record (v3): {bob: tomatoes, carol: pickles, q: topping}"))
    }

    /// M15: tapping a bubble sets selectedMessage, and the narration says so.
    @Test func narratesTheSelection() async throws {
        let result = await CLI.run(["lessons", "stale-selection", "--full", "--dir", Self.directory])
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
        let folder = try TemporaryFolder.create("lessons-tests")
        defer { TemporaryFolder.remove(folder) }
        try Self.echo(name: "echo-broken", expect: "diverged: s").write(to: folder.appendingPathComponent("echo-broken.yaml"),
            atomically: true, encoding: .utf8)
        try Self.echo(name: "echo-fixed", expect: "converged: s").write(to: folder.appendingPathComponent("echo-fixed.yaml"),
            atomically: true, encoding: .utf8)
        let directory = folder.path
        let list = await CLI.run(["lessons", "--dir", directory])
        #expect(list.output.contains(". echo                  Echo lesson."))
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
        let scratch = try TemporaryFolder.create("cli")
        defer { TemporaryFolder.remove(scratch) }
        let target = try CLI.temporaryFile(in: scratch, "race.html", "")
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
