// Without the package trait `OpenAPIRuntime`, swift-openapi-runtime is not resolved and this module has only these
// declarations: an app that uses the adapter without enabling its trait is told which trait to enable, at the line that
// uses it, and `swift build` in the repository builds without `--enable-all-traits`.
#if !OpenAPIRuntime
    /// Captures the failures of a generated client: needs the package trait `OpenAPIRuntime`.
    @available(
        *, unavailable,
        message:
            "FaultlineOpenAPI needs the package trait OpenAPIRuntime: add traits: [\"OpenAPIRuntime\"] to the faultline package dependency"
    )
    public struct CaptureClientMiddleware {}

    /// Signs and refreshes the requests of a generated client: needs the package trait `OpenAPIRuntime`.
    @available(
        *, unavailable,
        message:
            "FaultlineOpenAPI needs the package trait OpenAPIRuntime: add traits: [\"OpenAPIRuntime\"] to the faultline package dependency"
    )
    public struct AuthenticationClientMiddleware<A> {}
#endif
