import Testing

/// The adapters' tests are compiled only with the package traits that bring their dependencies, as the adapters are: a
/// run without them says so, once, rather than passing without them.
@Suite struct AdapterTraitsTests {
    @Test func everyAdapterIsTestedWithItsTrait() {
        var missing: [String] = []
        #if !SwiftLog
            missing.append("SwiftLog")
        #endif
        #if !SwiftMetrics
            missing.append("SwiftMetrics")
        #endif
        #if !OpenAPIRuntime
            missing.append("OpenAPIRuntime")
        #endif
        #if !AsyncHTTPClient
            missing.append("AsyncHTTPClient")
        #endif
        #expect(
            missing.isEmpty,
            "built without the package traits \(missing.joined(separator: ", ")), so their adapters' tests did not run: use swift test --enable-all-traits, as scripts/test does"
        )
    }
}
