import BenchmarkSupport
import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import Foundation

/// The envelope every request of a run carries, as an SDK sends it uncompressed: the pipeline's builder and encoder
/// make an error event of the benchmark corpus (a classified server failure with its exception, tags, user, request
/// and contexts) with four breadcrumbs, and ``Envelope`` wraps it with the ingest's DSN. `Benchmarks/peers/envelope.lua`
/// replaces its `event_id`, in the header and in the event, in every request.
struct EnvelopeTemplate {
    /// The envelope's bytes.
    let bytes: Data

    /// The first event of a corpus seeded with `seed`, dated now, in an envelope for `dsn`.
    init(seed: UInt64, dsn: DSN) throws {
        var corpus = LogCorpus(seed: seed)
        let now = Date()
        var event = try SentryEvent(line: corpus.nextEvent(at: now).json)
        let api = "https://api.boleto.example"
        event.breadcrumbs = SentryEvent.Values([
            Breadcrumb(
                type: "navigation", category: "navigation", data: ["from": "/travels", "to": "/travels/8812"],
                date: now.addingTimeInterval(-9)),
            Breadcrumb(
                type: "http", category: "http",
                data: ["method": "GET", "url": .string("\(api)/boleto/travels/8812"), "status_code": .int(200)],
                date: now.addingTimeInterval(-8)),
            Breadcrumb(
                type: "user", category: "ui.click", message: "Button[title=\"Issue boleto\"]",
                date: now.addingTimeInterval(-2)),
            Breadcrumb(
                type: "http", category: "http", level: .warning,
                data: ["method": "POST", "url": .string("\(api)/v1/boletos"), "status_code": .int(400)],
                date: now.addingTimeInterval(-1)),
        ])
        bytes = Envelope(eventID: event.eventID, eventJSON: EventEncoder.encode(event), dsn: dsn).serialized()
    }

    /// Writes the envelope to a new file in the temporary directory and returns it.
    func write() throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("faultline-envelope-\(UUID())")
        try bytes.write(to: file)
        return file
    }
}
