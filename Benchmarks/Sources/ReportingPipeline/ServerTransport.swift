import FaultlineReporting

#if AsyncHTTPClient
    import FaultlineAsyncHTTPClient
#endif

/// The uploader's transport for server-side apps, which the benchmarks measure beside URLSession's: it needs the
/// package trait `AsyncHTTPClient`, which `scripts/bench` enables. Without it the package still builds (`swift build`
/// in the repository), and a benchmark side that needs it stops with that message.
enum ServerTransport {
    static func make() -> any EnvelopeTransport {
        #if AsyncHTTPClient
            AsyncHTTPClientEnvelopeTransport()
        #else
            fatalError("this side runs over AsyncHTTPClient: build with --enable-all-traits, as scripts/bench does")
        #endif
    }
}
