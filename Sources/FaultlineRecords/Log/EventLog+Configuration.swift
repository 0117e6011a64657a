import Foundation

extension EventLog {
    /// Where an event log is written, and when its files rotate and are deleted. Only the directory has no default.
    package struct Configuration: Hashable, Sendable {
        /// The directory of the log's files; created when missing.
        package var directory: URL
        /// The name of the log's files without extension; `events` by default: the active file is `events.jsonl`,
        /// the rotated ones `events-<UTC time>-<sequence>.jsonl.gz`.
        package var fileName: String
        /// The largest the active file grows, in bytes, before it rotates; 8 MiB by default, and never more than
        /// half of ``maximumTotalSize``, so that the total holds (see ``rotationSize``). A line larger than this
        /// gets a file of its own.
        package var maximumFileSize: Int
        /// How long after its first line the active file rotates, checked when a line is appended; 24 hours by
        /// default.
        package var maximumFileAge: Duration
        /// The most bytes the active file and the rotated files take together; 64 MiB by default. After each
        /// rotation, the oldest rotated files are deleted until the log fits.
        package var maximumTotalSize: Int
        /// The gzip level of rotated files, 0 (stored) to 9 (smallest), or -1 for zlib's default; 6 by default.
        package var compressionLevel: Int32
        /// How long lines are kept; `nil` (the default) keeps them until ``maximumTotalSize`` evicts them. With an age,
        /// the active file rotates once its first line is a 24th of it old (or ``maximumFileAge``, when that is
        /// sooner), and a rotated file is removed once its last line is older than the age (`EventLog.expire()`):
        /// a line is kept at most the age, its file's span (a 24th of the age) and the time to the next check.
        package var maximumAge: Duration?

        /// Creates a configuration; see the properties for the defaults.
        package init(
            directory: URL, fileName: String = LogLayout.logName, maximumFileSize: Int = 8 * 1024 * 1024,
            maximumFileAge: Duration = .seconds(24 * 60 * 60), maximumTotalSize: Int = 64 * 1024 * 1024,
            compressionLevel: Int32 = 6, maximumAge: Duration? = nil
        ) {
            self.directory = directory
            self.fileName = fileName
            self.maximumFileSize = maximumFileSize
            self.maximumFileAge = maximumFileAge
            self.maximumTotalSize = maximumTotalSize
            self.compressionLevel = compressionLevel
            self.maximumAge = maximumAge
        }

        /// The size at which the active file rotates: ``maximumFileSize``, or half of ``maximumTotalSize`` when that
        /// is smaller, so that the active file and the newest rotated one, which is always kept, fit in the total.
        package var rotationSize: Int { max(1, min(maximumFileSize, maximumTotalSize / 2)) }

        /// How old the active file's first line gets before the file rotates: ``maximumFileAge``, or a 24th of
        /// ``maximumAge`` when that is sooner, so that a rotated file spans a small part of the age it is kept for.
        package var rotationAge: Duration {
            maximumAge.map { min(maximumFileAge, Retention.span(of: $0)) } ?? maximumFileAge
        }

        /// The file lines are appended to, `<directory>/<fileName>.jsonl`.
        package var activeFile: URL { directory.appendingPathComponent(fileName + LogLayout.logSuffix) }
    }
}
