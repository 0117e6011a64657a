import Foundation
import TestSupport

/// A log directory with the events a command-line test reads, removed by ``remove()``.
struct CommandLineLog {
    let directory: URL

    /// A fresh directory whose `events.jsonl` holds one event per `(kind, release)`, a minute apart from
    /// 2026-11-23T09:00:00Z.
    init(events: [(kind: String, release: String?)] = [("server", "app@1")]) throws {
        directory = try TemporaryDirectory("cli").url
        var lines = ""
        for (index, event) in events.enumerated() {
            var object: [String: Any] = [
                "event_id": String(format: "%032x", index + 1), "level": "error",
                "timestamp": "2026-11-23T09:\(String(format: "%02d", index)):00Z", "message": "failure \(index)",
                "tags": ["error.kind": event.kind],
            ]
            object["release"] = event.release
            lines += String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self) + "\n"
        }
        try Data(lines.utf8).write(to: directory.appendingPathComponent("events.jsonl"))
    }

    var path: String { directory.path }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
