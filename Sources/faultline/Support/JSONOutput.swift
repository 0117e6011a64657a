import FaultlineTriage
import Foundation

/// What `--json` prints: keys sorted but `schema_version` first, so that a reader sees which schema it reads before
/// anything else.
enum JSONOutput {
    /// `report` encoded, pretty-printed unless `pretty` is false (one line, for `tail`), and a newline.
    static func encode(_ report: some Encodable, pretty: Bool = true) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return Data(JSONSchemaVersion.movedFirst(in: Array(try encoder.encode(report))) + Array("\n".utf8))
    }
}
