/// Which frames are the app's own (`in_app`), by the prefixes of their module: Sentry's `inAppInclude` and
/// `inAppExclude`. Sentry and `faultline show` fold the frames that are not.
struct InAppRules: Sendable {
    /// Prefixes of the modules that are the app's; they win over ``exclude``.
    let include: [String]
    /// Prefixes of the modules that are not: a networking or wrapper module that captures for the app.
    let exclude: [String]

    /// Whether a frame of `module` is the app's: the code that captures is, unless its module is excluded and not
    /// included.
    func isInApp(module: String?) -> Bool {
        guard let module else { return true }
        if include.contains(where: { module.hasPrefix($0) }) { return true }
        return !exclude.contains { module.hasPrefix($0) }
    }
}
