import Foundation

/// What an app's bundle says about it, read from its `Info.plist`: identifier, name, version and build. An iOS or
/// macOS app's main bundle has them; a server-side executable usually has none, and sets the release itself.
struct AppIdentity: Hashable, Sendable {
    /// `CFBundleIdentifier`, such as `com.example.shop`.
    let identifier: String?
    /// `CFBundleDisplayName`, else `CFBundleName`.
    let name: String?
    /// `CFBundleShortVersionString`, such as `3.2.0`.
    let version: String?
    /// `CFBundleVersion`, such as `310`.
    let build: String?

    /// The identity `bundle`'s `Info.plist` gives.
    init(bundle: Bundle) {
        let info = bundle.infoDictionary ?? [:]
        let text = { (key: String) in (info[key] as? String).flatMap { $0.isEmpty ? nil : $0 } }
        identifier = text("CFBundleIdentifier")
        name = text("CFBundleDisplayName") ?? text("CFBundleName")
        version = text("CFBundleShortVersionString")
        build = text("CFBundleVersion")
    }

    /// The release as sentry-cocoa names it, `com.example.shop@3.2.0+310`; `nil` without an identifier and a version.
    var release: String? {
        guard let identifier, let version else { return nil }
        return build.map { "\(identifier)@\(version)+\($0)" } ?? "\(identifier)@\(version)"
    }

    /// The members of Sentry's `app` context it fills: `app_identifier`, `app_name`, `app_version`, `app_build`.
    var context: [String: JSONValue] {
        let members = [
            ("app_identifier", identifier), ("app_name", name), ("app_version", version), ("app_build", build),
        ]
        return Dictionary(uniqueKeysWithValues: members.compactMap { key, value in value.map { (key, .string($0)) } })
    }
}
