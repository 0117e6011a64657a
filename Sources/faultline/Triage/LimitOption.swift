import ArgumentParser

/// `--limit`, for the commands that list issues: at most that many are listed, and the rest counted.
struct LimitOption: ParsableArguments {
    @Option(help: "List at most this many issues, and say how many were left out.")
    var limit: Int?

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit is a number of issues, 1 or more.") }
    }
}
