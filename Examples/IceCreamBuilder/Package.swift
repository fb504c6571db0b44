// swift-tools-version: 6.0
// IceCreamBuilder: a group builds one sundae in turns, in the shape of Apple's Messages
// sample: a MessagesViewController that switches child view controllers on the
// presentation style. On iOS the sources import Messages and UIKit; here GroupSimMessages.
import PackageDescription

let package = Package(
    name: "IceCreamBuilder",
    products: [
        .library(name: "IceCreamBuilder", targets: ["IceCreamBuilder"]),
    ],
    dependencies: [
        // GroupSim, from this repository (two folders up).
        .package(name: "GroupSim", path: "../.."),
    ],
    targets: [
        // The extension: only Apple's API, so the same files build in Xcode.
        .target(name: "IceCreamBuilder", dependencies: [.product(name: "GroupSimMessages", package: "GroupSim")]),
        // The tests, and the adapters that connect the extension to the simulation.
        .testTarget(name: "IceCreamBuilderTests", dependencies: [
            "IceCreamBuilder",
            .product(name: "GroupSim", package: "GroupSim"),
            .product(name: "GroupSimMessages", package: "GroupSim"),
            .product(name: "GroupSimTesting", package: "GroupSim"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
