// swift-tools-version: 6.0
// GroupSim: simulates iMessage group conversations across many devices.
// No package dependencies: Foundation and the test libraries come with the toolchain.
import Foundation
import PackageDescription

/// The scenarios the tool itself needs (the lessons, the scenario `groupsim bench` runs)
/// ship with it as resources of the `GroupSimScenarios` target, copied from `Scenarios/`
/// at build time, so `Scenarios/` stays the only copy and a new lesson is one file pair
/// there plus its catalog entry. SwiftPM takes resources only from inside a target's
/// folder and copies a symbolic link as a link, so the target's folder is the package
/// root, with its one source folder named and everything else at the root excluded.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
func visibleEntries(_ folder: String) -> [String] {
    let path = packageRoot.appendingPathComponent(folder).path
    return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
}
let notScenarios = visibleEntries(".").filter { $0 != "Scenarios" && $0 != "Sources" }
    + visibleEntries("Sources").filter { $0 != "GroupSimScenarios" }.map { "Sources/" + $0 }

let package = Package(
    name: "GroupSim",
    // The oldest systems the code builds for: `ContinuousClock` (the benchmark) needs
    // macOS 13 and iOS 16. Declared so an iOS test target in Xcode can add the package.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "GroupSim", targets: ["GroupSim"]),
        .library(name: "GroupSimCLI", targets: ["GroupSimCLI"]),
        .library(name: "GroupSimMessages", targets: ["GroupSimMessages"]),
        .executable(name: "groupsim", targets: ["groupsim"]),
    ],
    targets: [
        // The library, split along the data path; a target may depend only on the ones
        // above it, so an upward dependency does not compile (LayeringTests checks the order).
        .target(name: "GroupSimCore"),
        .target(name: "GroupSimScenario", dependencies: ["GroupSimCore"]),
        .target(name: "GroupSimSimulation", dependencies: ["GroupSimCore", "GroupSimScenario"]),
        .target(name: "GroupSimChecking", dependencies: ["GroupSimCore", "GroupSimScenario", "GroupSimSimulation"]),
        .target(name: "GroupSimReporting",
                dependencies: ["GroupSimCore", "GroupSimScenario", "GroupSimSimulation", "GroupSimChecking"]),
        // One import for users: re-exports the five targets above.
        .target(name: "GroupSim",
                dependencies: ["GroupSimCore", "GroupSimScenario", "GroupSimSimulation", "GroupSimChecking", "GroupSimReporting"]),
        // The part of UIKit an extension's controller touches, drawing nothing; GroupSimMessages re-exports it.
        .target(name: "GroupSimUIKit"),
        .target(name: "GroupSimMessages", dependencies: ["GroupSim", "GroupSimUIKit"]),
        .target(name: "GroupSimScenarios", path: ".", exclude: notScenarios, sources: ["Sources/GroupSimScenarios"],
                resources: [.copy("Scenarios")]),
        .target(name: "GroupSimCLI", dependencies: ["GroupSim", "GroupSimMessages", "GroupSimScenarios"]),
        .executableTarget(name: "groupsim", dependencies: ["GroupSimCLI"]),
        // The pinned digests are read from the source tree by GoldenDigestTests.
        .testTarget(name: "GroupSimTests", dependencies: [
            "GroupSim", "GroupSimCore", "GroupSimScenario", "GroupSimSimulation", "GroupSimChecking", "GroupSimReporting",
        ], exclude: ["Simulation/golden-digests.txt"]),
        // The definition of the public API: imports only the products, without @testable.
        .testTarget(name: "GroupSimPublicAPITests", dependencies: ["GroupSim", "GroupSimMessages"]),
        .testTarget(name: "GroupSimMessagesTests", dependencies: ["GroupSimMessages", "GroupSim", "GroupSimCLI"]),
        .testTarget(
            name: "GroupSimCLITests",
            dependencies: ["GroupSimCLI", "GroupSim"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
