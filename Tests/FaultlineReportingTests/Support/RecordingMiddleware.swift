import Faultline
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Records each failure with the request as it was sent (after the middlewares before it signed it), the inputs a
/// capture stage turns into an event.
final class RecordingMiddleware: APIMiddleware {
    private let recorded = Mutex<[(request: URLRequest, failure: RequestFailure)]>([])

    /// The request succeeded, or failed before reaching the recorder.
    struct NothingRecorded: Error {}

    var failures: [(request: URLRequest, failure: RequestFailure)] { recorded.withLock { $0 } }

    func intercept<Value: Sendable>(
        _ request: URLRequest, context: RequestContext, next: APIMiddlewareNext<Value>
    ) async throws(RequestFailure) -> APIResponse<Value> {
        do throws(RequestFailure) {
            return try await next(request, context)
        } catch {
            recorded.withLock { $0.append((request, error)) }
            throw error
        }
    }
}
