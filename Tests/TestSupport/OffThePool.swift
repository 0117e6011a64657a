import Foundation

/// Runs `work`, which computes or blocks for long without suspending, on a thread of its own, and returns what it
/// returns or throws. On 2 cores the concurrency pool has 2 threads: a test that holds one for seconds stalls every
/// server and client the suite runs in this process (a relay inside its rate limit, a token inside its lifetime, the
/// Python SDK inside its patience). `work` runs outside the test's task, so it records no expectations itself.
package func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
