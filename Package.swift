// swift-tools-version: 6.0
// GroupSim: simulates iMessage group conversations across many devices.
// No package dependencies: Foundation and the test libraries come with the toolchain.
import PackageDescription

let package = Package(
    name: "GroupSim",
    products: [
        .library(name: "GroupSim", targets: ["GroupSim"]),
        .library(name: "GroupSimCLI", targets: ["GroupSimCLI"]),
        .library(name: "GroupSimMessages", targets: ["GroupSimMessages"]),
        .executable(name: "groupsim", targets: ["groupsim"]),
    ],
    targets: [
        .target(name: "GroupSim"),
        .target(name: "GroupSimMessages", dependencies: ["GroupSim"]),
        .target(name: "GroupSimCLI", dependencies: ["GroupSim", "GroupSimMessages"]),
        .executableTarget(name: "groupsim", dependencies: ["GroupSimCLI"]),
        .testTarget(name: "GroupSimTests", dependencies: ["GroupSim"]),
        .testTarget(name: "GroupSimMessagesTests", dependencies: ["GroupSimMessages", "GroupSim"]),
        .testTarget(
            name: "GroupSimCLITests",
            dependencies: ["GroupSimCLI", "GroupSim"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
