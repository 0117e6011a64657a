/// Where a line of an ``EventLog`` starts: the segment (the sequence number its file has, or will have once the active
/// file rotates) and the byte offset in that segment's uncompressed lines. Positions sort in the order lines were
/// written.
package struct LogPosition: Hashable, Comparable, Sendable, Codable {
    /// The sequence number of the line's rotation: the `000042` of `events-20261122T104134.123Z-000042.jsonl.gz`.
    package var segment: Int
    /// The offset of the line's first byte in its segment.
    package var offset: Int

    package init(segment: Int, offset: Int) {
        self.segment = segment
        self.offset = offset
    }

    package static func < (lhs: LogPosition, rhs: LogPosition) -> Bool {
        (lhs.segment, lhs.offset) < (rhs.segment, rhs.offset)
    }
}
