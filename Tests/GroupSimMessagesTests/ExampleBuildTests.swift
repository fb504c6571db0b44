import Foundation
import GroupSimCore
import GroupSimTesting
import Testing

/// Keeps `Examples/LunchPoll` and `Examples/IceCreamBuilder` building: its sources, written only against Apple's
/// Messages API, type-check against the GroupSimMessages module this package just built,
/// in Swift 5 and Swift 6 language modes with no warning; its tests type-check too; and
/// a misspelt override is an error, as with Apple's SDK. Type-checking with `swiftc`
/// against the built modules takes seconds, where building the example package again
/// would rebuild GroupSim. Everything is written inside a temporary folder.
@Suite(.serialized) struct ExampleBuildTests {
    /// The package's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder holding the built `GroupSimMessages.swiftmodule`: next to the test
    /// bundle, or the package's `.build/debug/Modules`.
    static func modulesFolder() -> String? {
        var candidates: [URL] = []
        if let executable = CommandLine.arguments.first {
            var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
            for _ in 0..<4 {
                candidates.append(folder.appendingPathComponent("Modules"))
                folder = folder.deletingLastPathComponent()
            }
        }
        candidates.append(root.appendingPathComponent(".build/debug/Modules"))
        return candidates.first {
            FileManager.default.fileExists(atPath: $0.appendingPathComponent("GroupSimMessages.swiftmodule").path)
        }?.path
    }

    static func swiftFiles(in folder: String) throws -> [String] {
        let url = root.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".swift") }.sorted()
            .map { url.appendingPathComponent($0).path }
    }

    /// Runs `swiftc` with `arguments`; returns its exit status and everything it printed.
    /// The compiler's own temporary files go into `temporary`, which the test removes. It
    /// waits without holding a thread of Swift's shared pool: a compile takes a minute on a
    /// loaded machine, and tests that blocked both threads of a 2-core pool in a compile
    /// held up every other test (and the processes those tests were about to signal).
    static func swiftc(_ arguments: [String], in temporary: URL) async throws -> (status: Int32, output: String) {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        let result = try await ProcessRunner.run("/usr/bin/env", ["swiftc"] + arguments, in: temporary,
                                                 environment: ["PATH": path, "TMPDIR": temporary.path])
        return (result.status, result.output + result.error)
    }

    /// The examples, each a package `Examples/NAME` with the target `NAME` and `NAMETests`.
    static let examples = ["LunchPoll", "IceCreamBuilder"]

    @Test(arguments: examples, ["5", "6"])
    func exampleSourcesTypeCheckWithoutWarnings(example: String, languageMode: String) async throws {
        let modules = try #require(Self.modulesFolder(), "no built GroupSimMessages.swiftmodule found")
        let temporary = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(temporary) }
        let sources = try Self.swiftFiles(in: "Examples/\(example)/Sources/\(example)")
        #expect(sources.count >= 3)
        let result = try await Self.swiftc(["-typecheck", "-swift-version", languageMode, "-package-name", example,
                                      "-I", modules, "-module-cache-path", temporary.appendingPathComponent("cache").path]
                                     + sources, in: temporary)
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("warning:"), "\(result.output)")
    }

    @Test(arguments: examples)
    func exampleTestsTypeCheckAgainstTheExample(example: String) async throws {
        let modules = try #require(Self.modulesFolder(), "no built GroupSimMessages.swiftmodule found")
        let temporary = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(temporary) }
        let cache = temporary.appendingPathComponent("cache").path
        let module = try await Self.swiftc(["-emit-module", "-module-name", example, "-parse-as-library", "-swift-version", "6",
                                      "-package-name", example, "-I", modules, "-module-cache-path", cache,
                                      "-emit-module-path", temporary.appendingPathComponent("\(example).swiftmodule").path]
                                     + Self.swiftFiles(in: "Examples/\(example)/Sources/\(example)"), in: temporary)
        #expect(module.status == 0, "\(module.output)")
        let tests = try await Self.swiftc(["-typecheck", "-swift-version", "6", "-package-name", example, "-I", modules,
                                     "-I", temporary.path, "-module-cache-path", cache]
                                    + Self.swiftFiles(in: "Examples/\(example)/Tests/\(example)Tests"), in: temporary)
        #expect(tests.status == 0, "\(tests.output)")
        #expect(!tests.output.contains("warning:"), "\(tests.output)")
    }

    /// `override` on a callback that does not exist is an error, as with Apple's SDK.
    @Test func misspeltOverrideDoesNotCompile() async throws {
        let modules = try #require(Self.modulesFolder(), "no built GroupSimMessages.swiftmodule found")
        let temporary = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(temporary) }
        let file = temporary.appendingPathComponent("Misspelt.swift")
        try """
            import GroupSimMessages

            final class PollViewController: MSMessagesAppViewController {
                override func didRecieve(_ message: MSMessage, conversation: MSConversation) {}
            }
            """.write(to: file, atomically: true, encoding: .utf8)
        let result = try await Self.swiftc(["-typecheck", "-swift-version", "6", "-I", modules,
                                      "-module-cache-path", temporary.appendingPathComponent("cache").path, file.path], in: temporary)
        #expect(result.status != 0)
        #expect(result.output.contains("does not override any method from its superclass"), "\(result.output)")
    }
}
