import Foundation

/// What a run of ingest-throughput loads.
enum IngestSide: CaseIterable {
    /// A fresh `faultline serve`, posted envelopes.
    case serve
    /// Bugsink, posted the same envelopes.
    case bugsink
    /// A fresh `faultline serve`'s `GET /health`, sent the same requests: the generator's ceiling on this machine,
    /// with the server doing the least it can over the same HTTP stack.
    case ceiling

    var name: String {
        switch self {
        case .serve: "faultline serve"
        case .bugsink: "Bugsink 2.6.1"
        case .ceiling: "ceiling: wrk to serve's GET /health"
        }
    }
}

/// One run of wrk against one side, and what that side stored with the run's event ids.
struct IngestRun {
    let side: IngestSide
    let wrk: WrkRun.Result
    /// Events stored with the run's ids, and how many distinct ids they have.
    let stored: Int
    let storedIDs: Int
    /// The size of the envelope each request carried.
    let envelopeBytes: Int
    /// The CPU the server (its process and workers) and wrk used during the run, in seconds; the server's is `nil`
    /// when `/proc` could not tell.
    let serverCPUSeconds: Double?
    let generatorCPUSeconds: Double

    /// The server's and wrk's CPU time per request answered, in microseconds.
    var serverCPUPerRequest: Double? { serverCPUSeconds.map { $0 / Double(max(1, wrk.answered)) * 1e6 } }
    var generatorCPUPerRequest: Double { generatorCPUSeconds / Double(max(1, wrk.answered)) * 1e6 }

    /// Requests sent and never answered: wrk stopped, or the connection failed, before the answer.
    var unanswered: Int { wrk.sent - wrk.answered }

    /// What went wrong: a request unanswered, an event answered 200 and not stored, or stored twice, or an event
    /// stored from `GET /health`. Empty when the run checks out; answers other than 200 are reported, not problems.
    var problems: [String] {
        var problems: [String] = []
        if unanswered > 0 { problems.append("\(unanswered) unanswered") }
        let expected = side == .ceiling ? 0 : wrk.answered200
        if stored != expected { problems.append("\(stored) stored for \(expected) expected") }
        if storedIDs != stored { problems.append("\(stored - storedIDs) stored more than once") }
        return problems
    }

    /// The run in one line, as it is printed when it ends.
    var summary: String {
        let others = wrk.otherAnswers.sorted { $0.key < $1.key }.map { "\($0.value) answered \($0.key)" }
        return String(format: "%.0f/s", wrk.rate)
            + ", p50 \(Self.milliseconds(wrk.p50Microseconds)), p99 \(Self.milliseconds(wrk.p99Microseconds)), "
            + "CPU per request \(serverCPUPerRequest.map { String(format: "%.0f µs", $0) } ?? "unknown") server, "
            + String(format: "%.0f µs wrk, ", generatorCPUPerRequest)
            + "\(wrk.sent) sent, \(wrk.answered200) answered 200, \(stored) stored"
            + (others.isEmpty ? "" : ", " + others.joined(separator: ", "))
            + (problems.isEmpty ? ": checked" : ": " + problems.joined(separator: ", "))
    }

    /// Microseconds as milliseconds, to three significant digits or so.
    static func milliseconds(_ microseconds: Double) -> String {
        let value = microseconds / 1000
        return String(format: value < 10 ? "%.2f ms" : value < 100 ? "%.1f ms" : "%.0f ms", value)
    }
}
