import Faultline
import Foundation

extension EventLog {
    /// Renames the active file to a new rotation's plain name, stamped with the time of its last line (`date` when it
    /// is not known), compresses it, and deletes the oldest rotated files past the total size.
    func rotateActiveFile(at date: Date) throws(EventLogError) {
        let stamp = max(activeUntil ?? date, lastRotation)
        let rotation = Rotation(logName: configuration.fileName, stampedAt: stamp, sequence: nextSequence)
        let plain = configuration.directory.appendingPathComponent(rotation.fileName(.plain))
        file = nil
        do {
            try FileManager.default.moveItem(at: configuration.activeFile, to: plain)
        } catch {
            throw .fileOperationFailed(
                operation: "rename", path: configuration.activeFile.path,
                reason: "to \(plain.lastPathComponent): \(error.localizedDescription)")
        }
        lastRotation = stamp
        nextSequence += 1
        activeSize = 0
        activeSince = nil
        activeUntil = nil
        counts.rotations += 1
        try Self.finishRotations(configuration)
        try evictOldestRotations()
    }

    /// Deletes rotated files, oldest first, until they fit in the total size with room for the active file to grow
    /// to its full size before the next rotation; the newest is kept, so that the next log opened here numbers its
    /// segments on from it.
    private func evictOldestRotations() throws(EventLogError) {
        let rotated = Self.readable(
            try Self.rotatedFiles(in: configuration.directory, logName: configuration.fileName))
        var sizes: [Int] = []
        for file in rotated { sizes.append(try Self.size(of: file.url)) }
        var total = max(activeSize, configuration.rotationSize) + sizes.reduce(0, +)
        for (file, size) in zip(rotated, sizes).dropLast() where total > configuration.maximumTotalSize {
            try Self.remove(file.url)
            total -= size
            counts.evictedFiles += 1
            counts.evictedBytes += size
            removedSegments.evicted.append(file.rotation.sequence)
        }
    }

    /// Rotates the active file when its first line is ``Configuration/rotationAge`` old, then removes the rotated files
    /// whose last line (their stamp) is older than ``Configuration/maximumAge``, oldest first; the newest is emptied
    /// instead of removed, so that the next log opened here numbers its segments on from it. Nothing without an age.
    func expireOldFiles(at date: Date) throws(EventLogError) {
        guard let maximumAge = configuration.maximumAge else { return }
        nextExpiryCheck = date + Retention.checkInterval(of: maximumAge).timeInterval
        if activeSize > 0, let activeSince,
            Duration.seconds(date.timeIntervalSince(activeSince)) >= configuration.rotationAge
        {
            try rotateActiveFile(at: date)
        }
        let cutoff = date - maximumAge.timeInterval
        let rotated = Self.readable(
            try Self.rotatedFiles(in: configuration.directory, logName: configuration.fileName))
        for (index, file) in rotated.enumerated() {
            guard let lastLine = file.rotation.date, lastLine <= cutoff else { break }
            let size = try Self.size(of: file.url)
            if index == rotated.count - 1 {
                let empty = Gzip.compress(Data(), level: configuration.compressionLevel)
                guard size != empty.count else { break }
                do {
                    let rewrite = try AtomicRewrite(replacing: file.url)
                    try empty.withUnsafeBytes { try rewrite.append($0) }
                    try rewrite.commit()
                } catch {
                    throw .fileOperationFailed(
                        operation: "empty", path: file.url.path, reason: error.localizedDescription)
                }
            } else {
                try Self.remove(file.url)
            }
            counts.expiredFiles += 1
            counts.expiredBytes += size
            removedSegments.expired.append(file.rotation.sequence)
        }
    }
}
