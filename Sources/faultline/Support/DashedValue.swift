/// A value that starts with a dash and a digit, given to an option after a space (`--since -1h`, `--limit -5`): the
/// parser would read it as short options, and `-1h` as a request for help, which prints the help and exits 0, so that
/// `faultline incident --since -1h --fail-on new || page` would never page. Joined to its option (`--since=-1h`), it
/// reaches the option, which says what is wrong with it, or the parser, which says the option takes no value.
enum DashedValue {
    /// `arguments` with each such value joined to the long option before it, up to a `--`.
    static func joined(_ arguments: [String]) -> [String] {
        var joined: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            guard argument != "--" else {
                joined.append(argument)
                joined.append(contentsOf: rest)
                break
            }
            if let option = joined.last, option.hasPrefix("--"), option.count > 2, !option.contains("="),
                isDashedValue(argument)
            {
                joined[joined.count - 1] = "\(option)=\(argument)"
            } else {
                joined.append(argument)
            }
        }
        return joined
    }

    /// Whether `argument` is `-` and a digit: no option of the tool's is written so.
    private static func isDashedValue(_ argument: String) -> Bool {
        let characters = Array(argument.prefix(2))
        return characters.count == 2 && characters[0] == "-" && characters[1].isASCII && characters[1].isNumber
    }
}
