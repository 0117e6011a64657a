import ArgumentParser
import FaultlineTriage
import Foundation

/// `--fail-on`, for `incident`: the signals that make the command exit with status 3 when an issue has one, so that
/// cron and CI can act on what the view shows.
struct FailOnOption: ParsableArguments {
    /// A signal that can fail the command.
    enum Signal: String, CaseIterable {
        case new, spiking, regressed

        func flags(_ signals: IssueSignals) -> Bool {
            switch self {
            case .new: signals.isNew
            case .spiking: signals.isSpiking
            case .regressed: signals.isRegressed
            }
        }
    }

    @Option(
        name: .customLong("fail-on"),
        help: ArgumentHelp(
            "Exit with status 3 when an issue is new, spiking or regressed, as listed (comma-separated).",
            valueName: "signals"),
        transform: Self.signals)
    var signals: [Signal]?

    /// The issues among `rows` that one of the signals flags.
    func failing(_ rows: [IssueRow]) -> [IssueRow] {
        guard let signals else { return [] }
        return rows.filter { row in row.signals.map { issue in signals.contains { $0.flags(issue) } } ?? false }
    }

    private static func signals(_ text: String) throws -> [Signal] {
        let names = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        return try names.map { name in
            guard let signal = Signal(rawValue: name) else {
                let known = Signal.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("--fail-on takes \(known), comma-separated; not '\(name)'.")
            }
            return signal
        }
    }
}
