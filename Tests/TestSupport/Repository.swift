import Foundation

/// The repository the tests were built from: its scripts, README, peers (`Tests/peers`) and the virtualenv
/// `scripts/setup` makes (`.venv`).
package enum Repository {
    /// Its root folder, found from this file's place in it (`Tests/TestSupport/Repository.swift`).
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The file or folder at `path`, relative to the root.
    package static func file(_ path: String) -> URL {
        root.appendingPathComponent(path)
    }

    /// The virtualenv's Python, which has the peers' packages (the official Sentry SDK, Bugsink, sentry-cli).
    package static var python: URL { file(".venv/bin/python") }
}
