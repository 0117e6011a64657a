import Foundation

/// A fresh, empty directory for one test, under the system's temporary directory; ``remove()`` deletes it and all
/// it holds.
package struct TemporaryDirectory: Sendable {
    /// Its location: `faultline-<purpose>-<UUID>` in the system's temporary directory.
    package let url: URL

    /// Creates it; `purpose` names it, to tell apart what a failed test left.
    package init(_ purpose: String = "test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-\(purpose)-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Its path.
    package var path: String { url.path }

    /// The file or folder `name` in it, not created.
    package func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// The names of the files in it, sorted.
    package func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    /// Deletes it and what it holds.
    package func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
