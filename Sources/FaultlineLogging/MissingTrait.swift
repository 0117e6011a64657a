// Without the package trait `SwiftLog`, swift-log is not resolved and this module has only these declarations: an app
// that uses the adapter without enabling its trait is told which trait to enable, at the line that uses it, and
// `swift build` in the repository builds without `--enable-all-traits`.
#if !SwiftLog
    /// Records swift-log records as breadcrumbs: needs the package trait `SwiftLog`.
    @available(
        *, unavailable,
        message:
            "FaultlineLogging needs the package trait SwiftLog: add traits: [\"SwiftLog\"] to the faultline package dependency"
    )
    public final class LogRecorder {}

    /// A swift-log handler that records breadcrumbs: needs the package trait `SwiftLog`.
    @available(
        *, unavailable,
        message:
            "FaultlineLogging needs the package trait SwiftLog: add traits: [\"SwiftLog\"] to the faultline package dependency"
    )
    public struct BreadcrumbLogHandler {}
#endif
