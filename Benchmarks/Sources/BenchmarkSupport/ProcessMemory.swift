import Foundation

/// The memory and disk a benchmark's process uses.
public enum ProcessMemory {
    /// The most resident memory the process has used so far, in bytes.
    public static var peakResidentBytes: Int {
        let usage = ResourceUsage.ofThisProcess
        #if os(Linux)
            return usage.ru_maxrss * 1024  // kilobytes on Linux
        #else
            return usage.ru_maxrss  // bytes on Apple platforms
        #endif
    }

    /// The bytes the regular files under `directory` take, recursively.
    public static func bytes(under directory: URL) -> Int {
        let keys: [URLResourceKey] = [.fileSizeKey, .isRegularFileKey]
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: keys) else {
            return 0
        }
        var total = 0
        for case let file as URL in files {
            guard let values = try? file.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else {
                continue
            }
            total += values.fileSize ?? 0
        }
        return total
    }

    /// `bytes` as mebibytes with one decimal.
    public static func mebibytes(_ bytes: Int) -> String {
        String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }
}
