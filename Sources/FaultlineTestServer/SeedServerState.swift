/// Everything one server instance remembers: each tenant's tokens, refresh delay and refresh calls, and request
/// counters. Tests drive and inspect it while the server runs; nothing is shared between instances.
package actor SeedServerState {
    private var authorities: [Tenant: TokenAuthority] = [:]
    private var refreshDelays: [Tenant: Duration] = [:]
    private var refreshCounts: [Tenant: Int] = [:]
    private var requestCountsByAccessToken: [String: Int] = [:]
    private var requestCountsByFlakyKey: [String: Int] = [:]
    private var expiredTokenRequests: [Tenant: Int] = [:]
    private var userDelay: (delay: Duration, every: Int)?
    private var traces: [ReceivedTrace] = []

    init() {}

    /// "Logs in": issues a valid access token and refresh token for `tenant`.
    package func issueTokens(for tenant: Tenant) -> TokenPair {
        authorities[tenant, default: TokenAuthority(tenant: tenant)].issue()
    }

    /// Expires every access token `tenant` has issued so far; tokens issued later are valid.
    package func expireAccessTokens(of tenant: Tenant) {
        authorities[tenant, default: TokenAuthority(tenant: tenant)].expireAccessTokens()
    }

    /// Makes the access tokens `tenant` issues from now on expire `lifetime` after they are issued (an hour by
    /// default), and its token endpoint say so in `expires_in`.
    package func setAccessTokenLifetime(_ lifetime: Duration, for tenant: Tenant) {
        authorities[tenant, default: TokenAuthority(tenant: tenant)].accessTokenLifetime = lifetime
    }

    /// The number of requests to `tenant`'s authenticated routes refused for an expired access token.
    package func expiredTokenRequestCount(of tenant: Tenant) -> Int {
        expiredTokenRequests[tenant, default: 0]
    }

    /// Expires every refresh token `tenant` has issued so far; tokens issued later are valid.
    package func expireRefreshTokens(of tenant: Tenant) {
        authorities[tenant, default: TokenAuthority(tenant: tenant)].expireRefreshTokens()
    }

    /// The number of calls `tenant`'s refresh endpoint has received, successful or not.
    package func refreshCount(of tenant: Tenant) -> Int {
        refreshCounts[tenant, default: 0]
    }

    /// Makes `tenant`'s refresh endpoint wait `delay` before answering (zero by default).
    package func setRefreshDelay(_ delay: Duration, for tenant: Tenant) {
        refreshDelays[tenant] = delay
    }

    /// Makes `GET /boleto/users/{id}` wait `delay` before answering for every id that is a multiple of `every`: latency
    /// planted for tests of durations and percentiles.
    package func setUserDelay(_ delay: Duration, forEvery every: Int) {
        userDelay = (delay, max(1, every))
    }

    /// How long `GET /boleto/users/{id}` waits for `id`; `nil` when it answers at once.
    func userDelay(for id: Int) -> Duration? {
        guard let userDelay, id.isMultiple(of: userDelay.every) else { return nil }
        return userDelay.delay
    }

    /// The trace headers of the requests received so far that carried `sentry-trace`, in the order they arrived.
    package var receivedTraces: [ReceivedTrace] { traces }

    /// Records the trace headers of a request.
    func record(_ trace: ReceivedTrace) {
        traces.append(trace)
    }

    /// The number of requests to authenticated routes, of any tenant and with any outcome, that carried `token`.
    package func requestCount(withAccessToken token: String) -> Int {
        requestCountsByAccessToken[token, default: 0]
    }

    /// The number of requests `/flaky/{key}` has received for `flakyKey`.
    package func requestCount(flakyKey: String) -> Int {
        requestCountsByFlakyKey[flakyKey, default: 0]
    }

    /// Counts a request to one of `tenant`'s authenticated routes and judges the token it presented (`nil` when it
    /// had no `Authorization` header). Returns `nil` when the token is valid.
    func admit(accessToken: String?, to tenant: Tenant) -> AccessTokenRejection? {
        guard let accessToken else { return .missing }
        requestCountsByAccessToken[accessToken, default: 0] += 1
        let rejection = authorities[tenant, default: TokenAuthority(tenant: tenant)].rejection(of: accessToken)
        if rejection == .expired { expiredTokenRequests[tenant, default: 0] += 1 }
        return rejection
    }

    /// Serves one call to `tenant`'s refresh endpoint: counts it, waits the tenant's refresh delay, then redeems
    /// `refreshToken` (`nil` when the body had none). Concurrent calls with one token get one new pair between them.
    func refresh(presenting refreshToken: String?, to tenant: Tenant) async throws -> TokenPair? {
        refreshCounts[tenant, default: 0] += 1
        try await Task.sleep(for: refreshDelays[tenant, default: .zero])
        guard let refreshToken else { return nil }
        return authorities[tenant, default: TokenAuthority(tenant: tenant)].redeem(refreshToken)
    }

    /// Counts a request to `/flaky/{key}` and returns how many that key has received, this one included.
    func recordFlakyRequest(key: String) -> Int {
        requestCountsByFlakyKey[key, default: 0] += 1
        return requestCountsByFlakyKey[key, default: 0]
    }
}
