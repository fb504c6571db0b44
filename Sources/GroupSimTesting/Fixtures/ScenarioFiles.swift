import Foundation

/// Where the package's files are, from this source file's path.
package enum ScenarioFiles {
    package static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every scenario file shipped under Scenarios/, lessons included, as sorted paths.
    package static let shipped: [String] = {
        let directory = root.appendingPathComponent("Scenarios")
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "yaml" } ?? []
        return files.map(\.path).sorted()
    }()

    /// The same files relative to Scenarios/ (`lessons/NAME-broken.yaml`).
    package static let shippedNames: [String] = {
        let folder = root.appendingPathComponent("Scenarios").path
        return shipped.map { String($0.dropFirst(folder.count + 1)) }
    }()
}
