import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request's transfer on a URLSession, cancelled when the task that awaits it is.
///
/// It stands in for `URLSession.data(for:)`, which FoundationNetworking implements by cancelling its URLSession task
/// inside the Swift cancellation handler, while the runtime holds the cancelled task's status lock. When the transfer
/// completes at that moment, the session's queue waits for that lock to resume the caller while the handler waits
/// for the session's queue, and the request never ends. Here the handler only marks the transfer cancelled, and the
/// URLSession task is cancelled from another queue.
package final class SessionTransfer: @unchecked Sendable {
    // Safe to share: `task` and `isCancelled` are the only mutable state, and every access to them holds `lock`.
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var isCancelled = false

    private init() {}

    /// Sends `request` on `session`; the response and its body, or the session's error (`URLError.cancelled` when
    /// the calling task is cancelled).
    package static func data(for request: URLRequest, on session: URLSession) async throws -> (Data, URLResponse) {
        let transfer = SessionTransfer()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    if let response, error == nil {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: error ?? URLError(.badServerResponse))
                    }
                }
                transfer.start(task)
            }
        } onCancel: {
            transfer.cancel()
        }
    }

    /// Resumes `task`, or cancels it before it starts when the calling task already was cancelled: the request never
    /// leaves, and its completion handler gets `URLError.cancelled`.
    private func start(_ task: URLSessionDataTask) {
        let wasCancelled = lock.withLock {
            self.task = task
            return isCancelled
        }
        if wasCancelled { task.cancel() } else { task.resume() }
    }

    /// Called in the cancellation handler: marks the transfer cancelled and cancels its task, if it started, from
    /// another queue.
    private func cancel() {
        let task = lock.withLock {
            isCancelled = true
            return self.task
        }
        guard let task else { return }
        DispatchQueue.global().async { task.cancel() }
    }
}
