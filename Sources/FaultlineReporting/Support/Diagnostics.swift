import Foundation

/// A message from the reporter or the uploader about their own working, for the developer, not the app's users
/// (what Sentry's SDKs print with `debug`): a DSN that cannot be read or that the server refuses, an endpoint that
/// fails or recovers, a write that fails, an event dropped and why.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How much a diagnostic matters, from the least.
    public enum Level: Int, Comparable, Sendable {
        /// What the reporter does: it started, sent, dropped an event the options asked it to drop.
        case debug
        /// A change the developer may want to know of: the endpoint recovered.
        case info
        /// Something that loses or delays events and may pass: the endpoint is unreachable or rate-limits.
        case warning
        /// A misconfiguration or a failure that will not pass alone: a DSN refused or unreadable, a write that failed.
        case error

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public let level: Level
    public let message: String

    /// `[Faultline] error: …`, as it is written to standard error.
    public var description: String { "[Faultline] \(level): \(message)" }
}

/// Where diagnostics go, and from which level: what ``Reporter/Options/debug``, ``Reporter/Options/diagnosticLevel``
/// and ``Reporter/Options/diagnosticHandler`` make of them, handed to the uploader through
/// ``DeliveryConfiguration/diagnostics``.
public struct Diagnostics: Sendable {
    /// The least level passed on.
    public var minimumLevel: Diagnostic.Level
    /// What receives them.
    public var handler: @Sendable (Diagnostic) -> Void

    /// Diagnostics from `minimumLevel` on, to `handler`.
    public init(minimumLevel: Diagnostic.Level, handler: @escaping @Sendable (Diagnostic) -> Void) {
        self.minimumLevel = minimumLevel
        self.handler = handler
    }

    /// None at all.
    public static let none = Diagnostics(minimumLevel: .error) { _ in }

    /// Writes each diagnostic on its own line to standard error.
    public static let standardError: @Sendable (Diagnostic) -> Void = { diagnostic in
        FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
    }

    /// Passes `message` on at `level`, unless below ``minimumLevel``: the message of one that is not is never made.
    public func callAsFunction(_ level: Diagnostic.Level, _ message: @autoclosure () -> String) {
        guard level >= minimumLevel else { return }
        handler(Diagnostic(level: level, message: message()))
    }
}
