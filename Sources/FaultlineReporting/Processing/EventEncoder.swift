import Foundation

/// Encodes events as the compact JSON that is both their local log line and their envelope payload: one line, keys
/// sorted so that the same event always has the same bytes, slashes unescaped.
public enum EventEncoder {
    /// The event's JSON bytes.
    public static func encode(_ event: SentryEvent) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(event)
    }
}
