import Faultline
import FaultlineRecords
import Foundation
import Hummingbird
import NIOCore

/// One line of `faultline serve`'s access log: when, from where, what, the status, what became of it, how long.
///
/// `2026-11-24T10:00:00.123Z 127.0.0.1 POST /api/1/envelope/ 200 stored 1 event 0.8 ms`
struct AccessLogLine {
    let request: Request
    let client: SocketAddress?
    let status: Int
    /// What became of the request: the events stored, or the reason it was refused.
    let outcome: String
    let duration: Duration

    var text: String {
        let milliseconds = duration.timeInterval * 1000
        let path = request.uri.path.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : String($0) }
            .joined()
        return "\(RFC3339.string(from: Date())) \(client?.ipAddress ?? "-") \(request.method.rawValue) \(path) "
            + "\(status) \(outcome) \(String(format: "%.1f", milliseconds)) ms"
    }
}
