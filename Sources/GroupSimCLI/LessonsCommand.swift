import Foundation
import GroupSim

/// `groupsim lessons [NAME] [--dir PATH]`: lists the lessons, or runs one (its broken
/// and fixed scenario files) and narrates it step by step.
struct LessonsCommand: Subcommand {
    static let name = "lessons"
    static let summary = "learn the group-conversation pitfalls: list the lessons, or run and narrate one"
    static let help = """
    Usage: groupsim lessons [NAME] [--dir PATH]

    Without NAME, lists the lessons: name, title and the MESSAGES.md rules each teaches.
    With NAME, runs the lesson's two scenario files, NAME-broken.yaml and NAME-fixed.yaml,
    and narrates them: the broken design's story, each step with what every device then
    shows, the pitfalls it fell into (what happened where, the rule, the fix), and the
    fixed design with the checks that prove it and why it works.

    The lesson files are found in Scenarios/lessons, searched for upward from the current
    directory, then from the groupsim executable's directory (so it works anywhere in a
    clone of the repository). Options:
      --dir PATH        read the lesson files from PATH instead

    Exit status: 0 every check of both files held (or the list was printed); 1 a check
    failed; 2 unknown lesson, lessons directory not found, or an invalid lesson file.

    """

    /// The lessons directory, relative to a package root.
    static let relativeDirectory = "Scenarios/lessons"

    let apps: AppRegistry

    func execute(_ arguments: [String]) async throws -> CommandResult {
        let parsed = try Arguments(arguments, command: "lessons", valued: ["dir"], flags: [])
        guard parsed.positional.count <= 1 else {
            throw UsageError("lessons takes at most one lesson name, found \(parsed.positional.count)", hint: "Usage: groupsim lessons [NAME] [--dir PATH]")
        }
        let directory = try Self.directory(given: parsed.value("dir"))
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        guard let name = parsed.positional.first else {
            return CommandResult(status: 0, output: Self.list(directory: directory, files: files))
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
        let text = LessonNarration.render(lesson, broken: brokenReport, fixed: fixedReport)
        return CommandResult(status: brokenReport.passed && fixedReport.passed ? 0 : 1, output: text)
    }

    /// The list: one line per lesson, catalog first, then any other pair of files found.
    static func list(directory: String, files: [String]) -> String {
        var rows: [(name: String, title: String, rules: String, missing: [String])] = []
        for lesson in Lesson.all {
            let missing = [lesson.brokenFile, lesson.fixedFile].filter { !files.contains($0) }
            rows.append((lesson.name, lesson.title, lesson.rules.joined(separator: ", "), missing))
        }
        for name in Lesson.pairs(in: files) where Lesson.named(name) == nil {
            rows.append((name, title(of: name, in: directory), "", []))
        }
        let nameWidth = rows.map(\.name.count).max() ?? 0
        let titleWidth = rows.map(\.title.count).max() ?? 0
        var lines = ["Lessons (run one with: groupsim lessons NAME)", ""]
        for row in rows {
            var line = "  " + row.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
            line += row.title.padding(toLength: titleWidth, withPad: " ", startingAt: 0) + "  " + row.rules
            if !row.missing.isEmpty { line += "  (missing: \(row.missing.joined(separator: ", ")))" }
            var trimmed = line
            while trimmed.hasSuffix(" ") { trimmed.removeLast() }
            lines.append(trimmed)
        }
        lines.append("")
        lines.append("\(rows.count) lessons in \(directory)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A lesson outside the catalog is titled by the first line of its broken file's `about`.
    static func title(of name: String, in directory: String) -> String {
        guard let scenario = try? ScenarioParser.load(path: join(directory, "\(name)-broken.yaml")),
              let first = scenario.about?.split(separator: "\n").first else { return "(no description)" }
        return String(first)
    }

    /// `--dir` as given, else `Scenarios/lessons` found upward from the current
    /// directory, then upward from the executable's directory.
    static func directory(given: String?) throws -> String {
        let manager = FileManager.default
        if let given {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: given, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw UsageError("--dir \(given): no such directory")
            }
            return given
        }
        var starts = [manager.currentDirectoryPath]
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent().path { starts.append(executable) }
        let here = manager.currentDirectoryPath.hasSuffix("/") ? manager.currentDirectoryPath : manager.currentDirectoryPath + "/"
        for start in starts {
            guard let found = search(upwardFrom: start) else { continue }
            // Shown relative to the current directory when it is below it.
            return found.hasPrefix(here) ? String(found.dropFirst(here.count)) : found
        }
        throw UsageError("cannot find the lessons directory \(relativeDirectory) in \(manager.currentDirectoryPath) or any directory above it",
                         hint: "Run groupsim from inside a clone of the GroupSim repository, or pass --dir PATH/TO/Scenarios/lessons.")
    }

    static func search(upwardFrom start: String) -> String? {
        var url = URL(fileURLWithPath: start).standardizedFileURL
        while true {
            let candidate = url.appendingPathComponent(relativeDirectory).path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue {
                return candidate
            }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return nil }
            url = parent
        }
    }

    static func join(_ directory: String, _ file: String) -> String {
        directory.hasSuffix("/") ? directory + file : directory + "/" + file
    }
}
