import Foundation

/// Runs the built `groupsim` and shell scripts as separate processes, as a Kubernetes
/// pod, a CI job or a Slurm task would, each in a temporary folder the test creates.
package enum ProcessRunner {
    /// How a process ended and what it printed.
    package struct Result: Sendable {
        package var status: Int32
        package var output: String
        package var error: String
    }

    /// The `groupsim` executable of the build that built these tests: the test runner
    /// sits in the same products folder (`.build/debug/`, or a bundle inside it).
    package static func builtTool() throws -> URL {
        var folders: [URL] = []
        if let runner = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: runner).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        #if os(Linux)
        folders.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
        #endif
        folders += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for start in folders {
            var folder = start
            for _ in 0..<4 {
                let candidate = folder.appendingPathComponent("groupsim")
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder), !isFolder.boolValue,
                   FileManager.default.isExecutableFile(atPath: candidate.path) {
                    return candidate
                }
                folder = folder.deletingLastPathComponent()
            }
        }
        throw ToolNotFound(searched: folders.map(\.path))
    }

    package struct ToolNotFound: Error, CustomStringConvertible {
        package var searched: [String]
        package var description: String { "no built groupsim next to the test runner (looked in \(searched)); run `swift build` first" }
    }

    /// Runs `executable` with `arguments` in `folder`, with only `environment` (plus a
    /// PATH that finds the built tool first and HOME set to `folder`). Standard output
    /// and error go to files in `folder`, read back when it ends.
    package static func run(_ executable: String, _ arguments: [String], in folder: URL,
                            environment: [String: String] = [:]) async throws -> Result {
        let tool = try builtTool()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var variables = ["PATH": tool.deletingLastPathComponent().path + ":/usr/local/bin:/usr/bin:/bin",
                         "HOME": folder.path, "LC_ALL": "C"]
        variables.merge(environment) { _, new in new }
        process.environment = variables
        let name = UUID().uuidString.prefix(8)
        let outputURL = folder.appendingPathComponent(".stdout-\(name)")
        let errorURL = folder.appendingPathComponent(".stderr-\(name)")
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        process.standardOutput = output
        process.standardError = error
        process.standardInput = nil
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in continuation.resume(returning: finished.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        try output.close()
        try error.close()
        defer {
            try? FileManager.default.removeItem(at: outputURL)
            try? FileManager.default.removeItem(at: errorURL)
        }
        return Result(status: status, output: try String(contentsOf: outputURL, encoding: .utf8),
                      error: try String(contentsOf: errorURL, encoding: .utf8))
    }

    /// Runs a shell script as `sh -c` would (Kubernetes `command: [/bin/sh, -c]`).
    package static func sh(_ script: String, in folder: URL, environment: [String: String] = [:]) async throws -> Result {
        try await run("/bin/sh", ["-c", script], in: folder, environment: environment)
    }

    /// Runs a script as a GitHub Actions `run:` step does: `bash --noprofile --norc -eo pipefail`.
    package static func bash(_ script: String, in folder: URL, environment: [String: String] = [:]) async throws -> Result {
        try await run("/bin/bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: folder, environment: environment)
    }

    /// Runs the built groupsim.
    package static func groupsim(_ arguments: [String], in folder: URL) async throws -> Result {
        try await run(try builtTool().path, arguments, in: folder)
    }
}
