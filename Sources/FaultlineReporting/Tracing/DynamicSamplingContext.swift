import FaultlineRecords

/// What the service at the head of a trace decided about it and knew of itself, which every service of the trace
/// passes on (Sentry's dynamic sampling context): in the `sentry-` members of the `baggage` header of each request,
/// and in the `trace` header of each envelope of the trace, where Sentry's server-side sampling reads it.
///
/// Its members are Sentry's names without the `sentry-` prefix; each value is a string, as baggage carries it. Built
/// on every request's path, so it formats and encodes its values itself, without Foundation's formatters.
struct DynamicSamplingContext: Hashable, Sendable {
    var traceID: String?
    var publicKey: String?
    var release: String?
    var environment: String?
    /// The name of the span that started the trace, such as `GET /users/{id}`.
    var transaction: String?
    /// The rate the trace was sampled at, such as `0.25`.
    var sampleRate: String?
    /// The random number in [0, 1) the trace was sampled by, with 6 decimals: a span is sampled when it is below the
    /// sample rate, so every service of the trace that samples at a rate at least as high keeps it.
    var sampleRand: String?
    /// `true` or `false`, once the head decided.
    var sampled: String?

    init() {}

    /// The context of a trace this process starts.
    init(traceID: String, publicKey: String? = nil, release: String? = nil, environment: String? = nil) {
        self.traceID = traceID
        self.publicKey = publicKey
        self.release = release
        self.environment = environment
    }

    /// The `sentry-` members of a `baggage` header; the others, another vendor's, are not Sentry's to read.
    init(baggage: String) {
        for member in baggage.split(separator: ",") {
            let pair = member.split(separator: ";", maxSplits: 1).first ?? ""
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let key = Self.trimmed(pair[..<equals])
            guard key.hasPrefix("sentry-") else { continue }
            let value = Self.percentDecoded(Self.trimmed(pair[pair.index(after: equals)...]))
            switch key.dropFirst("sentry-".count) {
            case "trace_id": traceID = value
            case "public_key": publicKey = value
            case "release": release = value
            case "environment": environment = value
            case "transaction": transaction = value
            case "sample_rate": sampleRate = value
            case "sample_rand": sampleRand = value
            case "sampled": sampled = value
            default: continue
            }
        }
    }

    /// The context of the trace of a transaction that was recorded (so sampled), rebuilt from `transaction`, the
    /// members `contexts`, `release`, `environment` and `transaction` of its event: the trace id and sample rate of its
    /// `trace` context, its release, environment and name. What a transaction sent after a restart carries, since the
    /// context it was recorded with is kept in memory only; the random number it was sampled by is not in the event,
    /// and a trace another service started had that service's release and environment. `nil` without a trace id.
    init?(recordedTransaction transaction: [String: JSONValue], publicKey: String) {
        guard case .object(let contexts)? = transaction["contexts"], case .object(let trace)? = contexts["trace"],
            let traceID = trace["trace_id"]?.stringValue
        else { return nil }
        self.init(
            traceID: traceID, publicKey: publicKey, release: transaction["release"]?.stringValue,
            environment: transaction["environment"]?.stringValue)
        self.transaction = transaction["transaction"]?.stringValue
        switch trace["data"]?.objectValue?[TransactionRecord.sampleRateKey] {
        case .double(let rate)?: sampleRate = Self.text(ofRate: rate)
        case .int(let rate)?: sampleRate = Self.text(ofRate: Double(rate))
        default: break
        }
        sampled = "true"
    }

    /// The random number the trace was sampled by, when the head said it.
    var sampleRandom: Double? { sampleRand.flatMap(Double.init) }

    /// The context with the trace's sampling decision, unless one is already in it: the head's decision is frozen
    /// once it is passed on.
    func deciding(sampled: Bool, rate: Double, random: Double, transaction: String?) -> DynamicSamplingContext {
        guard self.sampled == nil else { return self }
        var decided = self
        decided.sampled = sampled ? "true" : "false"
        decided.sampleRate = Self.text(ofRate: rate)
        decided.sampleRand = sampleRand ?? Self.sixDecimals(random)
        decided.transaction = self.transaction ?? transaction
        return decided
    }

    /// Calls `body` with each member it has, in the order they are written.
    private func forEachMember(_ body: (_ name: StaticString, _ value: String) -> Void) {
        if let traceID { body("trace_id", traceID) }
        if let publicKey { body("public_key", publicKey) }
        if let release { body("release", release) }
        if let environment { body("environment", environment) }
        if let transaction { body("transaction", transaction) }
        if let sampleRate { body("sample_rate", sampleRate) }
        if let sampleRand { body("sample_rand", sampleRand) }
        if let sampled { body("sampled", sampled) }
    }

    private static let memberPrefix: StaticString = "sentry-"

    /// Its members as `baggage` carries them: `sentry-trace_id=…,sentry-sampled=true`, values percent-encoded.
    /// Written into a string of the exact length, since it is built on every request's path: appending to a growing
    /// string cost several µs.
    var baggage: String {
        var count = 0
        forEachMember { name, value in
            if count > 0 { count += 1 }
            count += Self.memberPrefix.utf8CodeUnitCount + name.utf8CodeUnitCount + 1
            count += value.utf8.reduce(0) { $0 + (Self.isPlain($1) ? 1 : 3) }
        }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var index = 0
            func write(_ byte: UInt8) {
                buffer[index] = byte
                index += 1
            }
            func write(_ text: StaticString) {
                text.withUTF8Buffer { for byte in $0 { write(byte) } }
            }
            forEachMember { name, value in
                if index > 0 { write(UInt8(ascii: ",")) }
                write(Self.memberPrefix)
                write(name)
                write(UInt8(ascii: "="))
                for byte in value.utf8 {
                    if Self.isPlain(byte) {
                        write(byte)
                    } else {
                        write(UInt8(ascii: "%"))
                        write(Self.hexDigits[Int(byte >> 4)])
                        write(Self.hexDigits[Int(byte & 0xF)])
                    }
                }
            }
            return index
        }
    }

    /// Its members as the `trace` header of an envelope carries them.
    var json: JSONValue {
        var object: [String: JSONValue] = [:]
        forEachMember { name, value in object[name.description] = .string(value) }
        return .object(object)
    }

    /// `baggage` added to a request's own `baggage` header: its members of other vendors kept, its `sentry-` members
    /// replaced by this trace's.
    func merged(intoBaggage existing: String?) -> String {
        guard let existing, !existing.isEmpty else { return baggage }
        let others = existing.split(separator: ",").filter { !Self.trimmed($0).hasPrefix("sentry-") }
        return (others.map(String.init) + [baggage]).joined(separator: ",")
    }

    /// A sample rate as baggage carries it: `1`, `0.25`.
    private static func text(ofRate rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(rate)
    }

    /// `random`, in [0, 1), with 6 decimals: `0.012345`.
    private static func sixDecimals(_ random: Double) -> String {
        let millionths = String(min(999_999, max(0, Int(random * 1_000_000))))
        return "0." + String(repeating: "0", count: 6 - millionths.count) + millionths
    }

    /// Whether a baggage value may hold `byte` as it is: printable ASCII but for `"`, `,`, `;`, `\`, `%` and `=`.
    private static func isPlain(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\\"), UInt8(ascii: "%"),
            UInt8(ascii: "="):
            false
        default: byte >= 0x21 && byte <= 0x7E
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `value` with its `%XX` escapes decoded; as it is when one is not an escape or the bytes are not UTF-8.
    private static func percentDecoded(_ value: Substring) -> String {
        guard value.utf8.contains(UInt8(ascii: "%")) else { return String(value) }
        var bytes: [UInt8] = []
        var iterator = value.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return String(value)
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self) ?? String(value)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `text` without the spaces and tabs around it.
    private static func trimmed(_ text: Substring) -> Substring {
        let isBlank = { (character: Character) in character == " " || character == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return text[first...last]
    }
}
