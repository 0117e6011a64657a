import FaultlineLogReading
import Foundation
import Synchronization

/// `--file -`: standard input, saved to a temporary file that is removed when the process exits, so that it is read
/// as any named file is (gzip when it starts with gzip's magic bytes, else JSON Lines).
enum StandardInput {
    private static let saved = Mutex<LogFile?>(nil)

    /// The log file holding standard input, read once however often it is named.
    static func logFile() throws -> LogFile {
        try saved.withLock { saved in
            if let saved { return saved }
            let data = FileHandle.standardInput.readDataToEndOfFile()
            let isGzip = data.starts(with: [0x1F, 0x8B])
            let url = FileManager.default.temporaryDirectory.appendingPathComponent(
                "faultline-stdin-\(UUID().uuidString).\(isGzip ? "jsonl.gz" : "jsonl")")
            try data.write(to: url)
            atexit { StandardInput.remove() }
            let file = LogFile(url: url)
            saved = file
            return file
        }
    }

    private static func remove() {
        if let file = saved.withLock({ $0 }) { try? FileManager.default.removeItem(at: file.url) }
    }
}
