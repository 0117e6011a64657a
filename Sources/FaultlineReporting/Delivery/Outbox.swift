import Foundation

/// Envelopes waiting to be sent, one per file in a directory, oldest first, bounded by count and bytes.
///
/// - Each envelope is written to a temporary file and published by an atomic rename, so the directory never holds
///   half an envelope; leftover temporary files are deleted when the outbox is opened.
/// - File names sort by age, so the outbox is read back in the order it was written after a restart.
/// - Storing past ``Limits/maximumCount`` or ``Limits/maximumBytes`` deletes the oldest envelopes first; the caller
///   counts them as `cache_overflow`.
/// - Envelopes are stored without `sent_at`, which is set when one is sent.
/// - The files of removed envelopes are kept as spares, up to ``maximumSpares``, and written over by the next
///   envelopes: on an ext4 without a journal, creating a file right after others were deleted cost ten times more
///   (see ``WholeFile``).
///   Spares are temporary files, so they are never read as envelopes; they are deleted when the uploader closes and
///   when the outbox is opened.
struct Outbox: Sendable {
    /// How much the outbox holds.
    struct Limits: Hashable, Sendable {
        /// The most envelopes; 1000 by default.
        var maximumCount = 1000
        /// The most bytes all envelopes take; 32 MiB by default.
        var maximumBytes = 32 * 1024 * 1024
    }

    static let fileExtension = "envelope"
    /// The most spare files kept for reuse, and the largest file kept as one: at most 2 MiB of disk.
    static let maximumSpares = 32
    static let maximumSpareSize = 64 * 1024

    let directory: URL
    let limits: Limits
    /// The stored envelopes, oldest first.
    private(set) var entries: [OutboxEntry] = []
    private(set) var totalBytes = 0
    private var counter = 0
    /// Names of the files of removed envelopes, to be written over by the next envelopes.
    private var spares: [String] = []

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
            let file = url(of: name)
            if name.hasPrefix(".") && name.hasSuffix(".tmp") {
                try? manager.removeItem(at: file)
                continue
            }
            guard name.hasSuffix(".\(Self.fileExtension)") else { continue }
            do {
                let data = try Data(contentsOf: file)
                entries.append(OutboxEntry(name: name, size: data.count, category: try Self.category(of: data)))
                totalBytes += data.count
            } catch {
                unreadable(file, error)
                try? manager.removeItem(at: file)
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
        let name = Self.name(at: Date(), counter: counter)
        let temporary = url(of: spares.popLast() ?? ".\(name).tmp")
        do {
            try WholeFile.write(envelope, to: temporary.path)
        } catch {
            unlink(temporary.path)
            throw error
        }
        // rename(2) itself: FileManager.moveItem checks both paths first, which doubled the cost of a store.
        guard rename(temporary.path, url(of: name).path) == 0 else {
            let error = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            unlink(temporary.path)
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
        try Data(contentsOf: url(of: entry.name))
    }

    /// Takes `entry` out of the outbox: its file becomes a spare, or is deleted.
    mutating func remove(_ entry: OutboxEntry) {
        let file = url(of: entry.name).path
        counter += 1
        let spare = ".spare-\(counter).tmp"
        if spares.count < Self.maximumSpares, entry.size <= Self.maximumSpareSize,
            rename(file, url(of: spare).path) == 0
        {
            spares.append(spare)
        } else {
            unlink(file)
        }
        guard let index = entries.firstIndex(of: entry) else { return }
        entries.remove(at: index)
        totalBytes -= entry.size
    }

    /// Deletes the spare files, as when the outbox is closed.
    mutating func deleteSpares() {
        for spare in spares { unlink(url(of: spare).path) }
        spares.removeAll()
    }

    /// The file `name` in the outbox; saying it is no directory saves the `stat(2)` Foundation makes to find out.
    private func url(of name: String) -> URL {
        directory.appendingPathComponent(name, isDirectory: false)
    }

    /// A file name that sorts by age: `<unix time, 6 decimals>-<counter, 6 digits>-<random hex>.envelope`.
    static func name(at date: Date, counter: Int) -> String {
        let microseconds = Int((date.timeIntervalSince1970 * 1_000_000).rounded())
        let (seconds, fraction) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return "\(seconds).\(zeroPadded(fraction))-\(zeroPadded(counter))-\(random).\(fileExtension)"
    }

    /// `value` in decimal with leading zeros to six digits; String(format:) costs microseconds on Linux.
    private static func zeroPadded(_ value: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// The category an envelope is rate-limited by: that of its first item Faultline knows.
    static func category(of envelope: Data) throws -> DataCategory {
        let parsed = try Envelope(parsing: envelope)
        guard let category = parsed.items.lazy.compactMap({ DataCategory(itemType: $0.type) }).first else {
            throw Envelope.ParseError(reason: "it has no item of a data category Faultline knows")
        }
        return category
    }
}
