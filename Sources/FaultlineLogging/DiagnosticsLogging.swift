#if SwiftLog
    import FaultlineReporting
    import Logging

    extension Reporter.Options {
        /// Hands the reporter's diagnostics (``Reporter/Options/debug``) to `logger` instead of standard error, each
        /// at the swift-log level of its own: so that a server's logging bootstrap decides where they go.
        ///
        /// ```swift
        /// options.debug = true
        /// options.sendDiagnostics(to: Logger(label: "faultline"))
        /// ```
        public mutating func sendDiagnostics(to logger: Logger) {
            diagnosticHandler = { diagnostic in
                logger.log(level: Logger.Level(diagnostic.level), "\(diagnostic.message)")
            }
        }
    }

    extension Logger.Level {
        /// The swift-log level of a diagnostic's.
        init(_ level: Diagnostic.Level) {
            switch level {
            case .debug: self = .debug
            case .info: self = .info
            case .warning: self = .warning
            case .error: self = .error
            }
        }
    }
#endif
