import Foundation

/// The lines a child process prints, as they come: how tests and benchmarks read their Python peers (Bugsink, the
/// official Sentry SDK).
public enum ProcessLines {
    /// The lines read from `handle` (the reading end of a child's stdout pipe), without their `\n`; the stream
    /// finishes when the child closes its end.
    public static func of(_ handle: FileHandle) -> AsyncStream<String> {
        AsyncStream { continuation in
            let buffer = LineBuffer()
            handle.readabilityHandler = { handle in
                let chunk = handle.availableData
                for line in buffer.append(chunk) { continuation.yield(line) }
                if chunk.isEmpty {
                    handle.readabilityHandler = nil
                    continuation.finish()
                }
            }
        }
    }
}

/// Splits a pipe's chunks into lines.
private final class LineBuffer: @unchecked Sendable {
    // Only the pipe's readability handler, which runs serially, touches `pending`.
    private var pending = Data()

    func append(_ chunk: Data) -> [String] {
        pending.append(chunk)
        var lines: [String] = []
        while let newline = pending.firstIndex(of: 0x0A) {
            lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
            pending.removeSubrange(pending.startIndex...newline)
        }
        return lines
    }
}
