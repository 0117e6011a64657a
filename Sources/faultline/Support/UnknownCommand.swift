import Foundation

/// A first word that names no command, such as `faultline isues`: without this, the parser reads it as an argument of
/// the default command (`summary`) and answers with that command's usage.
struct UnknownCommand {
    /// What to tell the user, on one line.
    let message: String

    /// The mistake `arguments` (without the program's name) make, if their first word, or the word after `help`, is
    /// neither an option nor one of `commands`.
    init?(_ arguments: [String], commands: [String]) {
        let asked = arguments.first == "help" ? arguments.dropFirst().first : arguments.first
        guard let word = asked, !word.hasPrefix("-"), !commands.contains(word), word != "help" else {
            return nil
        }
        var isDirectory: ObjCBool = false
        if word == "demo" {
            message = "the demo is not part of the installed CLI: in the repository, run 'scripts/demo'."
        } else if FileManager.default.fileExists(atPath: word, isDirectory: &isDirectory) {
            let option = isDirectory.boolValue ? "--log-dir" : "--file"
            message = "'\(word)' is not a command: to read it, run 'faultline summary \(option) \(word)'."
        } else if let nearest = commands.min(by: { Self.distance(word, $0) < Self.distance(word, $1) }),
            Self.distance(word, nearest) <= 2
        {
            message = "'\(word)' is not a command; did you mean '\(nearest)'?"
        } else {
            message = "'\(word)' is not a command: see 'faultline --help' for the commands."
        }
    }

    /// The edit distance from `a` to `b`: the fewest insertions, deletions and substitutions between them.
    static func distance(_ a: String, _ b: String) -> Int {
        let (a, b) = (Array(a.lowercased()), Array(b.lowercased()))
        var previous = Array(0...b.count)
        for (i, characterOfA) in a.enumerated() {
            var current = [i + 1]
            for (j, characterOfB) in b.enumerated() {
                current.append(
                    min(previous[j + 1] + 1, current[j] + 1, previous[j] + (characterOfA == characterOfB ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
