import Foundation
import Testing
@testable import GroupSim

/// docs/extending.md stays true: every file it names exists, and every descriptor table it
/// names holds one descriptor per kind, in the kinds' order, with distinct words.
@Suite struct ExtendingPageTests {
    /// The package root: the nearest folder above this file that holds Package.swift.
    static let root: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/", !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        return folder
    }()

    static func page() throws -> String {
        try String(contentsOf: root.appendingPathComponent("docs/extending.md"), encoding: .utf8)
    }

    /// The code spans of `text` that are repository paths (`Sources/...`, `docs/...`).
    static func paths(in text: String) -> [String] {
        let spans = text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        return spans.filter { span in
            ["Sources/", "Tests/", "docs/", "scripts/"].contains { span.hasPrefix($0) } && !span.contains(" ")
        }
    }

    @Test func everyFileThePageNamesExists() throws {
        let paths = Self.paths(in: try Self.page())
        #expect(paths.count >= 20, "\(paths)")
        for path in paths {
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path), "\(path)")
        }
    }

    @Test func everyDescriptorTableThePageNamesHasEveryKind() throws {
        let page = try Self.page()
        for table in ["Action.Kind.descriptors", "Check.Kind.descriptors", "PitfallKind.descriptors", "AppCallback.descriptors"] {
            #expect(page.contains("`\(table)`"), "\(table)")
        }
        #expect(Scenario.Action.Kind.descriptors == Scenario.Action.Kind.allCases.map(\.descriptor))
        #expect(Set(Scenario.Action.Kind.descriptors.map(\.keyword)).count == Scenario.Action.Kind.allCases.count)
        #expect(Scenario.Check.Kind.descriptors == Scenario.Check.Kind.allCases.map(\.descriptor))
        #expect(Set(Scenario.Check.Kind.descriptors.map(\.keyword)).count == Scenario.Check.Kind.allCases.count)
        #expect(Scenario.PitfallKind.descriptors == Scenario.PitfallKind.allCases.map(\.descriptor))
        #expect(Set(Scenario.PitfallKind.descriptors.map(\.keyword)).count == Scenario.PitfallKind.allCases.count)
        #expect(AppCallback.descriptors == AppCallback.allCases.map(\.descriptor))
        #expect(Set(AppCallback.descriptors.map(\.name)).count == AppCallback.allCases.count)
    }

    /// The page names the test suites it says hold the tables together.
    @Test func theSuitesThePageNamesExist() throws {
        let page = try Self.page()
        for suite in ["KindDescriptorTests", "VocabularyHelpTests", "ExtendingPageTests"] {
            #expect(page.contains("`\(suite)`"), "\(suite)")
        }
    }
}
