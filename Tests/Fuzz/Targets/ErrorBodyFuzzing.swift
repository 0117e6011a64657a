import Faultline
import Foundation

/// Error bodies a server sends, read by the contracts the client tries when none is configured: any bytes, from
/// HTML error pages to binary, must read as an error or as none, without a crash.
enum ErrorBodyFuzzing {
    static func run(_ data: Data) throws(Disagreement) {
        let status = 400 + Int(data.first ?? 0) % 200
        _ = ErrorContract.automatic.errorBody(status, data)
        _ = ErrorContract.automatic.failureInSuccessfulBody?(200, data)
    }
}
