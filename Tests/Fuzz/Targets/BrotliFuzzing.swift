import FaultlineServe
import Foundation

/// Brotli bodies (`Content-Encoding: br`, what sentry-python sends) inflated within a size limit: the limit is exact,
/// a body that inflates to n bytes is read with a limit of n and refused with n − 1, and the request decoder reads it
/// the same.
enum BrotliFuzzing {
    static let limit = 1 << 20

    static func run(_ data: Data) throws(Disagreement) {
        guard let inflated = try? Brotli.decompress(data, maximumSize: limit) else { return }
        try Disagreement.check(inflated.count <= limit, "brotli inflated \(inflated.count) bytes past its limit")
        let exact = try? Brotli.decompress(data, maximumSize: inflated.count)
        try Disagreement.check(exact == inflated, "brotli refused a body at the limit of its own size")
        if !inflated.isEmpty {
            var failure: BodyDecodingError?
            do throws(BodyDecodingError) {
                _ = try Brotli.decompress(data, maximumSize: inflated.count - 1)
            } catch {
                failure = error
            }
            try Disagreement.check(
                failure == .tooLarge(limit: inflated.count - 1),
                "brotli inflated \(inflated.count) bytes under a limit of one less: \(failure.map(String.init(describing:)) ?? "no error")"
            )
        }
        let decoded = try? BodyDecoding.decode(data, encoding: " BR", maximumSize: limit)
        try Disagreement.check(decoded == inflated, "the request decoder read a brotli body otherwise")
    }
}
