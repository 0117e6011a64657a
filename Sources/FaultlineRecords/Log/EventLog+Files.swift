import Foundation

extension EventLog {
    /// A file of a rotation, found in the log's directory.
    struct RotatedFile {
        let rotation: Rotation
        let stage: Rotation.Stage
        let url: URL
    }

    /// The files of the log `fileName` in `directory`, oldest first: the rotated files in the order of their names,
    /// then the active file. A rotated file interrupted before compression (`.jsonl`) is listed where it falls in
    /// that order, unless its compressed file exists too. Empty when the directory is missing or unreadable. (A reader
    /// of the whole directory takes more: `LogLayout.eventFiles()`.)
    ///
    /// Read the `.jsonl.gz` files with ``Gzip/decompress(_:maximumSize:)``. A file listed here may be gone by the
    /// time it is read, when a log that is writing rotates or evicts it.
    package static func files(in directory: URL, fileName: String = "events") -> [URL] {
        let rotated = (try? rotatedFiles(in: directory, logName: fileName)) ?? []
        let active = directory.appendingPathComponent(fileName + LogLayout.logSuffix)
        let activeExists = FileManager.default.fileExists(atPath: active.path)
        return readable(rotated).map(\.url) + (activeExists ? [active] : [])
    }

    /// Every file of every rotation of the log `logName` in `directory`, oldest rotation first.
    static func rotatedFiles(in directory: URL, logName: String) throws(EventLogError) -> [RotatedFile] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .fileOperationFailed(
                operation: "list", path: directory.path, reason: error.localizedDescription)
        }
        return names.compactMap { name in
            Rotation.parse(name, logName: logName).map {
                RotatedFile(rotation: $0.rotation, stage: $0.stage, url: directory.appendingPathComponent(name))
            }
        }
        .sorted { $0.rotation < $1.rotation }
    }

    /// The segments of the log `configuration` describes: its readable rotated files' sequence numbers, oldest first,
    /// and the number of the active file, the one after the newest.
    package static func segments(of configuration: Configuration) throws(EventLogError) -> (rotated: [Int], active: Int)
    {
        let rotated = readable(try rotatedFiles(in: configuration.directory, logName: configuration.fileName))
            .map(\.rotation.sequence)
        return (rotated, (rotated.max() ?? 0) + 1)
    }

    /// The file that holds each rotation's lines: the compressed one, or the plain one while it is not compressed.
    static func readable(_ files: [RotatedFile]) -> [RotatedFile] {
        let compressed = Set(files.filter { $0.stage == .compressed }.map(\.rotation))
        return files.filter { file in
            file.stage == .compressed || (file.stage == .plain && !compressed.contains(file.rotation))
        }
    }

    /// Completes rotations that were interrupted, by a crash or a failed compression: removes temporary files,
    /// removes plain files whose compressed file exists, and compresses the others.
    static func finishRotations(_ configuration: Configuration) throws(EventLogError) {
        let files = try rotatedFiles(in: configuration.directory, logName: configuration.fileName)
        let compressed = Set(files.filter { $0.stage == .compressed }.map(\.rotation))
        for file in files where file.stage == .compressing {
            try remove(file.url)
        }
        for file in files where file.stage == .plain {
            if !compressed.contains(file.rotation) {
                let destination = configuration.directory.appendingPathComponent(file.rotation.fileName(.compressed))
                do {
                    try Gzip.compressFile(at: file.url, to: destination, level: configuration.compressionLevel)
                } catch {
                    throw .fileOperationFailed(
                        operation: "compress", path: file.url.path, reason: error.localizedDescription)
                }
            }
            try remove(file.url)
        }
    }

    /// The size of the file at `url` in bytes.
    package static func size(of url: URL) throws(EventLogError) -> Int {
        do {
            return try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0
        } catch {
            throw .fileOperationFailed(
                operation: "read the size of", path: url.path, reason: error.localizedDescription)
        }
    }

    /// When the file at `url` was created, or else last modified; `nil` when neither is known.
    static func creationDate(of url: URL) -> Date? {
        let values = try? url.resourceValues(forKeys: [.creationDateKey, .contentModificationDateKey])
        return values?.creationDate ?? values?.contentModificationDate
    }

    /// When the file at `url` was last modified; `nil` when it is not known.
    static func modificationDate(of url: URL) -> Date? {
        try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate
    }

    static func remove(_ url: URL) throws(EventLogError) {
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw .fileOperationFailed(operation: "remove", path: url.path, reason: error.localizedDescription)
        }
    }
}
