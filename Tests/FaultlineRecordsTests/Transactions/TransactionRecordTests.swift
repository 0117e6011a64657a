import FaultlineRecords
import Foundation
import Testing

/// Transactions as SDKs send them, read for the requests they timed: the official Python SDK's `http.client` spans
/// and Faultline's own request transactions.
@Suite struct TransactionRecordTests {
    static func record(_ line: String) -> TransactionRecord? {
        var line = line
        return line.withUTF8 { TransactionRecord(line: $0) }
    }

    @Test func aPythonSDKsTransactionIsReadForItsHTTPClientSpans() throws {
        // Given a transaction as sentry-python 2 sends it (served by faultline serve, with the trace's sample rate
        // added), with a request span that failed, one that succeeded, one without a status, and a db span
        let line = """
            {"type":"transaction","transaction":"GET /checkout","release":"shop-py@1.0","environment":"staging",\
            "start_timestamp":1795000000.0,"timestamp":"2026-11-18T11:06:41.000Z",\
            "contexts":{"trace":{"op":"http.server","trace_id":"771a43a4192642f0b136d5159a501700",\
            "span_id":"b7ad6b7169203331","data":{"sentry.sample_rate":0.25,"thread.id":"1"}}},\
            "spans":[\
            {"op":"http.client","description":"POST https://pay.example.com/v1/charges/ch_3Mtw?api_key=[Filtered]",\
            "start_timestamp":1795000000.1,"timestamp":1795000000.35,"status":"internal_error",\
            "data":{"http.method":"POST","http.response.status_code":502,"url":"https://pay.example.com/v1/charges/9f8e7d6c5b"}},\
            {"op":"http.client","description":"GET https://api.example.com/users/7/orders?page=2",\
            "start_timestamp":1795000000.4,"timestamp":1795000000.42,"status":"ok","data":{"http.status_code":"200"}},\
            {"op":"http.client","description":"GET /health","start_timestamp":1795000000.5,"timestamp":1795000000.5},\
            {"op":"http.client","description":"DELETE https://api.example.com/carts/1","start_timestamp":1795000000.5,\
            "timestamp":1795000000.6,"status":"deadline_exceeded"},\
            {"op":"db","description":"SELECT 1","start_timestamp":1795000000.6,"timestamp":1795000000.7}]}
            """

        // When it is read
        let transaction = try #require(Self.record(line))

        // Then it names its release, environment, end and sample rate, and the four request spans as requests
        #expect(transaction.release == "shop-py@1.0")
        #expect(transaction.environment == "staging")
        #expect(transaction.end == 1_795_000_001)
        #expect(transaction.sampleRate == 0.25)
        #expect(transaction.requests.map(\.method) == ["POST", "GET", "GET", "DELETE"])
        #expect(transaction.requests.map(\.route) == ["/v1/charges/*", "/users/*/orders", "/health", "/carts/*"])
        #expect(transaction.requests.map(\.outcome) == ["server.5xx", "ok", "ok", "transport"])
        #expect(transaction.requests[0].duration == .milliseconds(250))
    }

    @Test func faultlinesRequestTransactionIsItsOwnRequestWithItsRouteAndOutcome() throws {
        // Given a transaction Faultline's reporter sends for a request made outside any span
        let line = """
            {"contexts":{"trace":{"data":{"faultline.outcome":"decoding.2xx","http.request.method":"GET",\
            "http.response.status_code":200,"http.route":"/boleto/users/{id}","sentry.sample_rate":1,\
            "url":"http://127.0.0.1:8080/boleto/users/7"},"op":"http.client","span_id":"b7ad6b7169203331",\
            "status":"ok","trace_id":"771a43a4192642f0b136d5159a501700"}},"event_id":"9ec79c33ec9942ab8353589fcb2e04dc",\
            "spans":[],"start_timestamp":1795000000.5,"timestamp":1795000000.625,"transaction":"GET /boleto/users/{id}",\
            "type":"transaction"}
            """

        // When it is read
        let transaction = try #require(Self.record(line))

        // Then it is one request of its route template, ended as the reporter counted it
        #expect(transaction.sampleRate == 1)
        let request = try #require(transaction.requests.first)
        #expect(transaction.requests.count == 1)
        #expect(request.method == "GET" && request.route == "/boleto/users/{id}")
        #expect(request.outcome == "decoding.2xx" && request.duration == .milliseconds(125))
    }

    @Test(arguments: [
        "{\"type\":\"event\",\"timestamp\":1795000000}", "{\"type\":\"transaction\"}", "[1]", "<html>", "{\"type\":7}",
        "{\"type\":\"transaction\",\"timestamp\":1795000000,\"spans\":[{\"op\":",
    ])
    func aLineThatIsNotATransactionIsNotRead(line: String) {
        #expect(Self.record(line) == nil)
    }

    @Test(arguments: [
        ("https://api.example.com/users/42", "/users/*"),
        ("/v2/orders/4f1d2c3b-5a6e-4b7c-8d9e-0f1a2b3c4d5e/items", "/v2/orders/*/items"),
        ("http://h:8080/files/deadbeef42?x=1#top", "/files/*"),
        ("https://h/blog/my-first-post", "/blog/my-first-post"),
        ("https://h/tokens/abcdefghijk0123456789", "/tokens/*"),
        ("https://h", "/"), ("/", "/"),
    ])
    func aURLsIdentifiersAreStars(url: String, route: String) {
        #expect(RoutePath.route(url) == route)
    }
}
