import Foundation

/// Envelopes waiting to be sent, one per file in a directory, oldest first, bounded by count and bytes.
///
/// - Each envelope is written to a temporary file and published by an atomic rename, so the directory never holds
///   half an envelope; leftover temporary files are deleted when the outbox is opened.
/// - File names sort by age, so the outbox is read back in the order it was written after a restart.
/// - Storing past ``Limits/maximumCount`` or ``Limits/maximumBytes`` deletes the oldest envelopes first; the caller
///   counts them as `cache_overflow`.
/// - Envelopes are stored without `sent_at`, which is set when one is sent.
struct Outbox: Sendable {
    /// How much the outbox holds.
    struct Limits: Hashable, Sendable {
        /// The most envelopes; 1000 by default.
        var maximumCount = 1000
        /// The most bytes all envelopes take; 32 MiB by default.
        var maximumBytes = 32 * 1024 * 1024
    }

    static let fileExtension = "envelope"

    let directory: URL
    let limits: Limits
    /// The stored envelopes, oldest first.
    private(set) var entries: [OutboxEntry] = []
    private(set) var totalBytes = 0
    private var counter = 0

    /// Opens the outbox in `directory`, creating it when needed.
    ///
    /// - Parameter unreadable: Called with each stored file that is not an envelope Faultline sends, which is
    ///   deleted.
    init(directory: URL, limits: Limits, unreadable: (URL, any Error) -> Void) throws {
        self.directory = directory
        self.limits = limits
        let manager = FileManager.default
        try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in try manager.contentsOfDirectory(atPath: directory.path).sorted() {
            let url = directory.appendingPathComponent(name)
            if name.hasPrefix(".") && name.hasSuffix(".tmp") {
                try? manager.removeItem(at: url)
                continue
            }
            guard name.hasSuffix(".\(Self.fileExtension)") else { continue }
            do {
                let data = try Data(contentsOf: url)
                entries.append(OutboxEntry(name: name, size: data.count, category: try Self.category(of: data)))
                totalBytes += data.count
            } catch {
                unreadable(url, error)
                try? manager.removeItem(at: url)
            }
        }
    }

    /// Stores `envelope` (serialized without `sent_at`) as the newest entry.
    ///
    /// - Parameter except: Entries that must not be evicted to make room, such as those being sent.
    /// - Returns: The stored entry and the entries deleted to make room for it.
    /// - Throws: When the envelope is larger than the outbox, or the file cannot be written; nothing is evicted then.
    mutating func store(
        _ envelope: Data, category: DataCategory, except: Set<String> = []
    ) throws -> (entry: OutboxEntry, evicted: [OutboxEntry]) {
        guard envelope.count <= limits.maximumBytes else {
            throw OutboxError.envelopeTooLarge(size: envelope.count, limit: limits.maximumBytes)
        }
        counter += 1
        let time = String(format: "%.6f", Date().timeIntervalSince1970)
        let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let name = "\(time)-\(String(format: "%06d", counter))-\(random).\(Self.fileExtension)"
        let temporary = directory.appendingPathComponent(".\(name).tmp")
        try envelope.write(to: temporary)
        // rename(2) itself: FileManager.moveItem checks both paths first, which doubled the cost of a store.
        guard rename(temporary.path, directory.appendingPathComponent(name).path) == 0 else {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        let entry = OutboxEntry(name: name, size: envelope.count, category: category)
        entries.append(entry)
        totalBytes += entry.size
        var evicted: [OutboxEntry] = []
        while entries.count > limits.maximumCount || totalBytes > limits.maximumBytes,
            let oldest = entries.first(where: { $0 != entry && !except.contains($0.name) })
        {
            remove(oldest)
            evicted.append(oldest)
        }
        return (entry, evicted)
    }

    /// The stored bytes of `entry`.
    func contents(of entry: OutboxEntry) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(entry.name))
    }

    /// Deletes `entry`'s file.
    mutating func remove(_ entry: OutboxEntry) {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(entry.name))
        guard let index = entries.firstIndex(of: entry) else { return }
        entries.remove(at: index)
        totalBytes -= entry.size
    }

    /// The category an envelope is rate-limited by: that of its first item Faultline knows.
    static func category(of envelope: Data) throws -> DataCategory {
        let parsed = try Envelope(parsing: envelope)
        guard let category = parsed.items.lazy.compactMap({ DataCategory(itemType: $0.type) }).first else {
            throw Envelope.ParseError(reason: "it has no event or client report item")
        }
        return category
    }
}
