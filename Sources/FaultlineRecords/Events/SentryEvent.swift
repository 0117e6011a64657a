import Faultline
import Foundation

/// An event in the Sentry event schema: what Faultline writes to its local log and sends to an ingest endpoint.
///
/// Only the attributes Faultline fills are modelled; each follows the Sentry developer documentation
/// (`event-payloads`): a 32-hex `event_id`, an RFC 3339 UTC `timestamp`, `level`, `platform`, `release`, `dist`,
/// `environment`, the `sdk` interface, `exception` (with a `stacktrace`), `threads`, `request`, `user`, `tags`, `contexts`, `breadcrumbs`,
/// `fingerprint` and `extra`.
public struct SentryEvent: Hashable, Sendable {
    /// Sentry's levels, an event's and a breadcrumb's.
    public enum Level: String, Hashable, Sendable {
        case debug, info, warning, error, fatal
    }

    /// One exception in `exception.values`.
    public struct Exception: Hashable, Sendable {
        /// How the exception was captured.
        public struct Mechanism: Hashable, Sendable {
            /// The integration that captured it, such as `auto.http.faultline`.
            public var type: String
            /// Whether the app handled the error (it reached a `catch`).
            public var handled: Bool
            /// Details of the mechanism.
            public var data: [String: JSONValue]?

            public init(type: String, handled: Bool, data: [String: JSONValue]? = nil) {
                self.type = type
                self.handled = handled
                self.data = data
            }
        }

        /// The error's type, such as `ServerFailure`; with ``value`` it is the title in Sentry.
        public var type: String
        /// What the error says.
        public var value: String
        /// How it was captured.
        public var mechanism: Mechanism
        /// Where it was raised or, for Faultline's captures, the code that sent the request or captured it.
        public var stacktrace: Stacktrace?

        public init(type: String, value: String, mechanism: Mechanism, stacktrace: Stacktrace? = nil) {
            self.type = type
            self.value = value
            self.mechanism = mechanism
            self.stacktrace = stacktrace
        }
    }

    /// The `stacktrace` interface: frames oldest first, so the last frame is where the event happened.
    public struct Stacktrace: Hashable, Sendable {
        /// One frame; Faultline fills the first four and `in_app`, other SDKs also name the binary (`package`) and
        /// quote the line of source (`context_line`).
        ///
        /// `Encodable` for the reports that show it (`faultline show --json`); an event's own bytes are written by
        /// the event encoder, and read back only by the tools (`SentryEvent(line:)`).
        public struct Frame: Hashable, Sendable, Encodable {
            /// The function, as the platform names it.
            public var function: String?
            /// The module (Swift) or package path (Python) of the function.
            public var module: String?
            /// The source file, relative to the project (Faultline: `#fileID`, `Module/File.swift`).
            public var filename: String?
            public var lineno: Int?
            /// The binary the frame is in, for native frames without a file.
            public var package: String?
            /// Whether the frame is the app's own code rather than a library's.
            public var inApp: Bool?
            /// The line of source the frame is at, as the SDK read it.
            public var contextLine: String?

            public init(
                function: String? = nil, module: String? = nil, filename: String? = nil, lineno: Int? = nil,
                package: String? = nil, inApp: Bool? = nil, contextLine: String? = nil
            ) {
                self.function = function
                self.module = module
                self.filename = filename
                self.lineno = lineno
                self.package = package
                self.inApp = inApp
                self.contextLine = contextLine
            }

            /// The frame of the code at `callSite`, which is the app's.
            public init(_ callSite: CallSite) {
                self.init(
                    function: callSite.function, module: callSite.module, filename: callSite.fileID,
                    lineno: callSite.line, inApp: true)
            }

            enum CodingKeys: String, CodingKey {
                case function, module, filename, lineno, package
                case inApp = "in_app"
                case contextLine = "context_line"
            }
        }

        public var frames: [Frame]

        public init(frames: [Frame]) { self.frames = frames }
    }

    /// One thread in `threads`: what carries the stack trace of an event without an exception, such as a message.
    public struct Thread: Hashable, Sendable {
        public var stacktrace: Stacktrace?
        /// Whether this is the thread that captured the event.
        public var current: Bool?

        public init(stacktrace: Stacktrace?, current: Bool? = nil) {
            self.stacktrace = stacktrace
            self.current = current
        }
    }

    /// The `request` interface: the failed request, scrubbed.
    ///
    /// `Encodable` for the reports that show it (`faultline show --json`), as ``Stacktrace/Frame`` is.
    public struct Request: Hashable, Sendable, Encodable {
        public var method: String?
        /// The URL without its query string.
        public var url: String?
        /// The query string, with sensitive values replaced by `[Filtered]`.
        public var queryString: String?
        /// Header fields, with sensitive values replaced by `[Filtered]`.
        public var headers: [String: String]?
        /// The body, scrubbed and capped, when it was JSON or text.
        public var data: JSONValue?

        public init(
            method: String? = nil, url: String? = nil, queryString: String? = nil, headers: [String: String]? = nil,
            data: JSONValue? = nil
        ) {
            self.method = method
            self.url = url
            self.queryString = queryString
            self.headers = headers
            self.data = data
        }

        enum CodingKeys: String, CodingKey {
            case method, url, headers, data
            case queryString = "query_string"
        }
    }

    /// A list wrapped as `{"values": […]}`, the shape of `exception` and `breadcrumbs`. Read as Relay reads it:
    /// the list alone, or one element alone, is read as the list.
    public struct Values<Element: Hashable & Sendable>: Hashable, Sendable {
        public var values: [Element]

        public init(_ values: [Element]) { self.values = values }
    }

    /// The `sdk` interface.
    public struct SDK: Hashable, Sendable {
        public var name: String
        public var version: String

        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }

        /// Faultline's own: `faultline.swift` and its version.
        public static let faultline = SDK(name: "faultline.swift", version: FaultlineVersion.current)

        /// `name/version`, as `X-Sentry-Auth`'s `sentry_client` and `User-Agent` name a client.
        public var clientName: String { "\(name)/\(version)" }
    }

    public var eventID: String
    /// An RFC 3339 UTC timestamp with milliseconds.
    public var timestamp: String
    public var level: Level
    public var platform: String
    public var logger: String?
    public var release: String?
    public var dist: String?
    public var environment: String?
    /// The host the event happened on, as a server-side SDK names it (`server_name`: its hostname by default).
    public var serverName: String?
    /// What the app was doing: a screen, a route or a job, as the SDK names it (Sentry's culprit when it is set).
    public var transaction: String?
    public var message: String?
    public var exception: Values<Exception>?
    public var threads: Values<Thread>?
    public var request: Request?
    public var user: UserContext?
    public var tags: [String: String]
    public var contexts: [String: JSONValue]
    public var breadcrumbs: Values<Breadcrumb>?
    public var fingerprint: [String]?
    public var extra: [String: JSONValue]?
    public var sdk: SDK

    /// Creates an event with a new identifier, stamped with `date`.
    public init(level: Level = .error, date: Date = Date()) {
        self.init(eventID: RandomID.make(), level: level, date: date)
    }

    /// Creates an event with the identifier `eventID` (32 lowercase hex digits), stamped with `date`.
    public init(eventID: String, level: Level = .error, date: Date = Date()) {
        self.eventID = eventID
        self.timestamp = RFC3339.string(from: date)
        self.level = level
        self.platform = "other"
        self.logger = "faultline"
        self.tags = [:]
        self.contexts = [:]
        self.sdk = .faultline
    }
}
