import FaultlineRecords

extension RecordKind {
    /// The category its lines are rate-limited and counted by.
    var category: DataCategory {
        switch self {
        case .events: .error
        case .transactions: .transaction
        case .outcomes: .internal
        }
    }
}
