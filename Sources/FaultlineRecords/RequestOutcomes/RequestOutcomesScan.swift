/// A line of request outcomes read into storage that the next line reuses: every member checked as
/// ``RequestOutcomes/init(line:)`` requires, its strings unescaped into one buffer, and nothing built for the line (no
/// string, dictionary or histogram). ``RequestOutcomes/init(line:)`` builds its value from a scan; `faultline routes`
/// adds what each line's scan counts straight to its running tallies, which is what makes a log of them fast to read.
///
/// What it refuses, and why, is what ``RequestOutcomes/init(line:)`` throws.
package struct RequestOutcomesScan {
    /// A string of the line, unescaped: where its UTF-8 bytes are in the scan's storage (``withBytes(of:_:)``).
    package typealias Text = Range<Int>

    /// Counted requests, a route's or the overflow's: where their outcomes and duration buckets are in ``outcomes``
    /// and ``buckets``.
    package struct Tally {
        package var outcomes: Range<Int>
        package var buckets: Range<Int>
    }

    /// A route of the line and its requests. Its `key` holds the method and route template together, one way only (the
    /// method's length first), to find the route by.
    package struct Route {
        package var method: Text
        package var route: Text
        package var key: Text
        package var tally: Tally
    }

    /// An outcome's name and how many requests ended so.
    package struct Outcome {
        package var name: Text
        package var count: Int
    }

    package private(set) var id: Text = 0..<0
    /// When the interval started and ended, seconds since 1970.
    package private(set) var start = 0.0
    package private(set) var end = 0.0
    package private(set) var release: Text?
    package private(set) var environment: Text?
    package private(set) var routes: [Route] = []
    package private(set) var overflow: Tally?
    package private(set) var outcomes: [Outcome] = []
    package private(set) var buckets: [LatencyHistogram.Entry] = []

    /// The unescaped strings of the line, and the keys that tell a route or an outcome met twice.
    private var storage: [UInt8] = []
    private var seen = NumberedByteStrings()
    private var seenKey: [UInt8] = []
    /// The members read so far that are checked once the line is read, and the first reason found inside one.
    private var type: Text?
    private var scannedID: Text?
    private var scannedStart: Double?
    private var scannedEnd: Double?
    private var scannedRoutes = false
    private var routeLists = 0
    private var tallies = 0
    private var failure: RequestOutcomes.ParseFailure?

    package init() {}

    /// Reads `line`, forgetting the line read before; throws why it is not request outcomes (what is read is then
    /// meaningless).
    package mutating func read(_ line: UnsafeBufferPointer<UInt8>) throws(RequestOutcomes.ParseFailure) {
        reset()
        guard UTF8Validation.isValid(line) else { throw .init(reason: "it is not UTF-8") }
        var scanner = JSONScanner(line)
        let isObject = scanner.object { key, scanner in readMember(key, &scanner) }
        if let failure { throw failure }
        guard isObject, scanner.isAtEnd() else { throw .init(reason: "it is not JSON, or not one object") }
        guard let type, withBytes(of: type, { $0.elementsEqual(RequestOutcomes.type.utf8) }) else {
            throw .init(reason: "its type is not \(RequestOutcomes.type)")
        }
        guard let scannedID, withBytes(of: scannedID, Self.isID) else {
            throw .init(reason: "its id is not 32 lowercase hex digits")
        }
        guard let scannedStart, let scannedEnd, scannedStart <= scannedEnd else {
            throw .init(reason: "it has no start and timestamp (RFC 3339, or seconds since 1970), in that order")
        }
        guard scannedRoutes else { throw .init(reason: "it has no routes list") }
        id = scannedID
        start = scannedStart
        end = scannedEnd
    }

    /// Hands the UTF-8 bytes of `text` to `body`.
    package func withBytes<Result>(of text: Text, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        storage.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[text])) }
    }

    /// `text` as a `String`.
    package func string(_ text: Text) -> String {
        withBytes(of: text) { String(decoding: $0, as: UTF8.self) }
    }

    private mutating func reset() {
        storage.removeAll(keepingCapacity: storage.count <= 1 << 16)
        seen.removeAll()
        routes.removeAll(keepingCapacity: true)
        outcomes.removeAll(keepingCapacity: true)
        buckets.removeAll(keepingCapacity: true)
        (release, environment, overflow) = (nil, nil, nil)
        (type, scannedID, scannedStart, scannedEnd) = (nil, nil, nil, nil)
        (scannedRoutes, routeLists, tallies, failure) = (false, 0, 0, nil)
    }

    private static func isID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count == 32 && bytes.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Records the first reason the line is not request outcomes; `false`, to stop reading.
    private mutating func fail(_ reason: String) -> Bool {
        if failure == nil { failure = RequestOutcomes.ParseFailure(reason: reason) }
        return false
    }

    // MARK: Members

    /// Reads the member `key`; `false` when it is malformed (with ``failure`` set when it is well-formed JSON that
    /// request outcomes do not allow).
    private mutating func readMember(_ key: UnsafeBufferPointer<UInt8>, _ scanner: inout JSONScanner) -> Bool {
        if JSONScanner.isKey(key, "type") { return readText(&scanner, into: \.type, or: "its type is no text") }
        if JSONScanner.isKey(key, "id") { return readText(&scanner, into: \.scannedID, or: "its id is not a string") }
        if JSONScanner.isKey(key, "start") { return scanner.time(into: &scannedStart) }
        if JSONScanner.isKey(key, "timestamp") { return scanner.time(into: &scannedEnd) }
        if JSONScanner.isKey(key, "release") {
            return readText(&scanner, into: \.release, or: "its release is not a string")
        }
        if JSONScanner.isKey(key, "environment") {
            return readText(&scanner, into: \.environment, or: "its environment is not a string")
        }
        if JSONScanner.isKey(key, "routes") { return readRoutes(&scanner) }
        if JSONScanner.isKey(key, "overflow") {
            guard scanner.nextValueKind() == .object else { return fail("its overflow is no object") }
            var method: Text?
            var route: Text?
            guard let tally = readTally(&scanner, ofRoute: false, method: &method, route: &route) else { return false }
            overflow = tally
            return true
        }
        return scanner.skipValue()
    }

    /// Reads a string, or `null` (as `.some(nil)`), into the storage; `nil` when the value is neither.
    private mutating func readText(_ scanner: inout JSONScanner) -> Text?? {
        if scanner.nextValueKind() == .null { return scanner.skipValue() ? .some(nil) : nil }
        let start = storage.count
        guard scanner.withStringBytes({ storage.append(contentsOf: $0) }) != nil else { return nil }
        return start..<storage.count
    }

    /// Reads a string, or `null`, into the member at `member`; `false`, with `reason`, when the value is neither.
    private mutating func readText(
        _ scanner: inout JSONScanner, into member: WritableKeyPath<Self, Text?>, or reason: String
    ) -> Bool {
        guard let text = readText(&scanner) else { return fail(reason) }
        self[keyPath: member] = text
        return true
    }

    /// Reads the routes list; a later one replaces an earlier one.
    private mutating func readRoutes(_ scanner: inout JSONScanner) -> Bool {
        guard scanner.nextValueKind() == .array else { return fail("it has no routes list") }
        routes.removeAll(keepingCapacity: true)
        routeLists += 1
        scannedRoutes = true
        return scanner.array { scanner in
            guard scanner.nextValueKind() == .object else { return fail("a route has no method and route") }
            var method: Text?
            var template: Text?
            guard let tally = readTally(&scanner, ofRoute: true, method: &method, route: &template) else {
                return false
            }
            guard let method, let template else { return fail("a route has no method and route") }
            let key = appendKey(method: method, route: template)
            guard isFirst(kind: 0, ordinal: routeLists, key: key) else {
                return fail("\(string(method)) \(string(template)) comes twice")
            }
            routes.append(Route(method: method, route: template, key: key, tally: tally))
            return true
        }
    }

    /// Appends the method's length, the method and the route template to the storage: the route's key.
    private mutating func appendKey(method: Text, route: Text) -> Text {
        let start = storage.count
        withUnsafeBytes(of: UInt64(method.count).littleEndian) { storage.append(contentsOf: $0) }
        appendCopy(of: method)
        appendCopy(of: route)
        return start..<storage.count
    }

    /// Appends a copy of `text` to the storage, through a pointer: appending a slice of the storage to itself would
    /// copy all of it first, and appending byte by byte checks each time that the storage is not shared.
    private mutating func appendCopy(of text: Text) {
        let end = storage.count
        storage.append(contentsOf: repeatElement(0, count: text.count))
        storage.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            (base + end).update(from: base + text.lowerBound, count: text.count)
        }
    }

    /// Whether `key`, of a route (kind 0, in routes list `ordinal`) or an outcome (kind 1, of tally `ordinal`), is met
    /// for the first time in the line.
    private mutating func isFirst(kind: UInt8, ordinal: Int, key: Text) -> Bool {
        seenKey.removeAll(keepingCapacity: true)
        seenKey.append(kind)
        withUnsafeBytes(of: UInt64(ordinal).littleEndian) { seenKey.append(contentsOf: $0) }
        storage.withUnsafeBufferPointer { seenKey.append(contentsOf: $0[key]) }
        return seenKey.withUnsafeBufferPointer { seen.number(of: $0).isNew }
    }

    /// The outcomes of a tally compared one by one before the table of keys met takes over: a tally has a few.
    private static let outcomesComparedInTurn = 8

    /// Whether the outcome `name` is the first of its name in the tally `ordinal`, whose outcomes so far are
    /// `earlier`: compared in turn while they are few, found in the table of keys met beyond that (which then holds
    /// the earlier ones too), so that a line listing many outcomes is not read in quadratic time.
    private mutating func isFirst(outcome name: Text, ordinal: Int, earlier: Range<Int>) -> Bool {
        if earlier.count < Self.outcomesComparedInTurn {
            return storage.withUnsafeBufferPointer { bytes in
                !outcomes[earlier].contains { $0.name.count == name.count && bytes[$0.name].elementsEqual(bytes[name]) }
            }
        }
        if earlier.count == Self.outcomesComparedInTurn {
            for outcome in outcomes[earlier] { _ = isFirst(kind: 1, ordinal: ordinal, key: outcome.name) }
        }
        return isFirst(kind: 1, ordinal: ordinal, key: name)
    }

    /// Reads an object holding a tally, its `outcomes` (an object of counts) and `durations_us` (a list of
    /// `[lower bound, count]` pairs), and, of a route, its `method` and `route`; `nil` when it is malformed.
    private mutating func readTally(
        _ scanner: inout JSONScanner, ofRoute: Bool, method: inout Text?, route: inout Text?
    ) -> Tally? {
        tallies += 1
        let ordinal = tallies
        var hasOutcomes = false
        var hasDurations = false
        let outcomesStart = outcomes.count
        let bucketsStart = buckets.count
        let read = scanner.object { key, scanner in
            if JSONScanner.isKey(key, "outcomes") {
                guard !hasOutcomes else { return fail("its outcomes come twice") }
                hasOutcomes = true
                return readOutcomes(&scanner, ordinal: ordinal, from: outcomesStart)
            }
            if JSONScanner.isKey(key, "durations_us") {
                guard !hasDurations else { return fail("its durations_us come twice") }
                hasDurations = true
                return readDurations(&scanner)
            }
            if ofRoute, JSONScanner.isKey(key, "method") || JSONScanner.isKey(key, "route") {
                guard let text = readText(&scanner) else { return false }
                if JSONScanner.isKey(key, "method") { method = text } else { route = text }
                return true
            }
            return scanner.skipValue()
        }
        guard read else { return nil }
        guard hasOutcomes, hasDurations else {
            _ = fail(hasOutcomes ? "no durations_us" : "no outcomes")
            return nil
        }
        return Tally(outcomes: outcomesStart..<outcomes.count, buckets: bucketsStart..<buckets.count)
    }

    /// Reads a tally's outcomes, appended from `start` in ``outcomes``.
    private mutating func readOutcomes(_ scanner: inout JSONScanner, ordinal: Int, from start: Int) -> Bool {
        guard scanner.nextValueKind() == .object else { return fail("no outcomes") }
        return scanner.object { key, scanner in
            let nameStart = storage.count
            if key.contains(UInt8(ascii: "\\")) {
                guard let name = JSONScanner.key(key) else { return false }
                storage.append(contentsOf: name.utf8)
            } else {
                storage.append(contentsOf: key)
            }
            let name = nameStart..<storage.count
            guard let count = readCount(&scanner) else { return false }
            guard isFirst(outcome: name, ordinal: ordinal, earlier: start..<outcomes.count) else {
                return fail("the outcome \(string(name)) comes twice")
            }
            outcomes.append(Outcome(name: name, count: count))
            return true
        }
    }

    /// Reads a tally's `durations_us`: in one pass when they are written as Faultline writes them, else with the
    /// general reader, which reads them to the same buckets or refuses them for the same reason.
    private mutating func readDurations(_ scanner: inout JSONScanner) -> Bool {
        guard scanner.nextValueKind() == .array else { return fail("no durations_us") }
        let start = buckets.count
        if let read = scanner.compactIntegerPairs({ addBucket(lowerBound: $0, count: $1) }) { return read }
        buckets.removeSubrange(start...)
        return scanner.array { scanner in
            var lowerBound: Int?
            var count: Int?
            let isPair = scanner.array { scanner in
                guard count == nil else { return false }
                if lowerBound == nil {
                    lowerBound = scanner.integer()
                    return lowerBound != nil
                }
                count = readCount(&scanner)
                return count != nil
            }
            guard isPair, let lowerBound, let count else {
                return failure != nil ? false : fail(Self.notABucket)
            }
            return addBucket(lowerBound: lowerBound, count: count)
        }
    }

    private static let notABucket = "a duration bucket is not [lower bound, count] of a histogram bucket"

    /// Adds `count` durations in the bucket from `lowerBound` µs; `false`, with the reason, when the count is out of
    /// range or no bucket starts there.
    private mutating func addBucket(lowerBound: Int, count: Int) -> Bool {
        guard (1...RequestOutcomes.countLimit).contains(count) else { return fail(Self.countOutOfRange) }
        guard lowerBound >= 0, let bucket = LatencyHistogram.bucket(from: UInt64(lowerBound)) else {
            return fail(Self.notABucket)
        }
        buckets.append(LatencyHistogram.Entry(index: bucket, count: count))
        return true
    }

    private static let countOutOfRange = "a count is not an integer from 1 to \(RequestOutcomes.countLimit)"

    private mutating func readCount(_ scanner: inout JSONScanner) -> Int? {
        guard let count = scanner.integer(), (1...RequestOutcomes.countLimit).contains(count) else {
            _ = fail(Self.countOutOfRange)
            return nil
        }
        return count
    }
}
