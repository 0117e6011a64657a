import FaultlineRecords

/// Every request a reporter counted since it started, by route: the intervals of request outcomes it wrote, added up,
/// for the metrics adapter, which publishes what changed since it last read them. At most ``routeLimit`` routes; the
/// requests of the others are added to ``overflow``, with those the intervals counted past their own limit.
package struct RequestTotals: Hashable, Sendable {
    /// The routes kept apart at most: five times an interval's limit, for an app whose routes change over its life.
    package static let routeLimit = 5 * RequestOutcomes.routeLimit

    package private(set) var routes: [RequestOutcomes.Route: RequestOutcomes.Tally] = [:]
    package private(set) var overflow = RequestOutcomes.Tally()

    package init() {}

    /// Adds the requests of an interval.
    mutating func add(_ outcomes: RequestOutcomes) {
        for (route, tally) in outcomes.routes {
            if routes[route] != nil || routes.count < Self.routeLimit {
                routes[route, default: RequestOutcomes.Tally()].merge(tally)
            } else {
                overflow.merge(tally)
            }
        }
        overflow.merge(outcomes.overflow)
    }
}
