import Foundation
import Testing

/// The library's public face stays small and the README's count stays true: every
/// top-level `public` type in the library targets (not the Messages and UIKit shapes of
/// Apple's API, not the command line) is counted from the sources.
@Suite struct PublicFaceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The names of the top-level public types declared in `Sources/`'s library targets.
    static func publicTypes() throws -> [String] {
        let sources = root.appendingPathComponent("Sources")
        let excluded: Set = ["GroupSimCLI", "GroupSimMessages", "GroupSimUIKit", "GroupSimScenarios", "groupsim"]
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { !excluded.contains($0) }
        let kinds = ["struct", "enum", "class", "actor", "protocol", "typealias"]
        var names: [String] = []
        for target in targets.sorted() {
            let folder = sources.appendingPathComponent(target)
            guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") where line.hasPrefix("public ") {
                    let words = line.split(separator: " ").drop { ["public", "final", "indirect"].contains($0) }
                    guard let kind = words.first, kinds.contains(String(kind)), let name = words.dropFirst().first else { continue }
                    names.append(String(name.prefix { $0.isLetter || $0.isNumber }))
                }
            }
        }
        return names.sorted()
    }

    @Test func atMostFortyPublicTypesAndTheReadmeCountsThem() throws {
        let names = try Self.publicTypes()
        #expect(names.count <= 40, "\(names.count) public types: \(names)")
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("`import GroupSim` shows \(names.count) top-level types"), "\(names)")
        for name in names {
            #expect(readme.contains("`\(name)`"), "the README's architecture section does not list \(name)")
        }
    }
}
