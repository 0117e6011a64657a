import FaultlineReporting
import FaultlineServe
import Foundation
import Testing

/// The DSN `faultline serve` prints is one a client can send to, whatever address it listens on.
@Suite struct IngestConfigurationTests {
    @Test(arguments: [
        ("127.0.0.1", "127.0.0.1"), ("192.0.2.7", "192.0.2.7"), ("::1", "[::1]"),
        ("0.0.0.0", ProcessInfo.processInfo.hostName), ("::", ProcessInfo.processInfo.hostName),
    ])
    func theDSNNamesAHostAClientCanReach(listening host: String, dsnHost: String) throws {
        var configuration = IngestConfiguration(logDirectory: URL(fileURLWithPath: "/tmp"), publicKey: "abc")
        configuration.host = host

        let dsn = configuration.dsn(port: 8000)

        #expect(dsn == "http://abc@\(dsnHost):8000/1")
        #expect(try DSN(dsn).port == 8000)
    }
}
