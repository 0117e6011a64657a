import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineTriage
import Foundation
import Testing

/// `faultline serve` reads event ids and times as Sentry's ingest does: an id is a UUID however it is written, a time
/// far ahead is replaced by the time received, and a body that is not an event says why.
@Suite struct EventNormalizationTests {
    @Test func idsWrittenAnyWayAreOneIdAndTimesAheadGetTheTimeReceived() async throws {
        // Given an event whose id has capitals and hyphens; the same event with its id written plain; an event with
        // no UUID for an id and a time 1e15 seconds after 1970, in an envelope whose id is in braces; and an event
        // whose time is in milliseconds by mistake
        let hyphenated = Data(
            #"{"event_id":"0123ABCD-0123-4567-89AB-0123456789AB","timestamp":"2026-11-23T09:00:00Z"}"#.utf8)
        let plain = Data(#"{"event_id":"0123abcd0123456789ab0123456789ab","timestamp":"2026-11-23T09:00:00Z"}"#.utf8)
        let farAhead = Data(#"{"event_id":"no uuid\u001b[2J","timestamp":1e15,"message":"far ahead"}"#.utf8)
        let inMilliseconds = Data(#"{"event_id":"55555555555555555555555555555555","timestamp":1795588811000}"#.utf8)
        let bodies = [
            Envelope(header: [:], items: [.init(type: "event", payload: hyphenated)]),
            Envelope(header: [:], items: [.init(type: "event", payload: plain)]),
            Envelope(
                header: ["event_id": "{44444444-4444-4444-4444-444444444444}"],
                items: [.init(type: "event", payload: farAhead)]),
            Envelope(header: [:], items: [.init(type: "event", payload: inMilliseconds)]),
        ]
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        let sent = Date()
        let answers = try await ServeFixture.run(logs: logs) { serve in
            var answers: [JSONValue] = []
            for envelope in bodies {
                let (answer, response) = try await serve.exchange(
                    "/api/1/envelope/", body: envelope.serialized(), headers: ServeFixture.auth)
                #expect(response.statusCode == 200)
                answers.append(try JSONValue(parsing: answer))
            }
            return answers
        }
        let answered = Date()

        // Then each answer is JSON with the id as 32 lowercase hex digits, the event written two ways is stored once
        #expect(
            answers.map { $0.objectValue?["id"] } == [
                "0123abcd0123456789ab0123456789ab", "0123abcd0123456789ab0123456789ab",
                "44444444444444444444444444444444", "55555555555555555555555555555555",
            ])
        let lines = try String(decoding: Data(contentsOf: logs.appendingPathComponent("events.jsonl")), as: UTF8.self)
            .split(separator: "\n")
        let events = try lines.map { try #require(try JSONValue(parsing: Data($0.utf8)).objectValue) }
        #expect(
            events.map { $0["event_id"] }
                == answers.enumerated().filter { $0.offset != 1 }.map { $0.element.objectValue?["id"] })
        #expect(events[0]["timestamp"] == "2026-11-23T09:00:00Z")
        // and the times ahead are the time received, the time sent kept in the event's errors as Sentry keeps it
        for (event, given) in zip(events[1...], [1e15, 1_795_588_811_000]) {
            let time = try #require(event["timestamp"]?.stringValue.flatMap(RFC3339.seconds))
            // (between the request and its answer; written to the millisecond, truncated)
            #expect(sent.timeIntervalSince1970 - 0.001 <= time && time <= answered.timeIntervalSince1970)
            // (a whole number is written without a fraction, and read back as an integer)
            let error: JSONValue = ["type": "future_timestamp", "name": "timestamp", "value": .int(Int(given))]
            #expect(event["errors"] == [error])
        }

        // And every command reads the log without a bucket for each of the years ahead
        let timeline = TimelineReport(await LogScan(files: try LogFile.all(in: logs), filter: EventFilter()))
        #expect(timeline.events == 3)
        #expect(timeline.buckets.count <= 48)
    }

    @Test func whatIsNotAnEventIsRefusedWithTheReason() async throws {
        let id = "0123456789abcdef0123456789abcdef"
        let event = { (body: Data) in Envelope(header: [:], items: [.init(type: "event", payload: body)]).serialized() }
        let cases: [(String, Data, String)] = [
            (
                "an envelope id that is no UUID",
                Envelope(header: ["event_id": "a\u{1B}[2J\"q\n"], items: []).serialized(),
                "the envelope's event_id is not a UUID"
            ),
            (
                "a number too large for a double", event(Data(#"{"n":1\#(String(repeating: "0", count: 400))}"#.utf8)),
                "out of range"
            ),
            ("a lone surrogate", event(Data(#"{"event_id":"\#(id)","m":"\ud800"}"#.utf8)), "surrogate"),
            ("bytes that are not UTF-8", event(Data(#"{"m":""#.utf8) + [0xFF, 0xFE] + Data(#""}"#.utf8)), "UTF-8"),
            (
                "nesting 1000 deep",
                event(
                    Data((String(repeating: #"{"a":"#, count: 1000) + "1" + String(repeating: "}", count: 1000)).utf8)),
                "nested deeper"
            ),
            ("an array", event(Data("[1]".utf8)), "not a JSON object"),
        ]
        let logs = try ServeFixture.logDirectory()
        defer { try? FileManager.default.removeItem(at: logs) }
        try await ServeFixture.run(logs: logs) { serve in
            for (name, body, reason) in cases {
                let (status, said) = try await serve.post("/api/1/envelope/", body: body, headers: ServeFixture.auth)
                #expect(status == 400, "\(name)")
                #expect(said?.contains(reason) == true, "\(name): \(said ?? "no reason")")
            }
        }
    }
}
