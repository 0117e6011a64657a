/// Holds the current credential and refreshes it, one refresh at a time, for any number of requests.
///
/// - Every request rejected while a refresh is in flight waits for that refresh, and resumes with the new credential
///   or fails with the same ``SessionExpiry``.
/// - A credential the ``Authenticator`` says needs refreshing (``Authenticator/requiresRefresh(_:)``: it expires
///   soon) is refreshed before it signs a request, by the same single refresh; its failure is the same expiry. A
///   credential that a refresh has just returned is used even if it says so (a server that issues tokens shorter
///   than the app's margin would otherwise be asked again for every request): the server's rejection is then what
///   refreshes it.
/// - Each credential has a version. A rejection of a request signed with an older version (a late `401`) is answered
///   with the current credential, without a new refresh.
/// - A failed refresh is remembered: later requests fail at once with the same expiry, without calling the server,
///   until ``setCredential(_:)`` stores a new credential (the user signed in again).
/// - At most ``RefreshWindow/maximumRefreshes`` refreshes run within ``RefreshWindow/interval``; past that the session
///   expires.
public actor TokenRefresher<A: Authenticator> {
    /// The rules of the server this refresher signs for.
    public nonisolated let authenticator: A
    /// The refresh limit.
    public nonisolated let refreshWindow: RefreshWindow

    private var credential: A.Credential?
    private var version = 0
    private var refreshInFlight: Task<Void, Never>?
    /// The version of the credential the last refresh returned: not refreshed again before it is used.
    private var refreshedVersion: Int?
    private var expiry: SessionExpiry?
    private var refreshTimes: [ContinuousClock.Instant] = []
    private var events = Broadcast<SessionEvent>()

    /// Creates a refresher.
    ///
    /// - Parameters:
    ///   - authenticator: The server's rules.
    ///   - credential: The current credential, `nil` when nobody is signed in.
    ///   - refreshWindow: The refresh limit; 5 refreshes in 30 seconds by default.
    public init(authenticator: A, credential: A.Credential?, refreshWindow: RefreshWindow = RefreshWindow()) {
        self.authenticator = authenticator
        self.credential = credential
        self.refreshWindow = refreshWindow
    }

    /// The current credential, for example to save it after a refresh.
    public var currentCredential: A.Credential? { credential }

    /// Replaces the credential (sign-in or sign-out) and forgets a past expiry.
    public func setCredential(_ credential: A.Credential?) {
        self.credential = credential
        version += 1
        expiry = nil
    }

    /// A stream of session events: ``SessionEvent/refreshed(version:trigger:)`` after each successful refresh, and one
    /// ``SessionEvent/expired(_:trigger:)`` per expiry, the signal to show the login screen.
    ///
    /// Each call returns a new stream that keeps the newest 100 events while its reader is slow.
    public func sessionEvents() -> AsyncStream<SessionEvent> {
        events.subscribe()
    }

    /// The credential to sign `request` with, and its version; waits for a refresh in flight, and refreshes first
    /// when the authenticator says the credential needs it.
    ///
    /// ``AuthenticationMiddleware`` calls it for every request. Another HTTP stack (an Alamofire
    /// `RequestInterceptor`, say) calls it to sign, keeps the version with the request, and passes it to
    /// ``credential(replacing:trigger:)`` when the server rejects the request.
    ///
    /// - Parameter request: The request to sign, named by the ``SessionEvent``s of a refresh it starts.
    /// - Throws: ``SessionExpiry`` when the session has expired or there is no credential.
    public func credentialForRequest(
        _ request: RequestContext
    ) async throws(SessionExpiry) -> (credential: A.Credential, version: Int) {
        if let refreshInFlight { await refreshInFlight.value }
        if refreshInFlight == nil, expiry == nil, refreshedVersion != version, let credential,
            authenticator.requiresRefresh(credential)
        {
            try startRefresh(trigger: request)
        }
        if let refreshInFlight { await refreshInFlight.value }
        return try current()
    }

    /// A credential to replace the one of `rejectedVersion`, which the server rejected: the current one if it is
    /// newer, else the outcome of a refresh (started here, or already in flight). However many requests were
    /// rejected with the same version, one refresh runs.
    ///
    /// - Parameters:
    ///   - rejectedVersion: The version ``credentialForRequest(_:)`` gave the rejected request.
    ///   - trigger: The rejected request, for the ``SessionEvent``s.
    /// - Throws: ``SessionExpiry`` when the refresh failed, the refresh limit was reached, or the session had expired.
    public func credential(
        replacing rejectedVersion: Int, trigger: RequestContext
    ) async throws(SessionExpiry) -> (credential: A.Credential, version: Int) {
        if rejectedVersion == version, expiry == nil, refreshInFlight == nil {
            try startRefresh(trigger: trigger)
        }
        if let refreshInFlight { await refreshInFlight.value }
        return try current()
    }

    private func current() throws(SessionExpiry) -> (credential: A.Credential, version: Int) {
        if let expiry { throw expiry }
        guard let credential else { throw SessionExpiry(cause: .missingCredential) }
        return (credential, version)
    }

    private func startRefresh(trigger: RequestContext) throws(SessionExpiry) {
        guard let expiring = credential else { throw SessionExpiry(cause: .missingCredential) }
        let now = ContinuousClock.now
        refreshTimes.removeAll { now - $0 >= refreshWindow.interval }
        guard refreshTimes.count < refreshWindow.maximumRefreshes else {
            let expiry = SessionExpiry(cause: .refreshLimitExceeded(refreshWindow))
            expire(expiry, trigger: trigger)
            throw expiry
        }
        refreshTimes.append(now)
        let expiringVersion = version
        refreshInFlight = Task {
            defer { refreshInFlight = nil }
            do {
                let refreshed = try await authenticator.refresh(expiring)
                // A sign-in or sign-out during the refresh wins over its outcome.
                guard version == expiringVersion else { return }
                credential = refreshed
                version += 1
                refreshedVersion = version
                events.yield(.refreshed(version: version, trigger: trigger))
            } catch {
                guard version == expiringVersion else { return }
                expire(SessionExpiry(cause: .refreshFailed(error)), trigger: trigger)
            }
        }
    }

    private func expire(_ expiry: SessionExpiry, trigger: RequestContext) {
        self.expiry = expiry
        events.yield(.expired(expiry, trigger: trigger))
    }
}
