import Faultline
import FaultlineRecords
import Foundation
import Testing

/// What the event encoder writes is what the event reader reads back, field for field, and it is the one writer's
/// compact form: writing the parsed line again gives the same bytes (keys sorted at every level, one line, the
/// escapes and numbers `JSONWriterTests` pins against `JSONEncoder`).
@Suite struct EventEncoderTests {
    @Test func aFullEventReadsBackAsItWasWritten() throws {
        var event = SentryEvent(level: .warning, date: Date(timeIntervalSince1970: 1_790_000_000.123))
        event.release = "shop@3.1.0 (42)"
        event.environment = "staging"
        event.transaction = "CheckoutViewController"
        event.message = "line one\nline \"two\"\t\\ back/slash \u{1} é 漢字 🚀"
        event.exception = .init([
            .init(
                type: "ServerFailure", value: "POST /v1/boletos: 409",
                mechanism: .init(
                    type: "auto.http.faultline", handled: false, data: ["attempt": 2, "ratio": .double(0.25)]),
                stacktrace: .init(frames: [
                    .init(
                        function: "main", package: "/usr/bin/app", inApp: false, contextLine: "  run(app) # \"quoted\""),
                    .init(CallSite(fileID: "Shop/Checkout.swift", function: "pay(_:)", line: 42)),
                ]))
        ])
        event.threads = .init([.init(stacktrace: .init(frames: [.init(function: "run()", lineno: 7)]), current: true)])
        event.request = .init(
            method: "POST", url: "https://api.example/v1/boletos", queryString: "token=[Filtered]&order=1",
            headers: ["authorization": "[Filtered]", "Content-Type": "application/json", "x-b": "1", "X-A": "2"],
            data: ["cpf": "[Filtered]", "items": [1, .double(2.5), true, .null, ["nested": []]], "empty": [:]])
        event.user = UserContext(
            id: "42", email: "ana@example.com", segment: "pro", ipAddress: "{{auto}}", data: ["plan": "gold"])
        event.tags = ["error.kind": "server", "http.route": "/v1/boletos", "error_kind": "x", "Zed": "z", "a": ""]
        event.contexts = ["os": ["name": "Linux", "version": "6.1"], "response": ["status_code": 409]]
        event.breadcrumbs = .init([
            Breadcrumb(type: "http", category: "http", level: .error, message: "GET /a", data: ["status_code": 500]),
            Breadcrumb(message: "tapped"),
        ])
        event.fingerprint = ["server", "POST /v1/boletos", "409", "40901"]
        event.extra = ["large": .int(Int.max), "negative": -7, "exponent": .double(1e-7)]

        try expectRoundTrip(event)
    }

    @Test func aMinimalEventReadsBackAsItWasWritten() throws {
        try expectRoundTrip(SentryEvent(level: .error))
    }

    @Test func controlCharactersReadBackAsTheyWere() throws {
        var event = SentryEvent(level: .fatal)
        event.tags = ["decoding.path": "data.users[3].profileImage"]
        event.extra = ["control": "\u{0}\u{1F}\u{7F}"]
        try expectRoundTrip(event)
    }

    private func expectRoundTrip(_ event: SentryEvent) throws {
        let written = EventEncoder.encode(event)
        #expect(!written.contains(0x0A))
        #expect(try SentryEvent(line: written) == event)
        let rewritten = try JSONValue(parsing: written).compactJSON
        #expect(String(decoding: rewritten, as: UTF8.self) == String(decoding: written, as: UTF8.self))
    }
}
