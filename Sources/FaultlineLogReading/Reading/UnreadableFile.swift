import Foundation

/// A log file that could not be opened or read, and why: counted in ``ReadCounts/unreadableFiles``, and named so
/// that the reason can be fixed.
package struct UnreadableFile: Hashable, Sendable {
    package let url: URL
    /// The system's reason, in lower case: `permission denied`, `is a directory`.
    package let reason: String

    /// The file at `url`, which failed with the `errno` `code`.
    init(url: URL, code: Int32) {
        self.url = url
        reason = String(cString: strerror(code)).lowercased()
    }
}
