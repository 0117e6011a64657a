// Without the package trait `AsyncHTTPClient`, async-http-client is not resolved and this module has only this
// declaration: an app that uses the adapter without enabling its trait is told which trait to enable, at the line that
// uses it, and `swift build` in the repository builds without `--enable-all-traits`.
#if !AsyncHTTPClient
    /// The uploader's transport over AsyncHTTPClient: needs the package trait `AsyncHTTPClient`.
    @available(
        *, unavailable,
        message:
            "FaultlineAsyncHTTPClient needs the package trait AsyncHTTPClient: add traits: [\"AsyncHTTPClient\"] to the faultline package dependency"
    )
    public final class AsyncHTTPClientEnvelopeTransport {}
#endif
