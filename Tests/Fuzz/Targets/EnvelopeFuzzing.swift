import FaultlineRecords
import FaultlineReporting
import Foundation

/// Envelopes as `faultline serve` reads them from any client.
enum EnvelopeFuzzing {
    static func run(_ data: Data) throws(Disagreement) {
        guard let envelope = try? Envelope(parsing: data) else { return }
        let written = envelope.serialized()
        guard let again = try? Envelope(parsing: written) else {
            throw Disagreement(description: "an envelope read from the input cannot be read back once written")
        }
        try Disagreement.check(again.serialized() == written, "an envelope written and read back writes other bytes")
    }
}
