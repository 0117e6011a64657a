import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import Foundation

/// One queue of `faultline serve --forward`: the envelopes waiting for an upstream, in
/// `<log directory>/forward/<upstream>/`, and what its uploader did (`delivery-stats.json` beside them).
package struct ForwardQueue: Hashable, Sendable, Encodable {
    /// The queue's folder name: the upstream's host, port and project, such as `sentry.example.com_443_42`.
    package let upstream: String
    /// The envelopes waiting, and their bytes.
    package let envelopes: Int
    package let bytes: Int
    /// When the oldest envelope waiting was received; `nil` when none waits, or only envelopes an earlier
    /// version stored, without the time.
    package let oldestWaiting: Date?
    /// The uploader's cumulative counts: forwarded (`delivered`), retried, dropped by reason.
    package let delivery: DeliveryStatistics

    enum CodingKeys: String, CodingKey {
        case upstream, envelopes, bytes, delivery
        case oldestWaiting = "oldest_waiting"
    }

    /// The queues in `logDirectory`, by upstream; none when `serve` never forwarded from it.
    package static func all(in logDirectory: URL) -> [ForwardQueue] {
        let root = LogLayout(logDirectory).forwardQueues
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.sorted().compactMap { name in
            let directory = root.appendingPathComponent(name, isDirectory: true)
            guard FileManager.default.fileExists(atPath: directory.path) else { return nil }
            let waiting = DeliveryBacklog.inOutbox(directory)
            return ForwardQueue(
                upstream: name, envelopes: waiting.envelopes, bytes: waiting.bytes, oldestWaiting: waiting.oldest,
                delivery: DeliveryStatistics.stored(in: directory))
        }
    }
}
