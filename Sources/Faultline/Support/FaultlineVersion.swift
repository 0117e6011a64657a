/// The version of this Faultline release.
///
/// One number for everything that names the release: `faultline --version`, `faultline serve`'s `GET /version`,
/// the `sdk.version` of every event the reporting pipeline builds, and the `User-Agent` of ``APIClient``'s requests.
public enum FaultlineVersion {
    /// This release's version, in the form of the repository's release tags (`MAJOR.MINOR.PATCH`).
    public static let current = "0.1.0"
}
