/// The error a server described in its response body, read by an ``ErrorContract``.
public struct ServerError: Hashable, Sendable {
    /// The business code, finer than the HTTP status (`40013` TRAVEL_OVERLAP on a 400), when the body has one.
    public var code: ServerCode?
    /// The server's message, intact: it is often meant for the user (shown in an alert), in the user's language.
    public var message: String?

    /// Creates a server error from a code and a message.
    public init(code: ServerCode?, message: String?) {
        self.code = code
        self.message = message
    }
}
