/// Who was affected: Sentry's `user` interface. Set it on the scope, or per request.
///
/// `Encodable` for the reports that show it (`faultline show --json`), as ``SentryEvent/Stacktrace/Frame`` is.
public struct UserContext: Hashable, Sendable, Encodable {
    /// A stable identifier for the user, such as `"\(userType)_\(name)"`.
    public var id: String?
    /// The user's name in the app.
    public var username: String?
    /// The user's e-mail address.
    public var email: String?
    /// A group the user belongs to, such as a plan or a sign-in provider.
    public var segment: String?
    /// The user's IP address; `{{auto}}` asks the server to fill it from the request.
    public var ipAddress: String?
    /// Anything else worth knowing about the user.
    public var data: [String: JSONValue]?

    /// Creates a user context.
    public init(
        id: String? = nil, username: String? = nil, email: String? = nil, segment: String? = nil,
        ipAddress: String? = nil, data: [String: JSONValue]? = nil
    ) {
        self.id = id
        self.username = username
        self.email = email
        self.segment = segment
        self.ipAddress = ipAddress
        self.data = data
    }

    enum CodingKeys: String, CodingKey {
        case id, username, email, segment, data
        case ipAddress = "ip_address"
    }
}
