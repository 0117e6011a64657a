import Foundation

/// What `faultline watch` has posted, kept in a file so that a restart posts nothing twice: one key per issue and
/// signal (`new`, `spiking`, `regressed`), with when it was posted. A key is forgotten when its issue is no longer
/// flagged with that signal, so that the next spike or regression is posted again.
struct AlertState: Codable, Equatable {
    /// RFC 3339 times of the posts, by key.
    private(set) var posted: [String: String] = [:]

    /// The state stored at `url`; empty when there is none yet.
    ///
    /// - Throws: When the file exists but cannot be read as a state: better to stop than to post everything again.
    static func load(from url: URL) throws -> AlertState {
        guard let data = try? Data(contentsOf: url) else { return AlertState() }
        return try JSONDecoder().decode(AlertState.self, from: data)
    }

    /// Writes the state to `url` whole or not at all: to a file beside it, then renamed over it.
    func save(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp")
        try encoder.encode(self).write(to: temporary)
        guard rename(temporary.path, url.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }

    func hasPosted(_ key: String) -> Bool {
        posted[key] != nil
    }

    mutating func markPosted(_ key: String, at time: String) {
        posted[key] = time
    }

    /// Forgets the keys not in `flagged`, the alerts whose issue no longer has the signal.
    mutating func keepOnly(_ flagged: Set<String>) {
        posted = posted.filter { flagged.contains($0.key) }
    }
}
