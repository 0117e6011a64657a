/// One of Sentry's stack trace rules ("grouping enhancements"), in Sentry's syntax: matchers, then actions.
///
///     family:native package:**/Containers/Bundle/Application/** +app
///     [ category:ui ] | category:ui category=internals
///     category:threadbase -group v-group
///
/// A matcher reads a field of the frame (`family`, `package`, `path`, `module`, `function`, `category`, `app`),
/// negated by `!`; in `[ … ] |` it reads the frame's caller, in `| [ … ]` its callee. `+app`/`-app` mark frames
/// in-app or not, `+group`/`-group` whether they count; `^` applies an action to the frames it called (later in the
/// list), `v` to the frames that called it (earlier); `category=` names what the frame is, for later rules.
struct StackTraceRule: Hashable {
    enum Field: Hashable {
        case family(GroupingPlatform.Family)
        case package(GroupingGlob)
        case path(GroupingGlob)
        case module(GroupingGlob)
        case function(GroupingGlob)
        case category(String)
        case inApp(Bool)
    }

    enum Place: Hashable {
        case frame, caller, callee
    }

    struct Matcher: Hashable {
        var field: Field
        var isNegated: Bool
        var place: Place
    }

    /// Which frames a flag action sets, from the matching one.
    enum Range: Hashable {
        /// The matching frame.
        case frame
        /// The frames it called: those after it.
        case callees
        /// The frames that called it: those before it.
        case callers
    }

    enum Action: Hashable {
        case inApp(Bool, Range)
        case group(Bool, Range)
        case category(String)
    }

    let matchers: [Matcher]
    let actions: [Action]

    /// Reads a rule written in Sentry's syntax; a rule Faultline does not read is a programming error.
    init(_ text: String) {
        var matchers: [Matcher] = []
        var actions: [Action] = []
        var place = Place.frame
        var sawFrameMatcher = false
        for token in Self.tokens(text) {
            switch token {
            case "[": place = sawFrameMatcher ? .callee : .caller
            case "]": place = .frame
            case "|": break
            default:
                if let action = Self.action(token) {
                    actions.append(action)
                    continue
                }
                let isNegated = token.hasPrefix("!")
                let body = isNegated ? String(token.dropFirst()) : token
                guard let colon = body.firstIndex(of: ":") else { preconditionFailure("not a matcher: \(token)") }
                let name = body[..<colon]
                let value = String(body[body.index(after: colon)...])
                matchers.append(Matcher(field: Self.field(name, value), isNegated: isNegated, place: place))
                if place == .frame { sawFrameMatcher = true }
            }
        }
        self.matchers = matchers
        self.actions = actions
    }

    private static func field(_ name: Substring, _ value: String) -> Field {
        switch name {
        case "family":
            switch value {
            case "native": return .family(.native)
            case "javascript": return .family(.javascript)
            default: preconditionFailure("unknown family \(value)")
            }
        case "package", "stack.package": return .package(GroupingGlob(value, isPath: true))
        case "path", "stack.abs_path": return .path(GroupingGlob(value, isPath: true))
        case "module", "stack.module": return .module(GroupingGlob(value, isPath: false))
        case "function", "stack.function": return .function(GroupingGlob(value, isPath: false))
        case "category": return .category(value)
        case "app": return .inApp(["yes", "true", "1"].contains(value))
        default: preconditionFailure("unknown matcher \(name)")
        }
    }

    private static func action(_ token: String) -> Action? {
        if token.hasPrefix("category=") { return .category(String(token.dropFirst("category=".count))) }
        var rest = Substring(token)
        var range = Range.frame
        if rest.first == "^" {
            range = .callees
            rest = rest.dropFirst()
        } else if rest.first == "v" {
            range = .callers
            rest = rest.dropFirst()
        }
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        switch rest.dropFirst() {
        case "app": return .inApp(sign == "+", range)
        case "group": return .group(sign == "+", range)
        default: return nil
        }
    }

    /// The words of a rule, a `"…"` as one word without its quotes, `[`, `]` and `|` each a word.
    private static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        var isQuoted = false
        for character in text {
            if character == "\"" {
                isQuoted.toggle()
            } else if isQuoted {
                current.append(character)
            } else if character == " " {
                if !current.isEmpty { tokens.append(current) }
                current = ""
            } else if ["[", "]", "|"].contains(character) {
                if !current.isEmpty { tokens.append(current) }
                tokens.append(String(character))
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }
}
