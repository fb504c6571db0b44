// swift-tools-version: 6.0
// GroupSim: simulates iMessage group conversations across many devices.
// No package dependencies: Foundation and the test libraries come with the toolchain.
import Foundation
import PackageDescription

/// The files the tool itself needs ship with it as resources of the `GroupSimScenarios`
/// target: the scenarios (the lessons, the scenario `groupsim bench` runs), copied from
/// `Scenarios/`, the targets of the ratios `groupsim bench` prints (`Benchmarks/Thresholds.json`),
/// and the two documents `groupsim help` prints, copied from `docs/`, so
/// each stays the only copy and a new lesson is one file pair there plus its catalog
/// entry. SwiftPM takes resources only from inside a target's folder and copies a
/// symbolic link as a link, so the target's folder is the package root, with its one
/// source folder named and everything else at the root excluded.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
func visibleEntries(_ folder: String) -> [String] {
    let path = packageRoot.appendingPathComponent(folder).path
    return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
}
let helpDocuments = ["docs/behaviour.md", "docs/scenario-format.md"]
let notShipped = visibleEntries(".").filter { !["Benchmarks", "Scenarios", "Sources", "docs"].contains($0) }
    + visibleEntries("Sources").filter { $0 != "GroupSimScenarios" }.map { "Sources/" + $0 }
    + visibleEntries("docs").map { "docs/" + $0 }.filter { !helpDocuments.contains($0) }

let package = Package(
    name: "GroupSim",
    // The oldest systems the code builds for: `ContinuousClock` (the benchmark) needs
    // macOS 13 and iOS 16. Declared so an iOS test target in Xcode can add the package.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "GroupSim", targets: ["GroupSim"]),
        .library(name: "GroupSimCLI", targets: ["GroupSimCLI"]),
        .library(name: "GroupSimMessages", targets: ["GroupSimMessages"]),
        .library(name: "GroupSimTesting", targets: ["GroupSimTesting"]),
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
        .target(name: "GroupSimMessages", dependencies: ["GroupSimCore", "GroupSimScenario", "GroupSimSimulation", "GroupSimUIKit"]),
        // Test support for users' test targets (ExtensionHarness) and, at package access, for
        // ours: scenario fixtures, temporary folders, running the built tool.
        .target(name: "GroupSimTesting", dependencies: ["GroupSim", "GroupSimMessages"]),
        .target(name: "GroupSimScenarios", path: ".", exclude: notShipped, sources: ["Sources/GroupSimScenarios"],
                resources: [.copy("Scenarios"), .copy("Benchmarks")] + helpDocuments.map { .copy($0) }),
        // The workloads `groupsim bench` times and the apps they run, kept out of the commands.
        .target(name: "GroupSimBench", dependencies: ["GroupSim", "GroupSimMessages"]),
        .target(name: "GroupSimCLI", dependencies: ["GroupSim", "GroupSimMessages", "GroupSimScenarios", "GroupSimBench"]),
        .executableTarget(name: "groupsim", dependencies: ["GroupSimCLI"]),
        // One test target per library target; GroupSimTesting holds what they share.
        .testTarget(name: "GroupSimCoreTests", dependencies: ["GroupSim", "GroupSimCore", "GroupSimTesting"]),
        .testTarget(name: "GroupSimScenarioTests", dependencies: ["GroupSim", "GroupSimScenario", "GroupSimTesting"]),
        // The pinned digests are read from the source tree by GoldenDigestTests.
        .testTarget(name: "GroupSimSimulationTests", dependencies: ["GroupSim", "GroupSimSimulation", "GroupSimTesting"],
                    exclude: ["Simulation/golden-digests.txt"]),
        .testTarget(name: "GroupSimCheckingTests", dependencies: ["GroupSim", "GroupSimChecking", "GroupSimTesting"]),
        .testTarget(name: "GroupSimReportingTests", dependencies: ["GroupSim", "GroupSimReporting", "GroupSimTesting"]),
        .testTarget(name: "GroupSimMessagesTests", dependencies: ["GroupSimMessages", "GroupSim", "GroupSimBench", "GroupSimTesting"]),
        // The definition of the public API: imports only the products, without @testable.
        .testTarget(name: "GroupSimPublicAPITests", dependencies: ["GroupSim", "GroupSimMessages"]),
        .testTarget(
            name: "GroupSimCLITests",
            dependencies: ["GroupSimCLI", "GroupSim", "GroupSimChecking", "GroupSimMessages", "GroupSimBench", "GroupSimScenarios",
                           "GroupSimTesting"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
