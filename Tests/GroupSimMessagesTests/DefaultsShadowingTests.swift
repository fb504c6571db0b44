import Foundation
import GroupSimTesting
import Testing

/// Which `UserDefaults` an extension's file gets, type-checked with `swiftc` against the
/// built modules as ExampleBuildTests does: GroupSim's where the file reaches Foundation
/// only through `GroupSimMessages`; ambiguous where it imports Foundation too, until the
/// target declares the one-line typealias docs/extensions.md gives, which then also
/// serves files that import only Foundation.
@Suite(.serialized) struct DefaultsShadowingTests {
    /// Uses the name unqualified, and compiles only if it is GroupSim's class.
    static let usesDefaults = """
        func lastVote() -> String? {
            let defaults: GroupSimMessages.UserDefaults = UserDefaults.standard
            UserDefaults(suiteName: "group.lunch")?.set(1, forKey: "votes")
            return defaults.string(forKey: "vote")
        }
        """

    /// Type-checks `files` (name → source) as one module; the status and what swiftc printed.
    static func typecheck(_ files: [String: String]) async throws -> (status: Int32, output: String) {
        let modules = try #require(ExampleBuildTests.modulesFolder(), "no built GroupSimMessages.swiftmodule found")
        let temporary = try TemporaryFolder.create()
        defer { TemporaryFolder.remove(temporary) }
        var paths: [String] = []
        for name in files.keys.sorted() {
            let file = temporary.appendingPathComponent(name)
            try files[name]?.write(to: file, atomically: true, encoding: .utf8)
            paths.append(file.path)
        }
        return try await ExampleBuildTests.swiftc(["-typecheck", "-swift-version", "6", "-module-name", "Poll", "-I", modules,
                                             "-module-cache-path", temporary.appendingPathComponent("cache").path] + paths,
                                            in: temporary)
    }

    @Test func groupSimMessagesAloneShadowsFoundation() async throws {
        let result = try await Self.typecheck(["Poll.swift": "import GroupSimMessages\n" + Self.usesDefaults])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("warning:"), "\(result.output)")
    }

    /// Swift lets a module's declaration shadow another module's only when the file
    /// reaches the other module through it alone: with its own `import Foundation` the
    /// file sees two `UserDefaults`.
    @Test func importingFoundationTooIsAmbiguous() async throws {
        let result = try await Self.typecheck(["Poll.swift": "import Foundation\nimport GroupSimMessages\n" + Self.usesDefaults])
        #expect(result.status != 0)
        #expect(result.output.contains("error: ambiguous use of 'init(suiteName:)'")
                && result.output.contains("found this candidate in module 'Foundation'"), "\(result.output)")
    }

    /// The typealias in one file of the target wins in every file of it, the one that
    /// imports Foundation and GroupSimMessages and the one that imports only Foundation.
    @Test func theTargetsTypealiasSettlesEveryFile() async throws {
        let result = try await Self.typecheck([
            "Defaults.swift": """
                #if !canImport(Messages)
                import GroupSimMessages
                typealias UserDefaults = GroupSimMessages.UserDefaults
                #endif

                func isGroupSims(_ defaults: GroupSimMessages.UserDefaults) {}
                """,
            "Poll.swift": "import Foundation\nimport GroupSimMessages\n" + Self.usesDefaults,
            "Store.swift": """
                import Foundation

                func store(_ vote: String) {
                    UserDefaults.standard.set(vote, forKey: "vote")
                    isGroupSims(UserDefaults.standard)
                }
                """,
        ])
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("warning:"), "\(result.output)")
    }
}
