import Foundation

/// The lines a child process prints, as they come: how tests and benchmarks read their Python peers (Bugsink, the
/// official Sentry SDK).
package enum ProcessLines {
    /// The lines read from `handle` (the reading end of a child's stdout pipe), without their `\n`; the stream
    /// finishes when every process holding the pipe's other end has closed it.
    ///
    /// A thread of its own reads the pipe with blocking reads, and keeps `handle` open until the end: a
    /// `readabilityHandler` (a dispatch source) whose handle was closed while its source was still registered, as when
    /// a peer's own children still held the pipe, crashed libdispatch's event loop on Linux
    /// (`_dispatch_event_loop_drain`, swiftlang/swift-subprocess#47).
    package static func of(_ handle: FileHandle) -> AsyncStream<String> {
        AsyncStream { continuation in
            let reader = Thread {
                var pending = Data()
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: 0x0A) {
                        continuation.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                        pending.removeSubrange(pending.startIndex...newline)
                    }
                }
                continuation.finish()
            }
            reader.name = "ProcessLines"
            reader.start()
        }
    }
}
