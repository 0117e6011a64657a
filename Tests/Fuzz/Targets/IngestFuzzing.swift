import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import FaultlineServe
import Foundation

/// Requests to `faultline serve` as any client sends them, envelope or legacy `store` body, read as the ingest reads
/// them: every event it accepts becomes one log line that every `faultline` command reads, with its id and a time
/// it may hold, the record the metrics count is the one triage reads from the line, and what it forwards is an
/// envelope.
enum IngestFuzzing {
    private static let key = "public"
    /// When the requests arrive: a fixed time, so that a finding replays.
    private static let receivedAt = Date(timeIntervalSince1970: 1_800_000_000)
    /// The default configuration, which scrubs values, and one that stores events as they come.
    private static let configurations: [IngestConfiguration] = [true, false].map { scrubs in
        var configuration = IngestConfiguration(logDirectory: URL(fileURLWithPath: "/nonexistent"), publicKey: key)
        configuration.scrubsValues = scrubs
        return configuration
    }

    static func run(_ data: Data) throws(Disagreement) {
        for configuration in configurations {
            if let request = try? IngestRequest(
                envelope: data, key: key, acceptedKeys: [key], configuration: configuration, receivedAt: receivedAt)
            {
                try check(request)
                let forwarded = request.envelope.serialized()
                try Disagreement.check(
                    (try? Envelope(parsing: forwarded))?.items.count == request.envelope.items.count,
                    "the envelope the ingest forwards cannot be read back")
            }
            if let request = try? IngestRequest(
                storeBody: data, key: key, acceptedKeys: [key], configuration: configuration, receivedAt: receivedAt)
            {
                try check(request)
            }
        }
    }

    private static func check(_ request: IngestRequest) throws(Disagreement) {
        for (index, event) in request.events.enumerated() {
            try Disagreement.check(
                event.id.utf8.count == 32 && event.id.utf8.allSatisfy { isLowercaseHexDigit($0) },
                "an event is stored with the id \(event.id.debugDescription)")
            let line = event.line
            try Disagreement.check(
                !line.contains(UInt8(ascii: "\n")) && !line.contains(UInt8(ascii: "\r")),
                "an event is stored on more than one line")
            guard case .object(let object)? = try? JSONValue(parsing: line) else {
                throw Disagreement(description: "an event is stored as a line that is not a JSON object")
            }
            try Disagreement.check(
                object["event_id"] == .string(event.id), "an event's line holds another id than \(event.id)")
            let seconds: Double? =
                switch object["timestamp"] {
                case .string(let text)?: RFC3339.seconds(text)
                case .int(let seconds)?: Double(seconds)
                case .double(let seconds)?: seconds
                default: nil
                }
            try Disagreement.check(
                seconds.map {
                    RFC3339.range.lowerBound <= $0
                        && $0 <= receivedAt.timeIntervalSince1970 + IngestRequest.maximumTimeAhead
                } == true,
                "an event is stored with the time \(object["timestamp"].map(String.init(describing:)) ?? "none")")
            let scanned = Array(line).withUnsafeBufferPointer { try? EventScan(line: $0).record }
            try Disagreement.check(
                request.records[index] == scanned, "the ingest counted another event than triage reads in its line")
        }
    }

    private static func isLowercaseHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
