import Foundation
import GroupSim
import GroupSimScenarios

/// `groupsim lessons [NAME] [--dir PATH]`: lists the lessons, or runs one (its broken
/// and fixed scenario files) and narrates it step by step.
struct LessonsCommand: Subcommand {
    static let name = "lessons"
    static let summary = "learn the group-conversation pitfalls: list the lessons, or run and narrate one"
    static let operands = "[NAME]"

    /// What `lessons NAME --format` prints.
    enum Format: String, OptionChoice {
        case text, html

        var summary: String {
            switch self {
            case .text: "the narration"
            case .html:
                "both runs on one self-contained page instead, the broken design then the fixed one, each as `run --format "
                    + "html` draws it: the message flow, and a time slider that shows every device's screen at each event"
            }
        }
    }

    static let full = Option.flag("full", """
        the complete narration instead: every step with what every device then shows, the transcripts side by side,
        every pitfall in full, and why the fix works
        """)
    static let format = Option.choice("format", Format.self, default: .text, "what to print")
    static let dir = Option.text("dir", "PATH", """
        read the lesson files from PATH instead (your own lessons, or lesson files you are editing)
        """)
    static let options = [full, format, dir]

    static let about = """
    Without NAME, lists the lessons in teaching order, one line each on what you will
    see, with the rules each teaches. With NAME, runs the lesson's two scenario files,
    NAME-broken.yaml and NAME-fixed.yaml, and tells them in one screen (at most 40
    lines of 100 columns): the terms it is the first to use, the broken design and what
    it gets wrong, its run step by step with what each device shows at the end, each
    pitfall once (what happened where, the fix), the fixed design with the checks that
    prove it, the rules as `groupsim help M12` commands, and the next lesson. --full
    adds each pitfall's why and both runs in full; `groupsim help terms` lists the terms.

    The lesson files ship with groupsim (a copy of the repository's Scenarios/lessons made
    when it is built), so this works from any directory.
    """

    static let epilogue = """
    Exit status: 0 every check of both files held (or the list was printed); 1 a check
    failed; 2 unknown lesson, lessons directory not found, or an invalid lesson file.
    """

    /// The lessons directory inside the shipped `Scenarios/` folder.
    static let shippedDirectory = "lessons"

    let apps: AppRegistry

    func execute(_ arguments: [String]) async throws -> CommandResult {
        let parsed = try Self.parse(arguments)
        let format = try parsed.choice(Self.format, as: Format.self)
        guard parsed.positional.count <= 1 else {
            throw UsageError("lessons takes at most one lesson name, found \(parsed.positional.count)", hint: Self.usage)
        }
        let directory = try Self.directory(given: parsed.value(Self.dir))
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        guard let name = parsed.positional.first else {
            return CommandResult(.success, output: Self.list(directory: directory, files: files, shipped: parsed.value(Self.dir) == nil))
        }
        let known = Lesson.all.map(\.name) + Lesson.pairs(in: files).filter { Lesson.named($0) == nil }
        guard known.contains(name) else {
            var message = "no lesson named \"\(name)\""
            if let near = Suggestion.nearest(to: name, in: known) { message += "; did you mean \"\(near)\"?" }
            throw UsageError(message, hint: "Run 'groupsim lessons' to list them.")
        }
        let lesson = Lesson.named(name) ?? Lesson(name: name, title: Self.title(of: name, in: directory), rules: [],
                                                  whyFixed: "See the fixed design's description above.")
        let broken = try ScenarioParser.load(path: Self.join(directory, lesson.brokenFile), registeredApps: apps.names)
        let fixed = try ScenarioParser.load(path: Self.join(directory, lesson.fixedFile), registeredApps: apps.names)
        let brokenReport = try await broken.run(apps: apps)
        let fixedReport = try await fixed.run(apps: apps)
        let text = format == .html ? lesson.page(broken: brokenReport, fixed: fixedReport)
            : LessonNarration.render(lesson, broken: brokenReport, fixed: fixedReport, full: parsed.flag(Self.full))
        return CommandResult(.checks(passed: brokenReport.passed && fixedReport.passed), output: text)
    }

    /// The list: one line per lesson in teaching order (the catalog, then any other pair
    /// of files found), each saying what the learner will see and the rules it teaches.
    static func list(directory: String, files: [String], shipped: Bool) -> String {
        var rows: [(name: String, preview: String, rules: String, missing: [String])] = []
        for lesson in Lesson.all {
            let missing = [lesson.brokenFile, lesson.fixedFile].filter { !files.contains($0) }
            rows.append((lesson.name, lesson.preview, lesson.rules.map(\.rawValue).joined(separator: ", "), missing))
        }
        for name in Lesson.pairs(in: files) where Lesson.named(name) == nil {
            rows.append((name, title(of: name, in: directory), "", []))
        }
        let nameWidth = rows.map(\.name.count).max() ?? 0
        let numberWidth = String(rows.count).count
        var lines = ["Lessons, in teaching order (run one with: groupsim lessons NAME)", ""]
        for (index, row) in rows.enumerated() {
            let number = String(index + 1)
            var line = "  " + String(repeating: " ", count: numberWidth - number.count) + number + ". "
            line += row.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  " + row.preview
            if !row.rules.isEmpty { line += " (\(row.rules))" }
            if !row.missing.isEmpty { line += "  (missing: \(row.missing.joined(separator: ", ")))" }
            lines.append(line)
        }
        lines.append("")
        // The shipped lessons are named by what they are, never by where they were installed.
        let place = shipped ? "shipped with groupsim" : "in \(directory)"
        lines.append("\(rows.count) lessons \(place); start with: groupsim lessons \(rows.first?.name ?? "NAME")")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A lesson outside the catalog is titled by the first line of its broken file's `about`.
    static func title(of name: String, in directory: String) -> String {
        guard let scenario = try? ScenarioParser.load(path: join(directory, "\(name)-broken.yaml")),
              let first = scenario.about?.split(separator: "\n").first else { return "(no description)" }
        return String(first)
    }

    /// `--dir` as given, else the lessons that ship with the tool.
    static func directory(given: String?) throws -> String {
        if let given {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: given, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw UsageError("--dir \(given): no such directory")
            }
            return given
        }
        guard let shipped = BundledScenarios.path(shippedDirectory) else {
            throw UsageError("cannot find the lessons that ship with groupsim (\(BundledScenarios.bundleDescription))",
                             hint: "Keep the resource bundle next to the groupsim executable, or pass --dir PATH/TO/Scenarios/lessons.")
        }
        return shipped
    }

    static func join(_ directory: String, _ file: String) -> String {
        directory.hasSuffix("/") ? directory + file : directory + "/" + file
    }
}
