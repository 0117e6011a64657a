/// Sentry's grouping of exception groups (Python's `ExceptionGroup`, .NET's `AggregateException`, JavaScript's
/// `AggregateError`): a group whose exceptions under it are all alike groups as that one exception and the path of
/// first causes under it; one with different exceptions groups by one of each kind and the group itself, so that
/// the order its tasks failed in does not matter.
extension ExceptionGrouping {
    /// The exceptions of `chain` that group. A chain that is not a tree of `exception_id`s and `parent_id`s with a
    /// root (`exception_id` 0) stays as it is.
    static func filteringGroups(_ chain: [ExceptionGrouping]) -> [ExceptionGrouping] {
        guard chain.count > 1 else { return chain }
        var indexByID: [Double: Int] = [:]
        var children: [Double: [Int]] = [:]
        for index in chain.indices.reversed() {
            guard let id = chain[index].exceptionID else { return chain }
            indexByID[id] = index
            if let parent = chain[index].parentID { children[parent, default: []].append(index) }
        }
        guard let root = indexByID[0] else { return chain }
        func childrenOf(_ index: Int) -> [Int] {
            chain[index].exceptionID.flatMap { children[$0] } ?? []
        }
        // A malformed tree can loop: each exception is visited once.
        var visited: Set<Int> = []
        func topLevel(_ index: Int) -> [Int] {
            guard visited.insert(index).inserted else { return [] }
            return chain[index].isExceptionGroup ? childrenOf(index).flatMap(topLevel) : [index]
        }
        let sorted = topLevel(root).enumerated().sorted { left, right in
            let (leftType, rightType) = (chain[left.element].type ?? "None", chain[right.element].type ?? "None")
            return leftType != rightType ? leftType > rightType : left.offset < right.offset
        }.map(\.element)
        var distinct: [Int] = []
        for index in sorted where distinct.last.map({ chain[$0].identity != chain[index].identity }) ?? true {
            distinct.append(index)
        }
        guard distinct.count != 1 else {
            var path = [distinct[0]]
            while let first = childrenOf(path[path.count - 1]).first, !path.contains(first) { path.append(first) }
            return path.map { chain[$0] }
        }
        return (distinct + [root]).map { chain[$0] }
    }

    /// What tells two exceptions apart for grouping.
    private var identity: Identity {
        Identity(
            type: isSynthetic ? nil : type, value: value.map(MessageParameterization.normalized),
            nsError: nsError.map { [$0.domain, $0.code] }, app: stackTrace.appFrames > 0 ? stackTrace.app : nil,
            system: stackTrace.systemFrames > 0 ? stackTrace.system : nil)
    }

    private struct Identity: Equatable {
        var type: String?
        var value: String?
        var nsError: [String]?
        var app: GroupingHash?
        var system: GroupingHash?
    }
}
