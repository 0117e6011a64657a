import FaultlineReporting
import Foundation
import TestSupport
import Testing

/// Every event says which app, build and device it came from: the release, `dist` and `app` context from the app's
/// bundle (a bundle on disk here, read by Foundation as an app's main bundle is), the device's family and model.
@Suite struct AppIdentityTests {
    struct PaymentDeclined: Error {}

    /// A bundle whose `Info.plist` says `entries`.
    static func bundle(in directory: TemporaryDirectory, _ entries: [String: String]) throws -> Bundle {
        let url = directory.file("Shop.app")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let plist = try PropertyListSerialization.data(fromPropertyList: entries, format: .xml, options: 0)
        try plist.write(to: url.appendingPathComponent("Info.plist"))
        return try #require(Bundle(url: url))
    }

    @Test func theBundleGivesTheReleaseDistAndAppContextOfEveryEvent() async throws {
        let directory = try TemporaryDirectory("identity")
        defer { directory.remove() }
        let log = try LogDirectory()
        defer { log.remove() }
        // Given an app whose bundle has an identifier, a name, a version and a build
        let bundle = try Self.bundle(
            in: directory,
            [
                "CFBundleIdentifier": "com.example.shop", "CFBundleName": "Shop",
                "CFBundleShortVersionString": "3.2.0", "CFBundleVersion": "310",
            ])
        let reporter = try Reporter(options: .init(logDirectory: log.url, environmentVariables: [:], bundle: bundle))

        // When it captures an error
        await reporter.capture(error: PaymentDeclined())

        // Then the event names the release and build as sentry-cocoa does, and the app in its context
        let event = try #require(try await log.events(writtenBy: reporter).first)
        #expect(event.release == "com.example.shop@3.2.0+310")
        #expect(event.dist == "310")
        #expect(
            event.contexts["app"]
                == [
                    "type": "app", "app_identifier": "com.example.shop", "app_name": "Shop", "app_version": "3.2.0",
                    "app_build": "310",
                ])
        // and the device's family (the system's name) and architecture
        guard case .object(let device)? = event.contexts["device"] else {
            Issue.record("no device context in \(event.contexts)")
            return
        }
        #expect(device["family"] == "Linux" || device["family"] == "macOS" || device["family"] == "iOS")
        #expect(device["arch"] != nil)
    }

    @Test func whatTheAppOrTheEnvironmentSetsWinsOverTheBundle() throws {
        let directory = try TemporaryDirectory("identity")
        defer { directory.remove() }
        let bundle = try Self.bundle(
            in: directory,
            ["CFBundleIdentifier": "com.example.shop", "CFBundleShortVersionString": "3.2.0", "CFBundleVersion": "310"])

        let fromEnvironment = Reporter.Options(
            logDirectory: directory.url, environmentVariables: ["SENTRY_RELEASE": "shop-server@7"], bundle: bundle)
        var fromTheApp = Reporter.Options(logDirectory: directory.url, environmentVariables: [:], bundle: bundle)
        fromTheApp.release = "shop@3.2.0"
        fromTheApp.dist = "appstore"

        #expect(fromEnvironment.release == "shop-server@7")
        #expect(fromEnvironment.dist == "310")
        #expect(fromTheApp.release == "shop@3.2.0")
        #expect(fromTheApp.dist == "appstore")
    }

    @Test func anExecutableWithoutABundleHasNoReleaseOrDistUnlessItSetsThem() async throws {
        let directory = try TemporaryDirectory("identity")
        defer { directory.remove() }
        let log = try LogDirectory()
        defer { log.remove() }
        // Given a bundle without an Info.plist's identity (a server-side executable's)
        let bare = try Self.bundle(in: directory, [:])
        let reporter = try Reporter(options: .init(logDirectory: log.url, environmentVariables: [:], bundle: bare))

        await reporter.capture(error: PaymentDeclined())

        // Then the event has no release or dist, and its app context only the process's name
        let event = try #require(try await log.events(writtenBy: reporter).first)
        #expect(event.release == nil)
        #expect(event.dist == nil)
        #expect(event.contexts["app"] == ["type": "app", "app_name": .string(ProcessInfo.processInfo.processName)])
    }
}
