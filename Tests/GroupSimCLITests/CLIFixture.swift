import Foundation
import GroupSimCLI
import GroupSimTesting

/// Runs `groupsim` commands in-process and finds the package's files.
enum CLI {
    /// The package root, found from this file's path.
    static let root: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    static func run(_ arguments: [String]) async -> CommandResult {
        await GroupSimCommand().run(arguments)
    }

    /// Every scenario file under Scenarios/, sorted, as paths relative to the root.
    static var scenarioFiles: [String] {
        let base = root.appendingPathComponent("Scenarios")
        let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "yaml" } ?? []
        return files.map { String($0.path.dropFirst(root.path.count + 1)) }.sorted()
    }

    /// Writes `contents` to the file `name` in `folder` (a `TemporaryFolder` the test
    /// removes) and returns its path.
    static func temporaryFile(in folder: URL, _ name: String, _ contents: [UInt8]) throws -> String {
        try TemporaryFolder.file(name, contents, in: folder)
    }

    static func temporaryFile(in folder: URL, _ name: String, _ text: String) throws -> String {
        try TemporaryFolder.file(name, text, in: folder)
    }
}
