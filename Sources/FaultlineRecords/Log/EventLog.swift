import Foundation

/// The local log of events: one event payload per line (JSON Lines) in `events.jsonl`, rotated into gzip files by
/// size and age, and capped in total size by deleting the oldest rotated files.
///
/// ```swift
/// let log = try EventLog(configuration: .init(directory: logs))
/// try await log.append(EventEncoder.encode(event))
/// for file in EventLog.files(in: logs) { … }   // oldest first: events-….jsonl.gz, then events.jsonl
/// ```
///
/// - The files are readable and writable by their owner only.
/// - Each line is written with a single `write(2)` to a file opened for appending, so a reader sees whole lines
///   only, except for the last line after a crash, which the next log opened on the file cuts off: a line is in the
///   log once its `write(2)` returned, and only then.
/// - Every line has a ``LogPosition`` (the segment, and the offset in it), which ``append(_:)`` returns: the active
///   file is the segment that its rotation will number, so a position stays true across rotations. An uploader reads
///   the lines it has to send from the log by their positions: the log is its outbox.
/// - Before a line that would take the active file past ``Configuration/rotationSize``, or once the file's first
///   line is ``Configuration/rotationAge`` old, the file is renamed to
///   `events-<UTC yyyyMMdd'T'HHmmss.SSS'Z' of its last line>-<sequence>.jsonl`, compressed to the same name with
///   `.gz` through a temporary file and an atomic rename, and the plain file removed. A rotation interrupted by a crash is completed
///   when the next log is opened.
/// - After each rotation, the oldest rotated files are deleted until the active and rotated files together fit in
///   ``Configuration/maximumTotalSize``; the newest rotated file is kept whatever its size, so that the numbering of
///   segments never starts again.
/// - With a ``Configuration/maximumAge``, the rotated files whose last line is older than the age are removed when a
///   line is appended or ``expire()`` is called, at most once per `Retention.checkInterval(of:)`; the newest is
///   emptied instead (an empty gzip member), for the same reason.
/// - While it is open, the log holds its directory's ``LogDirectoryLock`` shared, so that `faultline forget` never
///   rewrites the files beside it; opening waits while a rewrite runs. It holds its file's lock exclusively: a second
///   log on the same file, in this process or another, is refused. (Not on iOS, tvOS, watchOS or visionOS: see
///   `lock(_:)`.)
/// - A line that a program other than the log left without its newline (the log's lock keeps other logs out, not
///   every program) is ended before the next line is appended, which is then not glued to it.
package actor EventLog {
    /// What the log did since it was opened.
    package struct Statistics: Hashable, Sendable {
        /// Lines appended.
        package internal(set) var linesWritten = 0
        /// Active files rotated.
        package internal(set) var rotations = 0
        /// Rotated files deleted to keep the log within its total size.
        package internal(set) var evictedFiles = 0
        /// The bytes those files took.
        package internal(set) var evictedBytes = 0
        /// The bytes of a last line a crash cut short, cut off when the log opened.
        package internal(set) var cutOffBytes = 0
        /// Rotated files removed (or, the newest, emptied) because their lines were past the maximum age.
        package internal(set) var expiredFiles = 0
        /// The bytes those files took.
        package internal(set) var expiredBytes = 0
    }

    /// The segments an append or ``expire()`` took out of the log: evicted to keep it within its total size, or
    /// expired past its maximum age; each list oldest first.
    package struct RemovedSegments: Hashable, Sendable {
        package internal(set) var evicted: [Int] = []
        package internal(set) var expired: [Int] = []
    }

    /// Where a line was appended, and the segments appending it took out of the log.
    package struct AppendedLine: Sendable {
        package let position: LogPosition
        package let removed: RemovedSegments
    }

    /// Where the log is written and when its files rotate; readers find the files with
    /// ``files(in:fileName:)``.
    package nonisolated let configuration: Configuration
    let now: @Sendable () -> Date
    /// The active file, opened for appending; `nil` between a rotation and the next line, and once closed.
    var file: AppendOnlyFile?
    /// The directory's lock, held shared until the log is closed, and the active file's, held exclusively.
    private var directoryLock: LogDirectoryLock?
    private var writerLock: LogDirectoryLock?
    var isClosed = false
    /// The active file's size in bytes.
    var activeSize: Int
    /// When the active file's first and last lines were written; `nil` while it is empty.
    var activeSince: Date?
    var activeUntil: Date?
    /// The time of the last rotation, so that a clock going back never makes a newer name sort first.
    var lastRotation = Date.distantPast
    var nextSequence: Int
    var counts = Statistics()
    /// The segments the line being appended (or the expiry being run) took out of the log.
    var removedSegments = RemovedSegments()
    /// When the log next looks for files past the maximum age.
    var nextExpiryCheck = Date.distantPast

    package static let newline = UInt8(ascii: "\n")

    /// Opens the log, creating its directory when needed.
    ///
    /// When the active file ends without a newline (the process crashed while writing a line), the cut line is cut
    /// off: it was never whole, so it is never read or sent. Rotations interrupted by a crash are completed.
    ///
    /// - Parameters:
    ///   - configuration: Where the log is written and when its files rotate.
    ///   - now: The clock that dates lines and rotations; the system clock by default.
    package init(configuration: Configuration, now: @escaping @Sendable () -> Date = { Date() }) throws(EventLogError) {
        precondition(
            (-1...9).contains(configuration.compressionLevel),
            "EventLog.Configuration.compressionLevel must be within 0...9 (or -1), not \(configuration.compressionLevel)."
        )
        do {
            try FileManager.default.createDirectory(at: configuration.directory, withIntermediateDirectories: true)
        } catch {
            throw .fileOperationFailed(
                operation: "create the directory", path: configuration.directory.path,
                reason: error.localizedDescription)
        }
        let locks = try Self.lock(configuration)
        try Self.finishRotations(configuration)
        let file = try AppendOnlyFile(opening: configuration.activeFile)
        let size = try file.endOfLastLine()
        let cutOff = try file.size() - size
        if cutOff > 0 { try file.truncate(to: size) }
        let rotations = try Self.rotatedFiles(in: configuration.directory, logName: configuration.fileName)
        self.configuration = configuration
        self.now = now
        self.activeSize = size
        self.activeSince = size > 0 ? Self.creationDate(of: configuration.activeFile) : nil
        self.activeUntil = size > 0 ? Self.modificationDate(of: configuration.activeFile) : nil
        self.nextSequence = (rotations.map(\.rotation.sequence).max() ?? 0) + 1
        self.file = consume file
        self.directoryLock = locks.directory
        self.writerLock = locks.writer
        counts.cutOffBytes = cutOff
    }

    /// Takes the lock of the log's directory, shared, where `faultline forget` may run, and that of its active file,
    /// exclusively, where a second writer would append beside it: not on iOS, tvOS, watchOS or visionOS, which
    /// terminate a suspended app that holds a file lock in a shared container (0xdead10cc), and where nothing rewrites
    /// an app's log and one app writes it.
    private static func lock(_ configuration: Configuration) throws(EventLogError) -> (
        directory: LogDirectoryLock?, writer: LogDirectoryLock?
    ) {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            return (nil, nil)
        #else
            let directory: LogDirectoryLock
            do {
                directory = try LogDirectoryLock(sharing: configuration.directory)
            } catch {
                throw .fileOperationFailed(operation: "lock", path: configuration.directory.path, reason: "\(error)")
            }
            let file = configuration.activeFile
            do {
                return (directory, try LogDirectoryLock(writing: file))
            } catch .written(let path) {
                throw .writtenElsewhere(path: path)
            } catch {
                throw .fileOperationFailed(operation: "lock", path: file.path, reason: "\(error)")
            }
        #endif
    }

    /// What the log did since it was opened.
    package var statistics: Statistics { counts }

    /// The segment of the active file: the sequence number its rotation will have.
    package var activeSegment: Int { nextSequence }

    /// Appends `line` and a newline to the active file, rotating it first when the line would take it past
    /// ``Configuration/rotationSize`` or its first line is ``Configuration/maximumFileAge`` old.
    ///
    /// - Parameter line: One event payload, such as compact JSON; it must not be empty or contain a newline.
    /// - Returns: Where the line starts.
    /// - Throws: ``EventLogError/lineContainsNewline(offset:)`` or ``EventLogError/emptyLine`` without writing
    ///   anything; ``EventLogError/closed(_:)`` after ``close()``;
    ///   ``EventLogError/fileOperationFailed(operation:path:reason:)`` when the file system fails, in which case the
    ///   line was not written (a write cut short by a full disk is cut back off the file).
    @discardableResult
    package func append(_ line: Data) throws(EventLogError) -> LogPosition {
        try appendLine(line).position
    }

    /// Appends `line` as ``append(_:)`` does, and says which segments appending it took out of the log.
    package func appendLine(_ line: Data) throws(EventLogError) -> AppendedLine {
        removedSegments = RemovedSegments()
        guard !line.isEmpty else { throw .emptyLine }
        // memchr(3): a byte-by-byte search took 1% of all delivery CPU on a 13 KB event.
        let newlineOffset = line.withUnsafeBytes { bytes in
            memchr(bytes.baseAddress!, Int32(Self.newline), bytes.count).map { bytes.baseAddress!.distance(to: $0) }
        }
        if let newlineOffset { throw .lineContainsNewline(offset: newlineOffset) }
        guard !isClosed else { throw .closed(configuration.activeFile) }
        let date = now()
        if activeSize > 0, activeSize + line.count + 1 > configuration.rotationSize || isOld(at: date) {
            try rotateActiveFile(at: date)
        }
        if date >= nextExpiryCheck { try expireOldFiles(at: date) }
        if file == nil { file = try AppendOnlyFile(opening: configuration.activeFile) }
        var record = Data()
        if let size = try file?.size(), size != activeSize {
            // Another program wrote to the file: a line it left unfinished is ended first.
            if try file?.endOfLastLine() != size { record.append(Self.newline) }
            activeSize = size
        }
        record.append(line)
        record.append(Self.newline)
        do {
            try file?.append(record)
        } catch {
            try? file?.truncate(to: activeSize)
            throw error
        }
        let position = LogPosition(segment: nextSequence, offset: activeSize + record.count - line.count - 1)
        if activeSize == 0 { activeSince = date }
        activeUntil = date
        activeSize += record.count
        counts.linesWritten += 1
        return AppendedLine(position: position, removed: removedSegments)
    }

    /// Removes the lines past ``Configuration/maximumAge`` now, as appending a line does when a check is due; nothing
    /// without a maximum age.
    ///
    /// - Returns: The segments taken out of the log: expired, and evicted when the active file rotated.
    package func expire() throws(EventLogError) -> RemovedSegments {
        guard !isClosed else { throw .closed(configuration.activeFile) }
        removedSegments = RemovedSegments()
        try expireOldFiles(at: now())
        return removedSegments
    }

    /// Rotates the active file now, whatever its size and age; does nothing when it is empty.
    package func rotate() throws(EventLogError) {
        guard !isClosed else { throw .closed(configuration.activeFile) }
        guard activeSize > 0 else { return }
        try rotateActiveFile(at: now())
    }

    /// Flushes the active file to disk and closes it; later appends throw ``EventLogError/closed(_:)``. Closing a
    /// closed log does nothing.
    package func close() throws(EventLogError) {
        defer {
            file = nil
            directoryLock = nil
            writerLock = nil
            isClosed = true
        }
        try file?.synchronize()
    }

    private func isOld(at date: Date) -> Bool {
        guard let activeSince else { return false }
        return Duration.seconds(date.timeIntervalSince(activeSince)) >= configuration.rotationAge
    }
}
