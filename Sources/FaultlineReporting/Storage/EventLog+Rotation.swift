import Foundation

extension EventLog {
    /// Renames the active file to a new rotation's plain name, compresses it, and deletes the oldest rotated files
    /// past the total size.
    func rotateActiveFile(at date: Date) throws(EventLogError) {
        let stamp = max(date, lastRotation)
        let rotation = Rotation(logName: configuration.fileName, rotatedAt: stamp, sequence: nextSequence)
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
            evictedSegments.append(file.rotation.sequence)
        }
    }
}
