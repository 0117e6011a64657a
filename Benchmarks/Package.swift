// swift-tools-version: 6.1
import PackageDescription

// Benchmarks run on demand (`scripts/bench`), never in the test run. Each one measures Faultline side by side with a
// baseline doing the same work in the same process, interleaved, and reports the ratio.
let package = Package(
    name: "FaultlineBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        .executableTarget(
            name: "ClientOverhead",
            dependencies: [
                .product(name: "Faultline", package: "main"),
                .product(name: "FaultlineTestServer", package: "main"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        )
    ]
)
