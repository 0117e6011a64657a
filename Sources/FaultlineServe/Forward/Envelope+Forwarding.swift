import FaultlineRecords
import FaultlineReporting

extension Envelope {
    /// The envelope as `faultline serve` forwards it to `upstream`: as received, items and their headers included,
    /// except that the header's `dsn` (and the trace context's `public_key`, when it has one) name the upstream's,
    /// and `sent_at` is left for the uploader to set when it sends.
    func addressed(to upstream: DSN) -> Envelope {
        var forwarded = self
        forwarded.header["dsn"] = .string(upstream.description)
        forwarded.header["sent_at"] = nil
        if case .object(var trace)? = header["trace"], trace["public_key"] != nil {
            trace["public_key"] = .string(upstream.publicKey)
            forwarded.header["trace"] = .object(trace)
        }
        return forwarded
    }
}
