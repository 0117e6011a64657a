/// Where a value is in an event that arrives as JSON, as far as scrubbing it goes: what the names above it say of it
/// (a secret's, a sensitive one's), and what kind of text it is (a header, a cookie, a message, a stack frame's
/// path). ``Scrubber/scrubbedTexts(inJSON:)`` reads an event with these places (a ``JSONRewrite``).
package struct ScrubPlace: OptionSet, Sendable {
    package let rawValue: UInt32

    package init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The event itself: its members are the protocol's.
    static let event = ScrubPlace(rawValue: 1 << 0)
    /// The event's `request`.
    static let request = ScrubPlace(rawValue: 1 << 1)
    /// A `headers` object, or list of `[name, value]` pairs: its names are header names.
    static let headers = ScrubPlace(rawValue: 1 << 2)
    /// The request's `cookies`, an object, a list of pairs or a `Cookie` header's text: its names are cookie names.
    static let cookies = ScrubPlace(rawValue: 1 << 3)
    /// A `frames` list: its elements are stack frames.
    static let frames = ScrubPlace(rawValue: 1 << 4)
    /// A stack frame.
    static let frame = ScrubPlace(rawValue: 1 << 5)
    /// A frame's `filename` or `abs_path`, which grouping and source maps read: no user's name is taken out of it.
    static let framePath = ScrubPlace(rawValue: 1 << 6)
    /// Within `debug_meta`, the images symbolication reads: no name is looked at.
    static let debugMeta = ScrubPlace(rawValue: 1 << 7)
    /// Within a member that holds no user data (`sdk`, `modules`, `fingerprint`, ids, times): no name is looked at
    /// and no value scanned, as Relay's schema (`pii = false`) keeps its rules off them. An address in `sdk.client_ip`
    /// is still removed with ``ScrubRules/scrubIpAddresses``.
    static let structural = ScrubPlace(rawValue: 1 << 8)
    /// The event's `logentry` (or a `message` object).
    static let logEntry = ScrubPlace(rawValue: 1 << 9)
    /// The event's message, formatted or not, and its parameters: emails are taken out of it too, as Relay does.
    static let message = ScrubPlace(rawValue: 1 << 10)
    /// Under a sensitive name: a text or number that is not ordinary is filtered.
    static let sensitive = ScrubPlace(rawValue: 1 << 11)
    /// Named as a secret: filtered whole, whatever it is.
    static let filtered = ScrubPlace(rawValue: 1 << 12)

    /// The event's `user`.
    static let user = ScrubPlace(rawValue: 1 << 13)
    /// The event's `sdk`.
    static let sdk = ScrubPlace(rawValue: 1 << 14)
    /// The request's `env`.
    static let environment = ScrubPlace(rawValue: 1 << 15)
    /// A field that holds an IP address (`user.ip_address`, `sdk.client_ip`, `request.env.REMOTE_ADDR`): removed
    /// with ``ScrubRules/scrubIpAddresses``.
    static let ipAddress = ScrubPlace(rawValue: 1 << 16)
    /// Named in ``ScrubRules/excludeFields``: not scrubbed.
    static let excluded = ScrubPlace(rawValue: 1 << 17)

    /// What a value's members and elements keep of its place.
    static let inherited: ScrubPlace = [.sensitive, .debugMeta, .structural]

    /// The members of an event that hold no user data.
    static let structuralMembers: Set<String> = [
        "event_id", "timestamp", "start_timestamp", "received", "level", "platform", "release", "dist",
        "environment", "type", "logger", "modules", "sdk", "fingerprint", "errors", "_meta", "measurements",
        "transaction_info", "version",
    ]

    /// The cookies Sentry's Relay filters whatever their value (its data-scrubbing defaults): session and CSRF
    /// cookies of common frameworks, compared case-insensitively.
    package static let sensitiveCookies: Set<String> = [
        "sentrysid", "sudo", "su", "session", "__session", "sessionid", "user_session", "symfony", "phpsessid",
        "fasthttpsessionid", "mysession", "irissessionid", "_vercel_jwt", "csrf", "xsrf", "_xsrf", "_csrf",
        "csrf-token", "csrf_token", "xsrf-token", "xsrf_token", "fastcsrf", "_iris_csrf",
    ]
}
