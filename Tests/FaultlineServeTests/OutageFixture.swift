import Faultline
import FaultlineReporting
import FaultlineServe
import Foundation

/// An outage to end on cue: an ingest that owns its port but is down until the test calls `restart()`, and the
/// options of an app that sends to it, retrying within a fifth of a second.
enum OutageFixture {
    /// An ingest writing to `logs` with `publicKey`, started to take a port, then stopped, its port held.
    static func downIngest(logs: URL, publicKey: String = ServeFixture.publicKey) async throws -> DownIngest {
        var settings = IngestConfiguration(logDirectory: logs, publicKey: publicKey)
        settings.port = 0
        let ingest = try await RunningIngest(settings)
        try await ingest.stop()
        return try DownIngest(ingest)
    }

    /// The options of an app logging to `logs` and sending to `ingest`, every event kept (no fingerprint limit).
    static func appOptions(logs: URL, sendingTo ingest: DownIngest) throws -> Reporter.Options {
        var options = Reporter.Options(logDirectory: logs, environmentVariables: [:])
        options.dsn = try DSN(ingest.dsn)
        options.fingerprintLimit = nil
        options.configureDelivery = { $0.backoff = Backoff(initial: .milliseconds(50), maximum: .milliseconds(200)) }
        return options
    }
}

/// A stopped ingest whose port is held while it is down: bound, not listening, without `SO_REUSEADDR`, so that a
/// client's connection is refused and no other server of the suite, given a port by the system, takes it (in a
/// loaded full run one did, and answered for the outage).
actor DownIngest {
    private let ingest: RunningIngest
    /// The socket that holds the port while the ingest is down, or -1.
    private var hold: Int32

    /// The ingest's DSN.
    nonisolated let dsn: String

    init(_ ingest: RunningIngest) throws {
        self.ingest = ingest
        self.dsn = ingest.dsn
        self.hold = try Self.hold(port: ingest.port)
    }

    /// Ends the outage: releases the port and starts the ingest on it.
    func restart() async throws {
        release()
        try await ingest.restart()
    }

    /// Stops the ingest (and releases the port, when it is still down).
    func stop() async throws {
        release()
        try await ingest.stop()
    }

    private func release() {
        guard hold >= 0 else { return }
        close(hold)
        hold = -1
    }

    /// A TCP socket bound to 127.0.0.1 at `port`, not listening.
    private static func hold(port: Int) throws -> Int32 {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr = in_addr(s_addr: inet_addr("127.0.0.1"))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EADDRINUSE
            close(descriptor)
            throw POSIXError(code)
        }
        return descriptor
    }
}
