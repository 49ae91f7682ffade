// swift-tools-version: 6.0
// AdHocSim: a deterministic discrete-event simulator of phone-to-phone networks.
// No package dependencies: the toolchain's Swift, Foundation, Dispatch and Swift Testing only.
import PackageDescription

let package = Package(
    name: "AdHocSim",
    products: [
        .library(name: "AdHocSim", targets: ["AdHocSim"]),
        .executable(name: "adhocsim", targets: ["adhocsim"]),
    ],
    targets: [
        .target(name: "AdHocSim"),
        .executableTarget(name: "adhocsim", dependencies: ["AdHocSim"]),
        .testTarget(name: "AdHocSimTests", dependencies: ["AdHocSim"]),
    ],
    swiftLanguageModes: [.v6]
)
