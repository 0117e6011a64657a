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
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line)
        } catch {
            throw ParseFailure(reason: error.description)
        }
        guard let object = value.objectValue else { throw ParseFailure(reason: "it is not an object") }
        guard object["type"]?.stringValue == Self.type else {
            throw ParseFailure(reason: "its type is not \(Self.type)")
        }
        guard let id = object["id"]?.stringValue, Self.isID(id) else {
            throw ParseFailure(reason: "its id is not 32 lowercase hex digits")
        }
        guard let start = object["start"]?.stringValue.flatMap(RFC3339.seconds),
            let end = object["timestamp"]?.stringValue.flatMap(RFC3339.seconds), start <= end
        else { throw ParseFailure(reason: "it has no RFC 3339 start and timestamp, in that order") }
        self.init(
            id: id, start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: end),
            release: try Self.optionalString(object["release"], "release"),
            environment: try Self.optionalString(object["environment"], "environment"))
        guard case .array(let routes)? = object["routes"] else { throw ParseFailure(reason: "it has no routes list") }
        for route in routes {
            guard let members = route.objectValue, let method = members["method"]?.stringValue,
                let template = members["route"]?.stringValue
            else { throw ParseFailure(reason: "a route has no method and route") }
            let key = Route(method: method, route: template)
            guard self.routes[key] == nil else { throw ParseFailure(reason: "\(method) \(template) comes twice") }
            self.routes[key] = try Self.tally(members)
        }
        if let overflow = object["overflow"] {
            guard let members = overflow.objectValue else { throw ParseFailure(reason: "its overflow is no object") }
            self.overflow = try Self.tally(members)
        }
    }

    private static func isID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    private static func optionalString(_ value: JSONValue?, _ name: String) throws(ParseFailure) -> String? {
        guard let value else { return nil }
        guard let string = value.stringValue else { throw ParseFailure(reason: "its \(name) is not a string") }
        return string
    }

    private static func tally(_ members: [String: JSONValue]) throws(ParseFailure) -> Tally {
        var tally = Tally()
        guard let outcomes = members["outcomes"]?.objectValue else { throw ParseFailure(reason: "no outcomes") }
        for (outcome, count) in outcomes {
            tally.outcomes[outcome] = try Self.count(count)
        }
        guard case .array(let buckets)? = members["durations_us"] else {
            throw ParseFailure(reason: "no durations_us")
        }
        for bucket in buckets {
            guard case .array(let pair) = bucket, pair.count == 2, case .int(let lowerBound) = pair[0], lowerBound >= 0,
                tally.durations.add(count: try Self.count(pair[1]), inBucketFrom: UInt64(lowerBound))
            else { throw ParseFailure(reason: "a duration bucket is not [lower bound, count] of a histogram bucket") }
        }
        return tally
    }

    private static func count(_ value: JSONValue) throws(ParseFailure) -> Int {
        guard case .int(let count) = value, (1...countLimit).contains(count) else {
            throw ParseFailure(reason: "a count is not an integer from 1 to \(countLimit)")
        }
        return count
    }
}
