import FaultlineRecords
import Foundation

/// Encodes a transaction as Sentry's transaction event: one compact line of JSON, keys sorted, as ``EventEncoder``
/// encodes events, which is both its line in the transactions' log and its envelope payload.
package enum TransactionEncoder {
    /// The JSON of `transaction`, with its tags, the scope's contexts and `user`, and the reporter's release,
    /// distribution, environment and server name; every text scrubbed by `builder`'s scrubber.
    static func encode(
        _ transaction: TransactionEvent, eventID: String, scope: Scope, user: UserContext?,
        builder: FailureEventBuilder
    ) -> Data {
        let root = transaction.root
        var contexts = scope.contexts
        contexts["trace"] = traceContext(of: root)
        let scrubber = builder.scrubber
        var writer = JSONWriter(capacity: 1024 + transaction.spans.count * 384)
        writer.object { writer in
            writer.member("contexts", scrubber.scrubbed(contexts) ?? contexts)
            writer.member("dist", builder.dist)
            writer.member("environment", builder.environment)
            writer.member("event_id", eventID)
            writer.member("platform", "other")
            writer.member("release", builder.release)
            writer.key("sdk")
            writer.object {
                $0.member("name", SentryEvent.SDK.faultline.name)
                $0.member("version", SentryEvent.SDK.faultline.version)
            }
            writer.member("server_name", builder.serverName)
            writer.key("spans")
            writer.array(transaction.spans) { $0.value(scrubber.scrubbed($1.finished.json) ?? $1.finished.json) }
            writer.key("start_timestamp")
            writer.value(.double(FinishedSpan.seconds(root.start)))
            writer.member("tags", transaction.tags.isEmpty ? nil : transaction.tags)
            writer.key("timestamp")
            writer.value(.double(FinishedSpan.seconds(root.end)))
            writer.member("transaction", scrubber.scrubbed(root.description) ?? root.description)
            writer.key("transaction_info")
            writer.object { $0.member("source", root.origin == FinishedSpan.manualOrigin ? "custom" : "route") }
            writer.member("type", "transaction")
            if let user {
                writer.key("user")
                writer.write(user)
            }
        }
        return Data(writer.bytes)
    }

    /// The transaction's `trace` context: its root span's, with the trace's sample rate as `sentry.sample_rate` in its
    /// data (what each transaction stands for, read back by `faultline routes` to weigh its spans).
    private static func traceContext(of root: FinishedSpan) -> JSONValue {
        guard case .object(var context) = root.traceContext,
            let rate = root.context.samplingContext.sampleRate.flatMap(Double.init), rate > 0, rate <= 1
        else { return root.traceContext }
        var data = context["data"]?.objectValue ?? [:]
        data[TransactionRecord.sampleRateKey] = .double(rate)
        context["data"] = .object(data)
        return .object(context)
    }
}
