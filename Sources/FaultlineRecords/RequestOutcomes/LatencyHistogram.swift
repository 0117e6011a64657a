/// Durations counted in fixed log-linear buckets of microseconds: one bucket per microsecond below 32 µs, then 16
/// buckets to each power of two. A bucket is at most 1/16 as wide as its lower bound, so a percentile read at a
/// bucket's middle is within 1/32 (3.2 %) of a duration that fell in it, or 0.5 µs; and since every histogram has
/// the same buckets, those of different intervals and devices merge exactly, by adding their counts.
///
/// In the log a histogram is a list of `[lower bound in µs, count]` pairs, ascending, of its non-empty buckets.
package struct LatencyHistogram: Hashable, Sendable {
    /// A bucket's count: its index (one ``bucket(from:)`` gives) and how many durations it holds.
    package struct Entry: Hashable, Sendable {
        package var index: Int
        package var count: Int

        package init(index: Int, count: Int) {
            self.index = index
            self.count = count
        }
    }

    /// The non-empty buckets, by ascending index: a line of the log lists them in that order, so reading one appends,
    /// and two histograms merge in one pass over both.
    private var entries: [Entry] = []
    /// The durations counted.
    package private(set) var total = 0

    /// The buckets to each power of two.
    static let bucketsPerOctave = 16

    /// An empty histogram.
    package init() {}

    /// Counts `duration` `count` times (a sampled span stands for as many requests as its sample rate says):
    /// negative durations count as zero, and those past 2^62 µs in the last bucket.
    package mutating func record(_ duration: Duration, count: Int = 1) {
        add(count: count, toBucket: Self.bucket(ofMicroseconds: Self.microseconds(duration)))
    }

    /// Adds the counts of `other`: bucket by bucket when it has few (a line's, merged into a running total that has
    /// most of them already), else in one pass over both.
    package mutating func merge(_ other: LatencyHistogram) {
        guard !entries.isEmpty else {
            self = other
            return
        }
        if other.entries.count * 8 <= entries.count {
            add(other.entries[...])
            return
        }
        var merged: [Entry] = []
        merged.reserveCapacity(entries.count + other.entries.count)
        var mine = 0
        var theirs = 0
        while mine < entries.count || theirs < other.entries.count {
            if theirs == other.entries.count
                || (mine < entries.count && entries[mine].index < other.entries[theirs].index)
            {
                merged.append(entries[mine])
                mine += 1
            } else if mine == entries.count || other.entries[theirs].index < entries[mine].index {
                merged.append(other.entries[theirs])
                theirs += 1
            } else {
                merged.append(
                    Entry(index: entries[mine].index, count: entries[mine].count + other.entries[theirs].count))
                mine += 1
                theirs += 1
            }
        }
        entries = merged
        total += other.total
    }

    /// Adds `count` durations to the bucket whose lower bound is `lowerBound` µs, as a line of the log names it.
    /// Returns `false`, adding nothing, when no bucket starts there or `count` is not positive.
    @discardableResult
    package mutating func add(count: Int, inBucketFrom lowerBound: UInt64) -> Bool {
        guard count > 0, let bucket = Self.bucket(from: lowerBound) else { return false }
        add(count: count, toBucket: bucket)
        return true
    }

    /// Adds the counts of `buckets`, in one walk over the histogram when they come in ascending order, as a line lists
    /// them: a running total that has most of them already costs no search. Buckets out of order, or named twice, are
    /// added too.
    package mutating func add(_ buckets: ArraySlice<Entry>) {
        var position = 0
        for bucket in buckets {
            let (index, count) = (bucket.index, bucket.count)
            if position > 0, entries[position - 1].index >= index { position = 0 }  // out of order: walk again
            while position < entries.count, entries[position].index < index { position += 1 }
            if position < entries.count, entries[position].index == index {
                entries[position].count += count
            } else {
                entries.insert(Entry(index: index, count: count), at: position)
            }
            position += 1
            total += count
        }
    }

    /// The index of the bucket whose lower bound is `lowerBound` µs, as a line of the log names it; `nil` when no
    /// bucket starts there.
    package static func bucket(from lowerBound: UInt64) -> Int? {
        let bucket = bucket(ofMicroseconds: lowerBound)
        return Self.lowerBound(of: bucket) == lowerBound ? bucket : nil
    }

    /// The duration below which a `fraction` (0 to 1) of the counted durations fall, read at the middle of its
    /// bucket; `nil` when nothing was counted.
    package func percentile(_ fraction: Double) -> Duration? {
        guard total > 0 else { return nil }
        let rank = max(1, Int((fraction * Double(total)).rounded(.up)))
        var seen = 0
        for entry in entries {
            seen += entry.count
            if seen >= rank { return .microseconds(middle(ofBucketFrom: Self.lowerBound(of: entry.index))) }
        }
        return nil
    }

    /// The middle in µs of the bucket whose lower bound is `lowerBound` µs: where a percentile in it is read.
    package func middle(ofBucketFrom lowerBound: UInt64) -> Double {
        let bucket = Self.bucket(ofMicroseconds: lowerBound)
        return (Double(Self.lowerBound(of: bucket)) + Double(Self.upperBound(of: bucket))) / 2
    }

    /// The non-empty buckets, ascending: each one's lower bound in µs and its count.
    package var buckets: [(lowerBound: UInt64, count: Int)] {
        entries.map { (Self.lowerBound(of: $0.index), $0.count) }
    }

    /// Adds `count` to bucket `index` (one ``bucket(from:)`` gave): appended past the last bucket (as a line lists
    /// them), else found by halving.
    package mutating func add(count: Int, toBucket index: Int) {
        total += count
        guard let last = entries.last, last.index >= index else {
            entries.append(Entry(index: index, count: count))
            return
        }
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].index < index { low = middle + 1 } else { high = middle }
        }
        if entries[low].index == index {
            entries[low].count += count
        } else {
            entries.insert(Entry(index: index, count: count), at: low)
        }
    }

    private static func microseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        guard seconds < 4_000_000_000_000 else { return 1 << 62 }
        return UInt64(seconds) * 1_000_000 + UInt64(attoseconds / 1_000_000_000_000)
    }

    /// The index of the bucket of `value` µs: the value itself below 32; above, 16 per power of two.
    static func bucket(ofMicroseconds value: UInt64) -> Int {
        let value = min(value, 1 << 62)
        guard value >= 32 else { return Int(value) }
        let exponent = 63 - value.leadingZeroBitCount
        let step = exponent - 4
        return bucketsPerOctave * (exponent - 3) + Int((value >> step) & 15)
    }

    /// The smallest duration in µs of bucket `index`.
    static func lowerBound(of index: Int) -> UInt64 {
        guard index >= 32 else { return UInt64(index) }
        let step = index / bucketsPerOctave - 1
        return UInt64(bucketsPerOctave + index % bucketsPerOctave) << step
    }

    /// The smallest duration in µs past bucket `index`.
    static func upperBound(of index: Int) -> UInt64 {
        guard index >= 32 else { return UInt64(index) + 1 }
        let step = index / bucketsPerOctave - 1
        return UInt64(bucketsPerOctave + index % bucketsPerOctave + 1) << step
    }
}
