// swift-tools-version: 6.0
// AdHocSim: a deterministic discrete-event simulator of phone-to-phone networks.
// No package dependencies: the toolchain's Swift, Foundation, Dispatch and Swift Testing only.
import PackageDescription

let package = Package(
    name: "AdHocSim",
    products: [
        .library(name: "AdHocSim", targets: ["AdHocSim"]),
        .executable(name: "adhocsim", targets: ["adhocsim"]),
        .executable(name: "adhocfuzz", targets: ["adhocfuzz"]),
    ],
    targets: [
        .target(name: "AdHocSim"),
        .executableTarget(name: "adhocsim", dependencies: ["AdHocSim"]),
        // A seeded subprocess mutation fuzzer of the adhocsim command (docs/hardening.md).
        .executableTarget(name: "adhocfuzz", dependencies: ["AdHocSim"]),
        .testTarget(name: "AdHocSimTests", dependencies: ["AdHocSim"]),
    ],
    swiftLanguageModes: [.v6]
)
