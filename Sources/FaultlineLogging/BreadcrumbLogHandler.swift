#if SwiftLog
    import FaultlineReporting
    import Logging

    /// A swift-log `LogHandler` that turns log records into breadcrumbs of a `Reporter`, so that an event shows what
    /// the app logged before it, and can capture records at a level and above as events.
    ///
    /// Records become breadcrumbs with the logger's label as their category, their level, their message, and their
    /// metadata as data (scrubbed like every breadcrumb: keys such as `token` or `password` are filtered, and so are the
    /// secrets the scrub rules' value patterns find inside messages and values, such as a JWT or `api_key=…`). Records
    /// are forwarded in the order they were logged, shortly after.
    ///
    /// Following swift-log's conventions, Faultline never bootstraps logging: the app does, usually beside its own
    /// handler, with handlers made by one ``LogRecorder``.
    public struct BreadcrumbLogHandler: LogHandler {
        /// Records below this level are ignored; `info` by default, as Sentry's logging integrations do.
        public var logLevel: Logger.Level = .info
        public var metadata: Logger.Metadata = [:]
        public var metadataProvider: Logger.MetadataProvider?
        /// Records at this level and above are also captured as events; `nil` (the default) captures none.
        public var captureLevel: Logger.Level?
        private let label: String
        private let recorder: LogRecorder

        /// A handler for the logger `label` that records through `recorder`, capturing records at `captureLevel` and
        /// above as events.
        public init(
            label: String, recorder: LogRecorder, captureLevel: Logger.Level? = nil,
            metadataProvider: Logger.MetadataProvider? = nil
        ) {
            self.label = label
            self.recorder = recorder
            self.captureLevel = captureLevel
            self.metadataProvider = metadataProvider
        }

        public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        public func log(event: LogEvent) {
            var merged = metadata
            if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
            if let recorded = event.metadata { merged.merge(recorded) { $1 } }
            let message = event.message.description
            let record = LogRecorder.Record(
                breadcrumb: Breadcrumb(
                    category: label, level: Self.sentryLevel(event.level), message: message,
                    data: merged.isEmpty ? nil : merged.mapValues(Self.json)),
                capture: captureLevel.flatMap { event.level >= $0 ? Self.capture(event, message: message) : nil })
            recorder.forward(record)
        }

        private static func capture(_ event: LogEvent, message: String) -> LogRecorder.Capture {
            if let error = event.error { return .error(error) }
            return .message(message, level: sentryLevel(event.level))
        }

        /// Sentry's level for a log level: a breadcrumb's, and a captured message's.
        private static func sentryLevel(_ level: Logger.Level) -> SentryEvent.Level {
            switch level {
            case .trace, .debug: .debug
            case .info, .notice: .info
            case .warning: .warning
            case .error: .error
            case .critical: .fatal
            }
        }

        /// Metadata as JSON: strings stay strings, lists and dictionaries keep their shape.
        private static func json(_ value: Logger.MetadataValue) -> JSONValue {
            switch value {
            case .string(let string): .string(string)
            case .stringConvertible(let convertible): .string(convertible.description)
            case .array(let array): .array(array.map(json))
            case .dictionary(let dictionary): .object(dictionary.mapValues(json))
            }
        }
    }
#endif
