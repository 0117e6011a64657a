import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client that sends one-event envelopes to a `faultline serve` on loopback for as long as its task runs, as an SDK
/// keeps sending through a server's hiccups: a refusal, a connection error or a status other than 200 is not the end
/// (a loaded machine answers late, and a server being stopped refuses), the next envelope is sent after 20 ms. It
/// stops when its task is cancelled.
enum EnvelopeSender {
    /// Sends envelopes to `127.0.0.1:port`, each with a new event id made of `run` and its index, until the task is
    /// cancelled, calling `onAccepted` after each 200; returns the ids answered 200, in order.
    static func send(
        toPort port: Int, run: Int, onAccepted: @Sendable () async -> Void = {}
    ) async -> [String] {
        var accepted: [String] = []
        var index = 0
        while !Task.isCancelled {
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
