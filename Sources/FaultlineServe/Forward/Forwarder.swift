import FaultlineLogReading
import FaultlineRecords
import FaultlineReporting
import Foundation

/// Where `faultline serve` forwards what it accepts: the upstream of each route, one durable queue per upstream.
struct Forwarder: Sendable {
    /// A project and the key its clients send.
    private struct Credentials: Hashable {
        let projectID: String
        let publicKey: String
    }

    /// A queue under `forward/` that no route's upstream names any more (`--forward` changed host, port or project),
    /// and the envelopes that wait in it.
    struct StrandedQueue: Hashable, Sendable {
        let name: String
        let directory: URL
        let envelopes: Int
    }

    /// Every upstream, in the order the routes name them.
    let upstreams: [Upstream]
    private let routes: [Credentials: Upstream]
    /// The queues of earlier upstreams in which envelopes wait, found when the forwarder opened.
    let strandedQueues: [StrandedQueue]

    /// Opens the queue of every upstream `configuration` names, under `logDirectory`.
    ///
    /// - Throws: ``ForwardRoutesConflict`` when two routes name one project and key, or one upstream queue with two
    ///   different DSNs (keys); the uploader's error when a queue folder cannot be created.
    init(_ configuration: ForwardConfiguration, logDirectory: URL) throws {
        var upstreams: [String: Upstream] = [:]
        var order: [Upstream] = []
        var routes: [Credentials: Upstream] = [:]
        for route in configuration.routes {
            let name = ForwardConfiguration.queueName(of: route.upstream)
            if upstreams[name] == nil {
                let upstream = try Upstream(
                    dsn: route.upstream, logDirectory: logDirectory, configuration: configuration)
                upstreams[name] = upstream
                order.append(upstream)
            }
            guard let upstream = upstreams[name], upstream.dsn == route.upstream else {
                throw ForwardRoutesConflict(
                    description: "two routes send to \(name) with different DSNs (\(route.upstream) and "
                        + "\(upstreams[name]?.dsn.description ?? "")): use one key per upstream project")
            }
            let credentials = Credentials(projectID: route.projectID, publicKey: route.publicKey)
            guard routes.updateValue(upstream, forKey: credentials) == nil else {
                throw ForwardRoutesConflict(
                    description: "project \(route.projectID) with key \(route.publicKey) has two routes: give it one")
            }
        }
        self.upstreams = order
        self.routes = routes
        let root = LogLayout(logDirectory).forwardQueues
        let names = Set(order.map(\.name))
        strandedQueues = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted().compactMap {
            guard !names.contains($0), !$0.hasPrefix(".") else { return nil }
            let directory = root.appendingPathComponent($0, isDirectory: true)
            let envelopes = DeliveryBacklog.inOutbox(directory).envelopes
            return envelopes > 0 ? StrandedQueue(name: $0, directory: directory, envelopes: envelopes) : nil
        }
    }

    /// Says on `warn` which queues are stranded and how to drain them; with `drain`, forwards what waits in them to
    /// the one upstream instead, re-addressed to it, and says how many were forwarded. A queue whose envelopes were
    /// all taken is deleted. With several upstreams nothing is drained: which one an envelope belongs to is not known.
    func handleStrandedQueues(drain: Bool, warn: @Sendable (String) -> Void) async {
        for queue in strandedQueues {
            guard drain, upstreams.count == 1, let upstream = upstreams.first else {
                let how =
                    upstreams.count == 1
                    ? "start serve with --drain-stranded-queues to forward them to \(upstreams[0].name)"
                    : "--drain-stranded-queues needs a single upstream (--forward)"
                warn(
                    "the forward queue \(queue.name) holds \(queue.envelopes) envelopes for an upstream no route names "
                        + "any more: \(how), or delete \(queue.directory.path) to drop them")
                continue
            }
            do {
                let (taken, waiting) = try await StrandedQueueDrain.drain(outbox: queue.directory) { bytes in
                    guard let envelope = try? Envelope(parsing: bytes) else { return false }
                    return await upstream.forward(envelope)
                }
                if waiting == 0 { try? FileManager.default.removeItem(at: queue.directory) }
                let kept = waiting > 0 ? "; \(waiting) could not be queued and stay in \(queue.directory.path)" : ""
                warn("forwarding \(taken) envelopes of the stranded queue \(queue.name) to \(upstream.name)\(kept)")
            } catch {
                warn("the stranded queue \(queue.name) could not be drained: \(error)")
            }
        }
    }

    /// The upstream of the clients of `projectID` that send `publicKey`, when they have a route.
    func upstream(projectID: String, publicKey: String) -> Upstream? {
        routes[Credentials(projectID: projectID, publicKey: publicKey)]
    }

    /// The forward queues' depth and counts in the Prometheus text format, by upstream.
    func exposition() async -> String {
        var metrics = ForwardMetrics()
        for upstream in upstreams {
            metrics.add(
                upstream: upstream.name, pending: await upstream.uploader.pendingCount,
                statistics: await upstream.uploader.statistics)
        }
        return metrics.exposition()
    }

    /// Asks each upstream, at once, whether it takes the relay's DSN (``Uploader/probe()``), and says on `warn` what
    /// it found: accepted, refused (401, 403 or 404, with the upstream's reason: a wrong key or project), another
    /// answer, or none (unreachable). The queues are not touched: what they hold is sent, or kept, as always.
    func checkUpstreams(warn: @Sendable (String) -> Void) async {
        await withTaskGroup(of: (Upstream, EnvelopeResponse?).self) { group in
            for upstream in upstreams {
                group.addTask { (upstream, await upstream.uploader.probe()) }
            }
            for await (upstream, response) in group {
                warn(Self.finding(of: upstream, response))
            }
        }
    }

    /// What a check of `upstream` found, in words.
    private static func finding(of upstream: Upstream, _ response: EnvelopeResponse?) -> String {
        let name = "the upstream \(upstream.name)"
        guard let response else {
            return "\(name) did not answer a check (unreachable, or timed out): envelopes for it wait in its queue "
                + "until it answers"
        }
        let answer = "\(response.statusCode)" + (response.sentryError.map { " \($0)" } ?? "")
        switch response.statusCode {
        case 200..<300: return "\(name) accepts the relay's DSN \(upstream.dsn)"
        case 401, 403, 404:
            return "\(name) refuses the relay's DSN \(upstream.dsn) (\(answer)): correct the DSN of --forward; "
                + "envelopes for it are kept meanwhile"
        default: return "\(name) answered a check with \(answer): envelopes for it are retried"
        }
    }

    /// How often an upstream that keeps refusing the relay's DSN is reported again.
    static let refusalReminder = Duration.seconds(60)

    /// Reports to `warn`, until cancelled, each upstream that refuses the relay's DSN (401, 403 or 404: a wrong key or
    /// project): within a second of its first refusal, again every ``refusalReminder`` while it refuses, and when
    /// the status or the reason changes. Its envelopes are kept meanwhile. A refusal an earlier run met is not
    /// reported: its DSN may have been corrected since.
    func reportRefusedDSNs(to warn: @Sendable (String) -> Void) async {
        let start = Date()
        var reported: [String: (failure: DeliveryStatistics.DeliveryFailure, at: ContinuousClock.Instant)] = [:]
        while !Task.isCancelled {
            for upstream in upstreams {
                let statistics = await upstream.uploader.statistics
                guard let failure = statistics.lastFailure, failure.refusedTheDSN, failure.date >= start else {
                    reported[upstream.name] = nil
                    continue
                }
                if let last = reported[upstream.name], last.failure.status == failure.status,
                    last.failure.reason == failure.reason, ContinuousClock.now - last.at < Self.refusalReminder
                {
                    continue
                }
                reported[upstream.name] = (failure, .now)
                let status = failure.status.map(String.init) ?? "no status"
                let reason = failure.reason.map { " \($0)" } ?? ""
                warn(
                    "the upstream \(upstream.name) refuses the relay's DSN \(upstream.dsn) (\(status)\(reason)): "
                        + "\(statistics.waiting ?? 0) envelopes wait in its queue, none is dropped; correct the DSN "
                        + "of --forward and start again")
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Sends what waits for at most `timeout`, then stops: what was not delivered stays queued for the next start.
    func close(timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            for upstream in upstreams {
                group.addTask { _ = await upstream.uploader.close(timeout: timeout) }
            }
        }
    }
}
