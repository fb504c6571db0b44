// swift-tools-version: 6.0
// GroupSim: simulates iMessage group conversations across many devices.
// No package dependencies: Foundation and the test libraries come with the toolchain.
import PackageDescription

let package = Package(
    name: "GroupSim",
    // The oldest systems the code builds for: `ContinuousClock` (the benchmark) needs
    // macOS 13 and iOS 16. Declared so an iOS test target in Xcode can add the package.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "GroupSim", targets: ["GroupSim"]),
        .library(name: "GroupSimCLI", targets: ["GroupSimCLI"]),
        .executable(name: "groupsim", targets: ["groupsim"]),
    ],
    targets: [
        .target(name: "GroupSim"),
        .target(name: "GroupSimCLI", dependencies: ["GroupSim"]),
        .executableTarget(name: "groupsim", dependencies: ["GroupSimCLI"]),
        .testTarget(name: "GroupSimTests", dependencies: ["GroupSim"]),
        .testTarget(
            name: "GroupSimCLITests",
            dependencies: ["GroupSimCLI", "GroupSim"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
