import FaultlineRecords
import Foundation

/// gzip bodies from any client, inflated within a size limit, and what the pipeline deflates inflated back.
enum GzipFuzzing {
    static let limit = 1 << 20

    static func run(_ data: Data) throws(Disagreement) {
        if let inflated = try? Gzip.decompress(data, maximumSize: limit) {
            try Disagreement.check(inflated.count <= limit, "gzip inflated \(inflated.count) bytes past its limit")
        }
        let deflated = Gzip.compress(data)
        let back = try? Gzip.decompress(deflated, maximumSize: data.count)
        try Disagreement.check(back == data, "bytes deflated then inflated are not the same bytes")
    }
}
