import Foundation

/// The one way tests make files: a new empty folder under the system's temporary folder,
/// removed by the test that made it, so a run of the tests leaves nothing behind:
///
/// ```swift
/// let folder = try TemporaryFolder.create("merge")
/// defer { TemporaryFolder.remove(folder) }
/// ```
package enum TemporaryFolder {
    /// A new empty folder named after `label` and a fresh UUID.
    package static func create(_ label: String = "tests") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("groupsim-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Removes `folder` and everything in it.
    package static func remove(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes `contents` to the file `name` in `folder` and returns its path.
    package static func file(_ name: String, _ contents: [UInt8], in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(contents).write(to: url)
        return url.path
    }

    /// Writes `text` to the file `name` in `folder` and returns its path.
    package static func file(_ name: String, _ text: String, in folder: URL) throws -> String {
        try file(name, Array(text.utf8), in: folder)
    }
}
