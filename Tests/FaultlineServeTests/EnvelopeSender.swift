import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client that sends one-event envelopes to a `faultline serve` on loopback until it is told to stop, as an SDK
/// keeps sending through a server's hiccups: a refusal, a connection error or a status other than 200 is not the end
/// (a loaded machine answers late, and a server being stopped refuses), the next envelope is sent after 20 ms.
///
/// Senders run in unstructured tasks and stop at a ``Stop`` signal, never by cancellation: cancelling a task inside
/// `URLSession.data(for:)` while the session completes it deadlocks swift-corelibs-foundation (seen in a full test
/// run: the canceller held the task's status lock and waited for the session's queue, which waited for that lock).
enum EnvelopeSender {
    /// Set once to stop the senders; each checks it before every envelope.
    final class Stop: Sendable {
        private let stopped = Mutex(false)

        var isSet: Bool { stopped.withLock { $0 } }

        func set() {
            stopped.withLock { $0 = true }
        }
    }

    /// Starts `count` senders to `127.0.0.1:port`, the n-th giving its events ids made of `firstRun + n` and an index,
    /// until `stop` is set, calling `onAccepted` after each 200.
    static func start(
        _ count: Int, toPort port: Int, firstRun: Int, until stop: Stop,
        onAccepted: @escaping @Sendable () async -> Void = {}
    ) -> [Task<[String], Never>] {
        (0..<count).map { client in
            Task { await send(toPort: port, run: firstRun + client, until: stop, onAccepted: onAccepted) }
        }
    }

    /// The ids the `senders` had answered 200, once they have stopped (set their ``Stop`` first).
    static func accepted(by senders: [Task<[String], Never>]) async -> [String] {
        var accepted: [String] = []
        for sender in senders { accepted += await sender.value }
        return accepted
    }

    /// Sends envelopes to `127.0.0.1:port`, each with a new event id made of `run` and its index, until `stop` is set,
    /// calling `onAccepted` after each 200; returns the ids answered 200, in order.
    private static func send(
        toPort port: Int, run: Int, until stop: Stop, onAccepted: @Sendable () async -> Void
    ) async -> [String] {
        var accepted: [String] = []
        var index = 0
        while !stop.isSet {
            let id = RelayFixture.eventID(run: run, index)
            index += 1
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/api/1/envelope/")!)
            request.httpMethod = "POST"
            request.timeoutInterval = 10
            request.httpBody = RelayFixture.eventEnvelope(id)
            for (name, value) in ServeFixture.auth { request.setValue(value, forHTTPHeaderField: name) }
            if let (_, response) = try? await URLSession.shared.data(for: request),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                accepted.append(id)
                await onAccepted()
            } else {
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
        return accepted
    }
}
