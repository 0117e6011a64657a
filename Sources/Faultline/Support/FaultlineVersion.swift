/// The version of this Faultline release.
///
/// One number for everything that names the release: `faultline --version`, `faultline serve`'s `GET /version`,
/// and the `sdk.version` of every event the reporting pipeline builds.
public enum FaultlineVersion {
    /// This release's version, in the form of the repository's release tags (`MAJOR.MINOR.PATCH`).
    public static let current = "0.1.0"
}
