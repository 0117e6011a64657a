import Foundation
import NIOCore

extension IngestServer {
    /// Why the ingest could not listen, in words: the address is in use, not this machine's, or not allowed.
    package struct ListenFailure: Error, CustomStringConvertible {
        package let description: String

        /// The failure `error` is, when it is one of binding `host`:`port`.
        init?(_ error: any Error, host: String, port: Int) {
            guard let error = error as? IOError else { return nil }
            let address = "\(host):\(port)"
            switch error.errnoCode {
            case EADDRINUSE:
                description =
                    "\(address) is in use by another program: stop it, or pass another --port (0 lets the "
                    + "system choose one)."
            case EADDRNOTAVAIL:
                description =
                    "\(host) is not an address of this machine: pass --host 127.0.0.1, or 0.0.0.0 for every "
                    + "address."
            case EACCES:
                description = "listening on port \(port) needs privileges this user lacks: pass a --port above 1023."
            default:
                return nil
            }
        }
    }
}
