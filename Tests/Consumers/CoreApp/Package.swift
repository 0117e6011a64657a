// swift-tools-version: 6.1
import Foundation
import PackageDescription

// An app that depends on Faultline the way an iOS app does: the client and the reporting pipeline, no trait.
// scripts/check-footprint resolves it and fails if it resolves any other package (the allowed set is empty).

// A path dependency is named after its folder, whatever the clone of the repository is called.
let faultline = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "CoreApp",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [.package(path: "../../..")],
    targets: [
        .executableTarget(
            name: "CoreApp",
            dependencies: [
                .product(name: "Faultline", package: faultline),
                .product(name: "FaultlineReporting", package: faultline),
            ]
        )
    ]
)
