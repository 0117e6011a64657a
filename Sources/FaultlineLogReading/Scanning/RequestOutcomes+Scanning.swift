import FaultlineReporting
import Foundation

extension RequestOutcomes {
    /// Why a line or an envelope item is not request outcomes.
    package struct ParseFailure: Error, Hashable, Sendable, CustomStringConvertible {
        package let reason: String
        package var description: String { "not request outcomes: \(reason)" }
    }

    /// The most requests one line may count for an outcome or a bucket: more than any device sends in an interval,
    /// few enough that no sum of them overflows, over as many lines as a log of any size holds.
    package static let countLimit = 1 << 32

    /// Reads request outcomes back from the JSON of ``line()``, as the log holds them or an envelope item carries them
    /// (its members in any order, unknown members ignored). Every count must be an integer from 1 to ``countLimit``,
    /// and every bucket one that ``LatencyHistogram`` has.
    package init(line: some DataProtocol) throws(ParseFailure) {
        let scan = { (bytes: UnsafeBufferPointer<UInt8>) in
            Result { () throws(ParseFailure) in try Self(scanning: bytes) }
        }
        self = try (line.withContiguousStorageIfAvailable(scan) ?? Array(line).withUnsafeBufferPointer(scan)).get()
    }

    /// Reads request outcomes from `bytes` with the scanner triage reads events with: a log of them is read at the
    /// speed of its bytes, without building a JSON tree of each line.
    private init(scanning bytes: UnsafeBufferPointer<UInt8>) throws(ParseFailure) {
        guard UTF8Validation.isValid(bytes) else { throw ParseFailure(reason: "it is not UTF-8") }
        var scanner = JSONScanner(bytes)
        var members = Members()
        let isObject = scanner.object { key, scanner in members.read(key, &scanner) }
        if let failure = members.failure { throw failure }
        guard isObject, scanner.isAtEnd() else { throw ParseFailure(reason: "it is not JSON, or not one object") }
        guard members.type == Self.type else { throw ParseFailure(reason: "its type is not \(Self.type)") }
        guard let id = members.id, Self.isID(id) else {
            throw ParseFailure(reason: "its id is not 32 lowercase hex digits")
        }
        guard let start = members.start, let end = members.end, start <= end else {
            throw ParseFailure(reason: "it has no start and timestamp (RFC 3339, or seconds since 1970), in that order")
        }
        self.init(
            id: id, start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end),
            release: members.release, environment: members.environment)
        guard let routes = members.routes else { throw ParseFailure(reason: "it has no routes list") }
        self.routes = routes
        overflow = members.overflow ?? Tally()
    }

    private static func isID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The members of a line read so far, and the first reason it is not request outcomes, found inside a member.
    private struct Members {
        var type: String?
        var id: String?
        var start: Double?
        var end: Double?
        var release: String?
        var environment: String?
        var routes: [Route: Tally]?
        var overflow: Tally?
        var failure: ParseFailure?

        /// Reads the member `key`; `false` when it is malformed (with ``failure`` set when it is well-formed JSON that
        /// request outcomes do not allow).
        mutating func read(_ key: UnsafeBufferPointer<UInt8>, _ scanner: inout JSONScanner) -> Bool {
            if JSONScanner.isKey(key, "type") {
                return scanner.optionalString(into: &type) || fail("its type is no text")
            }
            if JSONScanner.isKey(key, "id") {
                return scanner.optionalString(into: &id) || fail("its id is not a string")
            }
            if JSONScanner.isKey(key, "start") { return scanner.time(into: &start) }
            if JSONScanner.isKey(key, "timestamp") { return scanner.time(into: &end) }
            if JSONScanner.isKey(key, "release") {
                return scanner.optionalString(into: &release) || fail("its release is not a string")
            }
            if JSONScanner.isKey(key, "environment") {
                return scanner.optionalString(into: &environment) || fail("its environment is not a string")
            }
            if JSONScanner.isKey(key, "routes") { return readRoutes(&scanner) }
            if JSONScanner.isKey(key, "overflow") {
                guard scanner.nextValueKind() == .object else { return fail("its overflow is no object") }
                var tally = Tally()
                guard readTally(&scanner, into: &tally) else { return false }
                overflow = tally
                return true
            }
            return scanner.skipValue()
        }

        private mutating func fail(_ reason: String) -> Bool {
            if failure == nil { failure = ParseFailure(reason: reason) }
            return false
        }

        private mutating func readRoutes(_ scanner: inout JSONScanner) -> Bool {
            guard scanner.nextValueKind() == .array else { return fail("it has no routes list") }
            var routes: [Route: Tally] = [:]
            let read = scanner.array { scanner in
                guard scanner.nextValueKind() == .object else { return fail("a route has no method and route") }
                var method: String?
                var template: String?
                var tally = Tally()
                var tallyMembers = 0
                let isObject = scanner.object { key, scanner in
                    if JSONScanner.isKey(key, "method") { return scanner.optionalString(into: &method) }
                    if JSONScanner.isKey(key, "route") { return scanner.optionalString(into: &template) }
                    if JSONScanner.isKey(key, "outcomes") || JSONScanner.isKey(key, "durations_us") {
                        tallyMembers += 1
                        return readTallyMember(key, &scanner, into: &tally)
                    }
                    return scanner.skipValue()
                }
                guard isObject else { return false }
                guard let method, let template else { return fail("a route has no method and route") }
                guard tallyMembers == 2 else { return fail(tally.outcomes.isEmpty ? "no outcomes" : "no durations_us") }
                guard routes.updateValue(tally, forKey: Route(method: method, route: template)) == nil else {
                    return fail("\(method) \(template) comes twice")
                }
                return true
            }
            self.routes = routes
            return read
        }

        /// Reads a tally's object: its `outcomes` and `durations_us`.
        private mutating func readTally(_ scanner: inout JSONScanner, into tally: inout Tally) -> Bool {
            var members = 0
            let read = scanner.object { key, scanner in
                guard JSONScanner.isKey(key, "outcomes") || JSONScanner.isKey(key, "durations_us") else {
                    return scanner.skipValue()
                }
                members += 1
                return readTallyMember(key, &scanner, into: &tally)
            }
            guard read else { return false }
            return members == 2 || fail(tally.outcomes.isEmpty ? "no outcomes" : "no durations_us")
        }

        /// Reads `outcomes` (an object of counts) or `durations_us` (a list of `[lower bound, count]` pairs).
        private mutating func readTallyMember(
            _ key: UnsafeBufferPointer<UInt8>, _ scanner: inout JSONScanner, into tally: inout Tally
        ) -> Bool {
            if JSONScanner.isKey(key, "outcomes") {
                guard scanner.nextValueKind() == .object else { return fail("no outcomes") }
                return scanner.object { key, scanner in
                    guard let outcome = JSONScanner.key(key), let count = readCount(&scanner) else { return false }
                    tally.outcomes[outcome] = count
                    return true
                }
            }
            guard scanner.nextValueKind() == .array else { return fail("no durations_us") }
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
                guard isPair, let lowerBound, let count, lowerBound >= 0,
                    tally.durations.add(count: count, inBucketFrom: UInt64(lowerBound))
                else {
                    return failure != nil
                        ? false : fail("a duration bucket is not [lower bound, count] of a histogram bucket")
                }
                return true
            }
        }

        private mutating func readCount(_ scanner: inout JSONScanner) -> Int? {
            guard let count = scanner.integer(), (1...RequestOutcomes.countLimit).contains(count) else {
                _ = fail("a count is not an integer from 1 to \(RequestOutcomes.countLimit)")
                return nil
            }
            return count
        }
    }
}
