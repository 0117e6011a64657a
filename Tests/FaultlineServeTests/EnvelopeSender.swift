import Faultline
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client that sends one-event envelopes to a `faultline serve` on loopback until it is told to stop, as an SDK
/// keeps sending through a server's hiccups: a refusal, a connection error or a status other than 200 is not the end
/// (a loaded machine answers late, and a server being stopped refuses), the next envelope is sent after 20 ms.
///
/// Each sender is a thread of its own with a session of its own, waiting for each answer on that thread: a full test
/// run keeps the concurrency pool's two threads busy (and some tests block them while a child process runs), and
/// senders on the pool sent a few envelopes a second there, where they send hundreds alone. Senders stop at a
/// ``Stop`` signal, never by cancellation: cancelling a task inside URLSession while the session completes it
/// deadlocks swift-corelibs-foundation (seen in a full test run: the canceller held the task's status lock and waited
/// for the session's queue, which waited for that lock).
enum EnvelopeSender {
    /// Set once to stop the senders; each checks it before every envelope.
    final class Stop: Sendable {
        private let stopped = Mutex(false)

        var isSet: Bool { stopped.withLock { $0 } }

        func set() {
            stopped.withLock { $0 = true }
        }
    }

    /// The ids a sender's thread had answered 200 when it stopped, for the tasks that wait for it.
    private final class Accepted: Sendable {
        private let state = Mutex<(ids: [String]?, waiter: CheckedContinuation<[String], Never>?)>((nil, nil))

        func finish(_ ids: [String]) {
            let waiter = state.withLock { state in
                state.ids = ids
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: ids)
        }

        var ids: [String] {
            get async {
                await withCheckedContinuation { continuation in
                    let ids = state.withLock { state in
                        if state.ids == nil { state.waiter = continuation }
                        return state.ids
                    }
                    if let ids { continuation.resume(returning: ids) }
                }
            }
        }
    }

    /// Starts `count` senders to `127.0.0.1:port`, the n-th giving its events ids made of `firstRun + n` and an index,
    /// until `stop` is set or `limit` of its envelopes were answered 200, each waiting `pause` after an envelope
    /// answered 200 (none by default: as fast as the server answers), calling `onAccepted` (in a task of its own)
    /// after each 200; each task returns its sender's accepted ids once it stopped.
    static func start(
        _ count: Int, toPort port: Int, firstRun: Int, pause: Duration = .zero, limit: Int = .max, until stop: Stop,
        onAccepted: @escaping @Sendable () async -> Void = {}
    ) -> [Task<[String], Never>] {
        (0..<count).map { client in
            let accepted = Accepted()
            Thread {
                accepted.finish(
                    send(
                        toPort: port, run: firstRun + client, pause: pause, limit: limit, until: stop,
                        onAccepted: onAccepted))
            }.start()
            return Task { await accepted.ids }
        }
    }

    /// The ids the `senders` had answered 200, once they have stopped (set their ``Stop`` first).
    static func accepted(by senders: [Task<[String], Never>]) async -> [String] {
        var accepted: [String] = []
        for sender in senders { accepted += await sender.value }
        return accepted
    }

    /// Sends envelopes to `127.0.0.1:port` from the calling thread, each with a new event id made of `run` and its
    /// index, `pause` after each one answered 200, until `stop` is set or `limit` were answered 200; returns the ids
    /// answered 200, in order.
    private static func send(
        toPort port: Int, run: Int, pause: Duration, limit: Int, until stop: Stop,
        onAccepted: @escaping @Sendable () async -> Void
    ) -> [String] {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        var accepted: [String] = []
        var index = 0
        while !stop.isSet, accepted.count < limit {
            let id = RelayFixture.eventID(run: run, index)
            index += 1
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/api/1/envelope/")!)
            request.httpMethod = "POST"
            request.timeoutInterval = 10
            request.httpBody = RelayFixture.eventEnvelope(id)
            for (name, value) in ServeFixture.auth { request.setValue(value, forHTTPHeaderField: name) }
            let answered = DispatchSemaphore(value: 0)
            let status = Mutex<Int?>(nil)
            session.dataTask(with: request) { _, response, _ in
                status.withLock { $0 = (response as? HTTPURLResponse)?.statusCode }
                answered.signal()
            }.resume()
            answered.wait()
            if status.withLock({ $0 }) == 200 {
                accepted.append(id)
                Task { await onAccepted() }
                if pause > .zero { Thread.sleep(forTimeInterval: pause.timeInterval) }
            } else {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        return accepted
    }
}
