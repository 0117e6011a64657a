// swift-tools-version: 6.1
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

// What an app resolves is what the products below reach: the core pair (`Faultline`, `FaultlineReporting`) uses no
// other package, and each adapter's package is behind a trait named after it, off unless the app enables it. The CLI,
// `faultline serve`, the seed-contract server and the benchmarks are targets without products: SwiftPM resolves their
// server stack (SwiftNIO, Hummingbird) when this package is the root, never for a package that depends on it.
// Tests/Consumers holds two apps that check this (scripts/check-footprint). In this repository, build with
// `--enable-all-traits`; the scripts do.
let package = Package(
    name: "Faultline",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
    products: [
        .library(name: "Faultline", targets: ["Faultline"]),
        .library(name: "FaultlineReporting", targets: ["FaultlineReporting"]),
        .library(name: "FaultlineLogging", targets: ["FaultlineLogging"]),
        .library(name: "FaultlineMetrics", targets: ["FaultlineMetrics"]),
        .library(name: "FaultlineOpenAPI", targets: ["FaultlineOpenAPI"]),
        .library(name: "FaultlineAsyncHTTPClient", targets: ["FaultlineAsyncHTTPClient"]),
    ],
    traits: [
        .trait(name: "SwiftLog", description: "FaultlineLogging: swift-log records as breadcrumbs and events."),
        .trait(name: "SwiftMetrics", description: "FaultlineMetrics: the pipeline's counts through swift-metrics."),
        .trait(name: "OpenAPIRuntime", description: "FaultlineOpenAPI: middlewares for swift-openapi-runtime clients."),
        .trait(
            name: "AsyncHTTPClient",
            description: "FaultlineAsyncHTTPClient: the uploader over AsyncHTTPClient, for server-side apps."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    ],
    targets: [
        // The API client: classification, authentication, retries. Foundation only: it ships inside iOS apps.
        .target(name: "Faultline", swiftSettings: strictSettings),
        // The system zlib, for gzip in the local log and on the wire.
        .systemLibrary(
            name: "CFaultlineZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // The system brotli decoder, for the bodies sentry-python sends to `faultline serve`.
        .systemLibrary(
            name: "CFaultlineBrotli", pkgConfig: "libbrotlidec",
            providers: [.apt(["libbrotli-dev"]), .brew(["brotli"])]
        ),
        // What is on disk: the log directory's layout, the rotating, gzipped, locked logs every record kind is written
        // to and read back from, atomic file rewrites and the time codec. Below the SDK, serve and the CLI alike;
        // Foundation and zlib only.
        .target(
            name: "FaultlineRecords", dependencies: ["Faultline", "CFaultlineZlib"], swiftSettings: strictSettings),
        // Turns classified failures into Sentry-protocol events, stores and delivers them. Foundation and zlib only.
        .target(
            name: "FaultlineReporting", dependencies: ["Faultline", "FaultlineRecords"], swiftSettings: strictSettings),
        // The uploader's transport over AsyncHTTPClient, for server-side apps on Linux.
        .target(
            name: "FaultlineAsyncHTTPClient",
            dependencies: [
                "FaultlineReporting",
                .product(
                    name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClient"])
                ),
            ],
            swiftSettings: strictSettings),
        // The pipeline's counts through swift-metrics, for server-side apps that export metrics.
        .target(
            name: "FaultlineMetrics",
            dependencies: [
                "FaultlineReporting", "FaultlineRecords",
                .product(name: "CoreMetrics", package: "swift-metrics", condition: .when(traits: ["SwiftMetrics"])),
            ],
            swiftSettings: strictSettings),
        // swift-log records as breadcrumbs, and error records as events.
        .target(
            name: "FaultlineLogging",
            dependencies: [
                "FaultlineReporting",
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["SwiftLog"])),
            ],
            swiftSettings: strictSettings),
        // A swift-openapi-runtime client middleware: classification, token refresh and capture for generated clients.
        .target(
            name: "FaultlineOpenAPI",
            dependencies: [
                "Faultline", "FaultlineReporting",
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["OpenAPIRuntime"])),
                .product(
                    name: "OpenAPIRuntime", package: "swift-openapi-runtime",
                    condition: .when(traits: ["OpenAPIRuntime"])),
            ],
            swiftSettings: strictSettings),
        // Reads a log directory's events (the log, its rotated files, outbox envelopes) line by line into records,
        // for what both `faultline serve` and the triage commands read. Not a product: apps never build it.
        .target(
            name: "FaultlineLogReading", dependencies: ["FaultlineRecords"],
            swiftSettings: strictSettings),
        // Incident triage from a terminal over the logs FaultlineLogReading reads: issues, signals, reports.
        .target(
            name: "FaultlineTriage", dependencies: ["FaultlineLogReading", "FaultlineReporting", "FaultlineRecords"],
            swiftSettings: strictSettings),
        // `faultline serve`: a Sentry-compatible ingest that writes what it accepts to the local log format, and
        // forwards it upstream (over AsyncHTTPClient when its trait is on).
        .target(
            name: "FaultlineServe",
            dependencies: [
                "Faultline", "FaultlineReporting", "FaultlineRecords", "FaultlineLogReading", "CFaultlineBrotli",
                "LoopbackPorts",
                .target(name: "FaultlineAsyncHTTPClient", condition: .when(traits: ["AsyncHTTPClient"])),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strictSettings
        ),
        // Ports on 127.0.0.1 held by a socket that never listens: where a test finds a server down, and where a stopped
        // ingest starts again. The system's C library only.
        .target(name: "LoopbackPorts", swiftSettings: strictSettings),
        // A loopback server that reproduces the seed posts' server contracts, for tests and the demo.
        .target(
            name: "FaultlineTestServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        // Clients for the seed servers (models, authenticators, code catalogue), the demo that drives them, and their
        // failures captured by a reporter.
        .target(
            name: "SeedScenarios",
            dependencies: [
                "Faultline", "FaultlineReporting", "FaultlineRecords", "FaultlineLogReading", "FaultlineTestServer",
            ],
            swiftSettings: strictSettings),
        .executableTarget(
            name: "faultline",
            dependencies: [
                "Faultline",
                "FaultlineReporting", "FaultlineRecords",
                "FaultlineLogReading",
                "FaultlineTriage",
                "FaultlineServe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // The demo (`scripts/demo`): the seed scenarios through the whole toolkit on loopback. Apart from the CLI, so
        // that the installed `faultline` links neither the seed-contract server nor the scenarios.
        .executableTarget(
            name: "faultline-demo",
            dependencies: [
                "FaultlineReporting", "FaultlineRecords", "FaultlineLogReading", "FaultlineTriage", "FaultlineServe",
                "FaultlineTestServer",
                "SeedScenarios", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // An app the kill tests start and kill with SIGKILL: it captures events until it is killed.
        .executableTarget(
            name: "CaptureLoop", dependencies: ["Faultline", "FaultlineReporting", "FaultlineRecords"],
            path: "Tests/Processes/CaptureLoop",
            swiftSettings: strictSettings),
        // Benchmarks, run on demand by scripts/bench in release builds, never in the test run. Each measures Faultline
        // beside a baseline doing the same work in the same run and reports the ratio (Benchmarks/README.md).
        .target(
            name: "BenchmarkSupport", dependencies: ["Faultline", "FaultlineReporting", "FaultlineRecords"],
            path: "Benchmarks/Sources/BenchmarkSupport", swiftSettings: strictSettings),
        .executableTarget(
            name: "BenchmarkReport",
            dependencies: ["BenchmarkSupport", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Benchmarks/Sources/BenchmarkReport", swiftSettings: strictSettings),
        .executableTarget(
            name: "ClientOverhead",
            dependencies: [
                "BenchmarkSupport", "Faultline", "FaultlineReporting", "FaultlineRecords", "FaultlineTestServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/Sources/ClientOverhead", swiftSettings: strictSettings),
        .executableTarget(
            name: "ReportingPipeline",
            dependencies: [
                "BenchmarkSupport", "Faultline", "FaultlineReporting", "FaultlineRecords", "FaultlineLogReading",
                "FaultlineAsyncHTTPClient",
                "FaultlineTestServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/Sources/ReportingPipeline", swiftSettings: strictSettings),
        .executableTarget(
            name: "TriageSummary",
            dependencies: [
                "BenchmarkSupport", "Faultline", "FaultlineReporting", "FaultlineRecords",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/Sources/TriageSummary", swiftSettings: strictSettings),
        .executableTarget(
            name: "IngestThroughput",
            dependencies: [
                "BenchmarkSupport", "FaultlineReporting", "FaultlineRecords", "FaultlineLogReading",
                "FaultlineTestServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/Sources/IngestThroughput", swiftSettings: strictSettings),
        // The fuzz targets: every parser of untrusted input, with the checks where two readers must agree, serve's
        // among them. `scripts/fuzz` builds them with `-sanitize=fuzzer,address`, and FaultlineFuzz runs one under
        // libFuzzer there; in a regular build, it replays files through one.
        .target(
            name: "FaultlineFuzzTargets",
            dependencies: [
                "Faultline", "FaultlineReporting", "FaultlineRecords", "FaultlineLogReading", "FaultlineTriage",
                "FaultlineServe",
            ],
            path: "Tests/Fuzz/Targets", swiftSettings: strictSettings),
        .executableTarget(
            name: "FaultlineFuzz", dependencies: ["FaultlineFuzzTargets"], path: "Tests/Fuzz/Driver",
            swiftSettings: strictSettings),
        // What the test targets share: one temporary directory, one process runner, one repository root, one
        // `eventually(within:)`, one fake clock. Not a product; the core targets never depend on it.
        .target(
            name: "TestSupport",
            dependencies: [
                "FaultlineRecords", "FaultlineTestServer", .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: strictSettings),
        .testTarget(
            name: "FaultlineFuzzTests", dependencies: ["FaultlineFuzzTargets", "TestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "FaultlineTests",
            dependencies: ["Faultline", "FaultlineTestServer", "LoopbackPorts", "SeedScenarios", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FaultlineRecordsTests", dependencies: ["Faultline", "FaultlineRecords", "TestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "FaultlineLogReadingTests",
            dependencies: ["FaultlineLogReading", "FaultlineReporting", "FaultlineRecords", "TestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FaultlineTriageTests",
            dependencies: [
                "FaultlineTriage", "FaultlineLogReading", "FaultlineReporting", "FaultlineRecords",
                "FaultlineTestServer", "SeedScenarios",
                "TestSupport",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FaultlineServeTests",
            dependencies: [
                "Faultline", "FaultlineServe", "FaultlineTriage", "FaultlineLogReading", "FaultlineReporting",
                "FaultlineRecords",
                "FaultlineTestServer", "LoopbackPorts", "SeedScenarios", "TestSupport",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DashboardsTests",
            dependencies: [
                "Faultline", "FaultlineTriage", "FaultlineLogReading", "FaultlineReporting", "FaultlineRecords",
                "FaultlineTestServer",
                "FaultlineServe", "FaultlineMetrics", "SeedScenarios", "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FaultlineLoggingTests",
            dependencies: [
                "FaultlineLogging", "FaultlineReporting", "FaultlineRecords", "FaultlineLogReading", "TestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FaultlineOpenAPITests",
            dependencies: [
                "FaultlineOpenAPI", "Faultline", "FaultlineReporting", "FaultlineRecords", "FaultlineLogReading",
                "FaultlineTestServer",
                "SeedScenarios", "TestSupport",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
            ],
            exclude: ["openapi.yaml", "openapi-generator-config.yaml"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FaultlineMetricsTests",
            dependencies: [
                "FaultlineMetrics", "FaultlineReporting", "FaultlineRecords", "FaultlineLogReading", "FaultlineServe",
                "FaultlineTestServer",
                "SeedScenarios", "TestSupport",
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "FaultlineReportingTests",
            dependencies: [
                "FaultlineReporting", "FaultlineRecords", "FaultlineLogReading", "FaultlineAsyncHTTPClient",
                "FaultlineTestServer",
                "LoopbackPorts", "SeedScenarios", "TestSupport",
            ],
            swiftSettings: strictSettings
        ),
    ]
)
