import FaultlineReporting
import Foundation

/// DSNs from configuration and from envelope headers any client writes.
enum DSNFuzzing {
    static func run(_ data: Data) throws(Disagreement) {
        guard let text = String(data: data, encoding: .utf8), let dsn = try? DSN(text) else { return }
        guard let again = try? DSN(dsn.description) else {
            throw Disagreement(description: "the DSN \(dsn) read from \(text) cannot be read back")
        }
        try Disagreement.check(
            again.description == dsn.description && again.publicKey == dsn.publicKey && again.host == dsn.host
                && again.port == dsn.port && again.projectID == dsn.projectID && again.pathPrefix == dsn.pathPrefix,
            "the DSN \(dsn) reads back as \(again)")
    }
}
