import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Waiting for a server started in another process to answer HTTP.
package enum HTTPReadiness {
    /// Polls `url` every 100 ms until the server answers anything (a redirect loop, such as Bugsink's `/` sending to
    /// its login page and back, is an answer too); `false` when `timeout` passes first.
    package static func wait(for url: URL, timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            do {
                _ = try await URLSession.shared.data(from: url)
                return true
            } catch let error as URLError where error.code == .httpTooManyRedirects {
                return true
            } catch {
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        return false
    }
}
