#if SwiftLog
    import FaultlineReporting
    import Logging

    /// Hands the log records of every ``BreadcrumbLogHandler`` it makes to one reporter, in the order they were logged,
    /// whichever logger logged them. `LogHandler.log` is synchronous and the reporter an actor, so records go through
    /// one stream that one task drains; the task ends when the recorder and its handlers are gone.
    ///
    /// Make one per reporter, and a handler per logger from it:
    ///
    /// ```swift
    /// let recorder = LogRecorder(reporter: reporter)
    /// LoggingSystem.bootstrap { label in
    ///     MultiplexLogHandler([
    ///         StreamLogHandler.standardError(label: label),
    ///         recorder.handler(label: label, captureLevel: .error),
    ///     ])
    /// }
    /// ```
    public final class LogRecorder: Sendable {
        /// What to capture as an event.
        enum Capture: Sendable {
            case error(any Error)
            case message(String, level: SentryEvent.Level)
        }

        /// One log record: its breadcrumb, and the capture it asks for.
        struct Record: Sendable {
            let breadcrumb: Breadcrumb
            let capture: Capture?
        }

        private let records: AsyncStream<Record>.Continuation

        /// A recorder into `reporter`.
        public init(reporter: Reporter) {
            let (stream, records) = AsyncStream.makeStream(of: Record.self)
            self.records = records
            Task {
                for await record in stream {
                    // The event carries the breadcrumbs logged before it; the record's own breadcrumb comes after.
                    switch record.capture {
                    case .error(let error): _ = await reporter.capture(error: error)
                    case .message(let message, let level): _ = await reporter.capture(message: message, level: level)
                    case nil: break
                    }
                    await reporter.addBreadcrumb(record.breadcrumb)
                }
            }
        }

        deinit {
            records.finish()
        }

        /// A handler for the logger `label` that records into this recorder's reporter, capturing records at
        /// `captureLevel` and above as events (none by default).
        public func handler(label: String, captureLevel: Logger.Level? = nil) -> BreadcrumbLogHandler {
            BreadcrumbLogHandler(label: label, recorder: self, captureLevel: captureLevel)
        }

        func forward(_ record: Record) {
            records.yield(record)
        }
    }
#endif
