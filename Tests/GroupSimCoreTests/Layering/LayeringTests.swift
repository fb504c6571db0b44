import Foundation
import Testing

/// The library is five targets along the data path, and a target may use only the ones
/// above it: the compiler refuses an upward import because `Package.swift` does not list
/// the dependency. These tests keep `Package.swift`, the sources' imports and the
/// README's order in step, so a dependency added the wrong way round fails here by name.
@Suite struct LayeringTests {
    /// The data path, lowest first: scenario file → Scenario → Simulation → Trace and
    /// final state → Checking → Reporting.
    static let layers = ["GroupSimCore", "GroupSimScenario", "GroupSimSimulation", "GroupSimChecking", "GroupSimReporting"]

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Each `.target(name:dependencies:)` of `Package.swift`, by name.
    static func targets() throws -> [String: [String]] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var targets: [String: [String]] = [:]
        for match in manifest.matches(of: #/\.target\(\s*name:\s*"(\w+)"(?:\s*,\s*dependencies:\s*\[([^\]]*)\])?/#) {
            let dependencies = (match.output.2.map(String.init) ?? "")
                .matches(of: #/"(\w+)"/#).map { String($0.output.1) }
            targets[String(match.output.1)] = dependencies
        }
        return targets
    }

    /// The `.swift` files under `Sources/<target>`, relative to it, sorted.
    static func sources(of target: String) throws -> [String] {
        let folder = root.appendingPathComponent("Sources/" + target)
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// The modules a source file imports (`import X`, `@_exported import X`).
    static func imports(_ source: String) -> [String] {
        source.split(separator: "\n").compactMap { line in
            line.firstMatch(of: #/^(?:@\w+\s+)*import\s+(\w+)/#).map { String($0.output.1) }
        }
    }

    /// `Package.swift` gives each layer exactly the layers above it, and `GroupSim` all five.
    @Test func manifestDependsOnlyUpward() throws {
        let targets = try Self.targets()
        for (index, layer) in Self.layers.enumerated() {
            let dependencies = try #require(targets[layer], "Package.swift has no target \(layer)")
            #expect(dependencies == Array(Self.layers[..<index]), "\(layer) depends on \(dependencies)")
        }
        #expect(targets["GroupSim"] == Self.layers)
    }

    /// No library source imports a layer below its own, or a target built on the library.
    @Test func sourcesImportOnlyLayersAbove() throws {
        var checked = 0
        for (index, layer) in Self.layers.enumerated() {
            let files = try Self.sources(of: layer)
            #expect(!files.isEmpty, "Sources/\(layer) has no sources")
            for file in files {
                let source = try String(contentsOf: Self.root.appendingPathComponent("Sources/\(layer)/\(file)"), encoding: .utf8)
                for module in Self.imports(source) where module.hasPrefix("GroupSim") {
                    let position = Self.layers.firstIndex(of: module)
                    #expect(position.map { $0 < index } == true, "Sources/\(layer)/\(file) imports \(module)")
                }
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    /// The targets built on the library, each with only what its job uses: the Messages
    /// API shape, test support, the bench workloads, the commands.
    static let builtOn: [String: [String]] = [
        "GroupSimUIKit": [],
        "GroupSimMessages": ["GroupSimCore", "GroupSimScenario", "GroupSimSimulation", "GroupSimUIKit"],
        "GroupSimTesting": ["GroupSim", "GroupSimMessages"],
        "GroupSimBench": ["GroupSim", "GroupSimMessages"],
        "GroupSimCLI": ["GroupSim", "GroupSimMessages", "GroupSimScenarios", "GroupSimBench"],
    ]

    @Test func targetsBuiltOnTheLibraryDependOnWhatTheyUse() throws {
        let targets = try Self.targets()
        for (name, dependencies) in Self.builtOn.sorted(by: { $0.key < $1.key }) {
            #expect(targets[name] == dependencies, "\(name) depends on \(targets[name] ?? [])")
        }
    }

    /// One test target per library target, and no test target but the CLI's own depends
    /// on the CLI.
    @Test func testTargetsFollowTheLibrary() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var tests: [String: [String]] = [:]
        for match in manifest.matches(of: #/\.testTarget\(\s*name:\s*"(\w+)"(?:\s*,\s*dependencies:\s*\[([^\]]*)\])?/#) {
            tests[String(match.output.1)] = (match.output.2.map(String.init) ?? "").matches(of: #/"(\w+)"/#).map { String($0.output.1) }
        }
        for layer in Self.layers {
            #expect(tests[layer + "Tests"]?.contains(layer) == true, "no test target \(layer)Tests that depends on \(layer)")
        }
        for (name, dependencies) in tests.sorted(by: { $0.key < $1.key }) where name != "GroupSimCLITests" {
            #expect(!dependencies.contains("GroupSimCLI"), "\(name) depends on GroupSimCLI")
        }
    }

    /// `GroupSim` is only the re-export, so `import GroupSim` is the whole library and no
    /// code lands in it by mistake (a file added under `Sources/GroupSim/` belongs in a layer).
    @Test func groupSimOnlyReexportsTheLayers() throws {
        #expect(try Self.sources(of: "GroupSim") == ["GroupSim.swift"])
        let source = try String(contentsOf: Self.root.appendingPathComponent("Sources/GroupSim/GroupSim.swift"), encoding: .utf8)
        let reexported = source.split(separator: "\n").compactMap { line in
            line.firstMatch(of: #/^@_exported import (\w+)$/#).map { String($0.output.1) }
        }
        #expect(reexported == Self.layers)
    }
}
