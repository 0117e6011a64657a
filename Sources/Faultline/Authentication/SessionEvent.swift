/// What happened to the session, published by ``TokenRefresher/sessionEvents()`` for the UI.
public enum SessionEvent: Sendable {
    /// The credential was refreshed and requests were replayed with it. Information, never an error.
    /// - Parameters:
    ///   - version: The new credential version.
    ///   - trigger: The request whose rejection started the refresh.
    case refreshed(version: Int, trigger: RequestContext)
    /// The session expired: show the login screen. Published once per expiry, however many requests failed with it.
    case expired(SessionExpiry, trigger: RequestContext)
}
