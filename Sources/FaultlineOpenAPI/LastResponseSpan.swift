#if OpenAPIRuntime
    import FaultlineReporting
    import Foundation

    /// The span of the last response ``CaptureClientMiddleware`` passed on during a call of
    /// ``CaptureClientMiddleware/capturingDecodingFailures(of:_:)``: the runtime decodes a response after the
    /// middlewares have returned, so a decoding failure found around the call belongs to that request's span.
    final class LastResponseSpan: @unchecked Sendable {
        /// The one of the running call of ``CaptureClientMiddleware/capturingDecodingFailures(of:_:)``, if any.
        @TaskLocal static var current: LastResponseSpan?

        // Safe to share: `stored` is the only mutable state, and every access to it holds `lock`.
        private let lock = NSLock()
        private var stored: RequestSpan?

        /// The span of the last response passed on.
        var span: RequestSpan? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }
#endif
