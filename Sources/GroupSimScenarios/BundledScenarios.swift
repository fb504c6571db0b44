import Foundation

/// The package's `Scenarios/` folder as it ships with the tool: the lessons that
/// `groupsim lessons` runs and the scenario `groupsim bench` measures, so neither
/// depends on the folder the tool is started from.
///
/// SwiftPM copies `Scenarios/` into this target's resource bundle at build time (see
/// Package.swift), next to the built executable. The bundle is looked up by hand rather
/// than through `Bundle.module`, which stops the process when the bundle is missing: an
/// executable copied somewhere without its bundle falls back to the source checkout it
/// was built from, and when that is gone too the caller gets nil and says so.
public enum BundledScenarios {
    /// The resource bundle's name next to the executable (Linux, then macOS).
    static let bundleNames = ["GroupSim_GroupSimScenarios.resources", "GroupSim_GroupSimScenarios.bundle"]

    /// The shipped `Scenarios/` folder, or nil when neither the bundle nor the checkout
    /// the tool was built from can be found.
    public static var folder: String? {
        candidates().first { isFolder($0) }
    }

    /// `relative` inside the shipped `Scenarios/` folder (`lessons`, `pickles-race.yaml`),
    /// or nil when it is not there.
    public static func path(_ relative: String) -> String? {
        for folder in candidates() where isFolder(folder) {
            let path = folder + "/" + relative
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        return nil
    }

    /// The text of the shipped resource `inside` the bundle, or of `checkout` in the
    /// checkout the tool was built from; nil when neither can be read.
    static func text(_ inside: String, checkout: String) -> String? {
        for path in places(inside, checkout: checkout) {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            return String(decoding: data, as: UTF8.self)
        }
        return nil
    }

    /// `Benchmarks/Thresholds.json`, the targets of the ratios `groupsim bench` prints, as
    /// it ships with the tool; nil when neither the bundle nor the checkout holds it.
    public static var benchThresholds: String? {
        text("Benchmarks/Thresholds.json", checkout: "Benchmarks/Thresholds.json")
    }

    /// Where the folder was looked for, for an error message.
    public static var bundleDescription: String {
        let executable = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent().path ?? "the executable's folder"
        return "looked for \(bundleNames[0])/Scenarios in \(executable) and for the checkout it was built from"
    }

    /// Where the shipped folder may be, most preferred first: in the bundle beside the
    /// executable (links to the executable followed, so a link in a `bin` folder works),
    /// then the checkout that this file was compiled from.
    static func candidates() -> [String] { places("Scenarios", checkout: "Scenarios") }

    /// Where a shipped resource may be, most preferred first: `inside` the bundle beside
    /// the executable (links to the executable followed, so a link in a `bin` folder
    /// works), then `checkout`, relative to the checkout that this file was compiled from.
    static func places(_ inside: String, checkout: String) -> [String] {
        var places: [URL] = []
        if let executable = Bundle.main.executableURL {
            places.append(executable.deletingLastPathComponent())
            places.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        places.append(Bundle.main.bundleURL)
        var result: [String] = []
        for place in places {
            for name in bundleNames {
                let bundle = place.appendingPathComponent(name)
                for folder in ["", "Contents/Resources/"] {
                    let path = bundle.appendingPathComponent(folder + inside).path
                    if !result.contains(path) { result.append(path) }
                }
            }
        }
        // Sources/GroupSimScenarios/BundledScenarios.swift -> the package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        result.append(root.appendingPathComponent(checkout).path)
        return result
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
