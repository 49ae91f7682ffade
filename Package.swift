// swift-tools-version: 6.0
// AdHocSim: a deterministic discrete-event simulator of phone-to-phone networks.
// No package dependencies: the toolchain's Swift, Foundation, Dispatch and Swift Testing only.
import Foundation
import PackageDescription

/// Each layer's folder says what it owns in its README.md (docs, neither a source nor a
/// resource): excluded here, folder by folder, so a build warns of no unhandled file and a new
/// layer's folder needs no line of its own. (Where a manifest is read without the package's
/// files, as SwiftPM may for a versioned dependency, the list is just the top README and the
/// build only warns.)
let folderReadmes =
    ["README.md"]
    + ((try? FileManager.default.contentsOfDirectory(atPath: Context.packageDirectory + "/Sources/AdHocSim")) ?? [])
    .filter { !$0.hasSuffix(".md") }.sorted().map { "\($0)/README.md" }

let package = Package(
    name: "AdHocSim",
    products: [
        .library(name: "AdHocSim", targets: ["AdHocSim"]),
        .executable(name: "adhocsim", targets: ["adhocsim"]),
        .executable(name: "adhocfuzz", targets: ["adhocfuzz"]),
    ],
    targets: [
        .target(name: "AdHocSim", exclude: folderReadmes),
        .executableTarget(name: "adhocsim", dependencies: ["AdHocSim"]),
        // A seeded subprocess mutation fuzzer of the adhocsim command (docs/hardening.md).
        .executableTarget(name: "adhocfuzz", dependencies: ["AdHocSim"]),
        .testTarget(name: "AdHocSimTests", dependencies: ["AdHocSim"]),
    ],
    swiftLanguageModes: [.v6]
)
