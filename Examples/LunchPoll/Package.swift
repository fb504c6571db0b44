// swift-tools-version: 6.0
// LunchPoll: an iMessage poll extension written against Apple's Messages API, tested on
// GroupSim's simulated devices. On iOS the sources import Messages; here GroupSimMessages.
import PackageDescription

let package = Package(
    name: "LunchPoll",
    products: [
        .library(name: "LunchPoll", targets: ["LunchPoll"]),
    ],
    dependencies: [
        // GroupSim, from this repository (two folders up).
        .package(name: "GroupSim", path: "../.."),
    ],
    targets: [
        // The extension's logic: only Apple's API, so the same files build in Xcode.
        .target(name: "LunchPoll", dependencies: [.product(name: "GroupSimMessages", package: "GroupSim")]),
        // The tests, and the small adapters that connect the app to the simulation.
        .testTarget(name: "LunchPollTests", dependencies: [
            "LunchPoll",
            .product(name: "GroupSim", package: "GroupSim"),
            .product(name: "GroupSimMessages", package: "GroupSim"),
            .product(name: "GroupSimTesting", package: "GroupSim"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
