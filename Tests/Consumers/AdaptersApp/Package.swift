// swift-tools-version: 6.1
import Foundation
import PackageDescription

// An app that uses Faultline's adapters for swift-log, swift-metrics and swift-openapi-runtime, each enabled by its
// trait. scripts/check-footprint resolves it and fails if it resolves a package beyond what those adapters need.

// A path dependency is named after its folder, whatever the clone of the repository is called.
let faultline = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().lastPathComponent.lowercased()

let package = Package(
    name: "AdaptersApp",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(path: "../../..", traits: ["SwiftLog", "SwiftMetrics", "OpenAPIRuntime"]),
        // The app logs through swift-log itself; FaultlineLogging's trait needs the same package.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .executableTarget(
            name: "AdaptersApp",
            dependencies: [
                .product(name: "Faultline", package: faultline),
                .product(name: "FaultlineReporting", package: faultline),
                .product(name: "FaultlineLogging", package: faultline),
                .product(name: "FaultlineMetrics", package: faultline),
                .product(name: "FaultlineOpenAPI", package: faultline),
                .product(name: "Logging", package: "swift-log"),
            ]
        )
    ]
)
