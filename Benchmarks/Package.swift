// swift-tools-version: 6.1
import Foundation
import PackageDescription

// Benchmarks run on demand (`scripts/bench`), never in the test run. Each one measures Faultline side by side with a
// baseline doing the same work in the same run, interleaved, and reports the ratio.

// A path dependency is named after its folder, whatever the clone of the repository is called.
let faultline = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()
let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "FaultlineBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "Faultline", package: faultline),
                .product(name: "FaultlineReporting", package: faultline),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "BenchmarkReport",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "ClientOverhead",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Faultline", package: faultline),
                .product(name: "FaultlineTestServer", package: faultline),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "ReportingPipeline",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Faultline", package: faultline),
                .product(name: "FaultlineReporting", package: faultline),
                .product(name: "FaultlineAsyncHTTPClient", package: faultline),
                .product(name: "FaultlineTestServer", package: faultline),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "TriageSummary",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Faultline", package: faultline),
                .product(name: "FaultlineReporting", package: faultline),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "IngestThroughput",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "FaultlineReporting", package: faultline),
                .product(name: "FaultlineTestServer", package: faultline),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
