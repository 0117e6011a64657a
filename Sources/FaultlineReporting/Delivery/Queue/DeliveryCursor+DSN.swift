import FaultlineRecords
import Foundation

extension DeliveryCursor {
    /// The cursor's file for the log of `kind` and `dsn` in `directory`, one per log and destination:
    /// `cursor-<host>[_<port>]-<project>.json` for the event log, `transactions-cursor-….json` and
    /// `outcomes-cursor-….json` for the request logs.
    static func file(in directory: URL, for dsn: DSN, of kind: RecordKind = .events) -> URL {
        let port = dsn.port.map { "_\($0)" } ?? ""
        let name = "\(dsn.host)\(port)-\(dsn.projectID)".map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "_" }
        return directory.appendingPathComponent("\(filePrefix(of: kind))\(String(name)).json", isDirectory: false)
    }
}
