import Faultline
import Foundation

/// Starts spans without waiting for the reporter: draws their ids and decides each new trace's sampling, on the path
/// of every request, under a lock held for a few nanoseconds.
final class Tracer: @unchecked Sendable {
    private let sampleRate: Double?
    private let sampler: (@Sendable (SamplingContext) -> Double?)?
    /// What the dynamic sampling context of a trace this process starts says of it.
    private let publicKey: String?
    private let release: String?
    private let environment: String
    // Safe to share: `identifiers` is the only mutable state, and every access to it holds `lock`.
    private let lock = NSLock()
    private var identifiers = IdentifierGenerator()
    /// The trace of events captured outside any span, as Sentry's propagation context: one for the reporter's life.
    let propagationContext: SpanContext

    init(options: Reporter.Options) {
        sampleRate = options.tracesSampleRate
        sampler = options.tracesSampler
        publicKey = options.dsn?.publicKey
        release = options.release
        environment = options.environment
        var identifiers = IdentifierGenerator()
        let traceID = RandomID.make(using: &identifiers)
        propagationContext = SpanContext(
            traceID: traceID, spanID: Self.spanID(using: &identifiers), parentSpanID: nil, isSampled: nil,
            transactionSpanID: nil, samplingContext: DynamicSamplingContext(traceID: traceID))
        self.identifiers = identifiers
    }

    /// Whether traces are recorded at all: a sample rate or a sampler is set.
    var isRecording: Bool { sampleRate != nil || sampler != nil }

    /// A new span named `name`, a child of `parent` when there is one, else the first of a new trace. A span that
    /// starts this process's part of a trace (no parent, or another service's) decides its sampling, unless the
    /// parent decided.
    func startSpan(_ name: String, operation: String, parent: SpanContext?) -> SpanContext {
        let (spanID, newTrace, random) = lock.withLock {
            (
                Self.spanID(using: &identifiers), RandomID.make(using: &identifiers),
                Double.random(in: 0..<1, using: &identifiers)
            )
        }
        guard let parent else {
            let samplingContext = DynamicSamplingContext(
                traceID: newTrace, publicKey: publicKey, release: release, environment: environment)
            return decided(
                SpanContext(
                    traceID: newTrace, spanID: spanID, parentSpanID: nil, isSampled: nil, transactionSpanID: spanID,
                    samplingContext: samplingContext),
                name: name, operation: operation, parentSampled: nil, random: random)
        }
        let span = SpanContext(
            traceID: parent.traceID, spanID: spanID, parentSpanID: parent.spanID, isSampled: parent.isSampled,
            transactionSpanID: parent.transactionSpanID ?? spanID, samplingContext: parent.samplingContext)
        guard parent.transactionSpanID == nil else { return span }
        return decided(
            span, name: name, operation: operation, parentSampled: parent.isSampled,
            random: parent.samplingContext.sampleRandom ?? random)
    }

    /// `span`, which starts this process's part of its trace, with its sampling decided: by the sampler, else by the
    /// parent's decision, else by the sample rate; left undecided when traces are not recorded.
    private func decided(
        _ span: SpanContext, name: String, operation: String, parentSampled: Bool?, random: Double
    ) -> SpanContext {
        let rate: Double
        if let chosen = sampler?(SamplingContext(name: name, operation: operation, parentSampled: parentSampled)) {
            rate = min(max(chosen, 0), 1)
        } else if let parentSampled {
            rate = parentSampled ? 1 : 0
        } else if let sampleRate {
            rate = sampleRate
        } else {
            return span
        }
        let sampled = random < rate
        return SpanContext(
            traceID: span.traceID, spanID: span.spanID, parentSpanID: span.parentSpanID, isSampled: sampled,
            transactionSpanID: span.transactionSpanID,
            samplingContext: span.samplingContext.deciding(
                sampled: sampled, rate: rate, random: random, transaction: name))
    }

    private static let digits = Array("0123456789abcdef".utf8)

    /// 16 lowercase hex digits, never all zero.
    private static func spanID(using generator: inout IdentifierGenerator) -> String {
        let value = generator.next() | 1
        return String(unsafeUninitializedCapacity: 16) { buffer in
            for index in 0..<16 { buffer[index] = digits[Int(value >> UInt64(60 - 4 * index) & 0xF)] }
            return 16
        }
    }
}
