import Foundation

/// The documents `groupsim help` prints (`docs/behaviour.md`, `docs/scenario-format.md`),
/// as they ship with the tool: SwiftPM copies them into the same resource bundle as
/// `Scenarios/` (see Package.swift), and they are found the same way as
/// `BundledScenarios`, so `help format` and `help M12` work from an installed binary.
public enum BundledDocs {
    /// The text of `name` (`behaviour.md`) without its final line breaks, or nil when
    /// neither the bundle nor the checkout the tool was built from holds it.
    public static func text(_ name: String) -> String? {
        guard var text = BundledScenarios.text(name, checkout: "docs/" + name) else { return nil }
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Where the documents were looked for, for an error message.
    public static var bundleDescription: String {
        BundledScenarios.bundleDescription.replacingOccurrences(of: "/Scenarios in", with: " in")
    }
}
