import Foundation

/// What the service at the head of a trace decided about it and knew of itself, which every service of the trace
/// passes on (Sentry's dynamic sampling context): in the `sentry-` members of the `baggage` header of each request,
/// and in the `trace` header of each envelope of the trace, where Sentry's server-side sampling reads it.
///
/// Its members are Sentry's names without the `sentry-` prefix; each value is a string, as baggage carries it.
struct DynamicSamplingContext: Hashable, Sendable {
    /// The members in the order they are written.
    static let names = [
        "trace_id", "public_key", "release", "environment", "transaction", "sample_rate", "sample_rand", "sampled",
    ]
    /// The members, by name.
    private(set) var members: [String: String] = [:]

    init() {}

    /// The context of a trace this process starts.
    init(
        traceID: String, publicKey: String? = nil, release: String? = nil, environment: String? = nil,
        transaction: String? = nil, sampleRate: Double? = nil, sampleRand: Double? = nil, sampled: Bool? = nil
    ) {
        members["trace_id"] = traceID
        members["public_key"] = publicKey
        members["release"] = release
        members["environment"] = environment
        members["transaction"] = transaction
        members["sample_rate"] = sampleRate.map { String(format: "%.6g", $0) }
        members["sample_rand"] = sampleRand.map { String(format: "%.6f", $0) }
        members["sampled"] = sampled.map { $0 ? "true" : "false" }
    }

    /// The `sentry-` members of a `baggage` header; the others, another vendor's, are not Sentry's to read.
    init(baggage: String) {
        for member in baggage.split(separator: ",") {
            let pair = member.split(separator: ";", maxSplits: 1)[0]
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let key = pair[..<equals].trimmingCharacters(in: .whitespaces)
            guard key.hasPrefix("sentry-") else { continue }
            let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            members[String(key.dropFirst("sentry-".count))] = value.removingPercentEncoding ?? value
        }
    }

    /// The trace it belongs to.
    var traceID: String? { members["trace_id"] }
    /// The random number in [0, 1) the trace was sampled by: a span is sampled when it is below the sample rate, so
    /// every service of the trace that samples at a rate at least as high keeps it.
    var sampleRand: Double? { members["sample_rand"].flatMap(Double.init) }

    /// The context with the trace's sampling decision, unless one is already in it: the head's decision is frozen
    /// once it is passed on.
    func deciding(sampled: Bool, rate: Double, random: Double, transaction: String?) -> DynamicSamplingContext {
        guard members["sampled"] == nil else { return self }
        var decided = self
        decided.members["sampled"] = sampled ? "true" : "false"
        decided.members["sample_rate"] = String(format: "%.6g", rate)
        decided.members["sample_rand"] = decided.members["sample_rand"] ?? String(format: "%.6f", random)
        if let transaction { decided.members["transaction"] = decided.members["transaction"] ?? transaction }
        return decided
    }

    /// Its members as `baggage` carries them: `sentry-trace_id=…,sentry-sampled=true`, values percent-encoded.
    var baggage: String {
        Self.names.compactMap { name in
            members[name].map { "sentry-\(name)=\(Self.percentEncoded($0))" }
        }.joined(separator: ",")
    }

    /// Its members as the `trace` header of an envelope carries them.
    var json: JSONValue {
        .object(members.mapValues(JSONValue.string))
    }

    /// `baggage` added to a request's own `baggage` header: its members of other vendors kept, its `sentry-` members
    /// replaced by this trace's.
    func merged(intoBaggage existing: String?) -> String {
        let others = (existing ?? "").split(separator: ",").filter {
            !$0.trimmingCharacters(in: .whitespaces).hasPrefix("sentry-")
        }
        return (others.map(String.init) + [baggage]).joined(separator: ",")
    }

    /// `value` with what baggage values may not hold (spaces, commas, semicolons, `=`, `%`, non-ASCII) encoded.
    private static func percentEncoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: valueCharacters) ?? value
    }

    private static let valueCharacters: CharacterSet = {
        var allowed = CharacterSet(charactersIn: UnicodeScalar(0x21)...UnicodeScalar(0x7E))
        allowed.remove(charactersIn: "\",;\\%=")
        return allowed
    }()
}
