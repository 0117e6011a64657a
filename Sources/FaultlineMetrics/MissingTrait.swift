// Without the package trait `SwiftMetrics`, swift-metrics is not resolved and this module has only these declarations:
// an app that uses the adapter without enabling its trait is told which trait to enable, at the line that uses it,
// and `swift build` in the repository builds without `--enable-all-traits`.
#if !SwiftMetrics
    /// Publishes a reporter's counts through swift-metrics: needs the package trait `SwiftMetrics`.
    @available(
        *, unavailable,
        message:
            "FaultlineMetrics needs the package trait SwiftMetrics: add traits: [\"SwiftMetrics\"] to the faultline package dependency"
    )
    public struct ReporterMetrics {}
#endif
