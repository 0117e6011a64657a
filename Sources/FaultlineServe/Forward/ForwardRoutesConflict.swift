/// Why forwarding routes cannot be served together: two routes name one project and key, or one upstream queue with
/// two different DSNs (keys). A mistake in the configuration, which `faultline serve` answers with exit status 64.
public struct ForwardRoutesConflict: Error, CustomStringConvertible {
    public let description: String
}
