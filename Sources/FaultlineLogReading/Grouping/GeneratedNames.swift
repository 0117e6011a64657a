import Foundation

/// The parts of Java class names that code generation makes up per run, replaced by `<auto>` as Sentry's grouping
/// does, so that a proxy or accessor groups the same in every process.
enum JavaGeneratedNames {
    /// `sun.reflect.GeneratedSerializationConstructorAccessor12`, Spring's `$$EnhancerBySpringCGLIB$$1ebdddb0`,
    /// Hibernate's `$HibernateProxy$oRWxjAWT`, Javassist's `$$_javassist_74` and Clojure's `$fn__123`.
    static func replacingMarkers(in module: String) -> String {
        markers.reduce(module) { name, marker in
            marker.stringByReplacingMatches(
                in: name, range: NSRange(name.startIndex..., in: name), withTemplate: "$1<auto>")
        }
    }

    /// A file name's Javassist part: `EntriesResource_$$_javassist_seam_74.java`.
    static func replacingJavassist(in fileName: String) -> String {
        javassist.stringByReplacingMatches(
            in: fileName, range: NSRange(fileName.startIndex..., in: fileName), withTemplate: "$1<auto>")
    }

    private static let javassist = pattern(#"(\$\$_javassist)(?:_seam)?(?:_[0-9]+)?"#)
    private static let markers = [
        pattern(#"(sun\.reflect\.Generated(?:Serialization)?ConstructorAccessor)\d+"#),
        pattern(#"(\$\$[\w_]+?CGLIB\$\$)[a-fA-F0-9]+(?:_[0-9]+)?"#),
        pattern(#"(\$HibernateProxy\$)\w+"#),
        javassist,
        pattern(#"(\$fn__)\d+"#),
    ]

    private static func pattern(_ text: String) -> NSRegularExpression {
        // The patterns are constants: one that does not compile is a programming error.
        try! NSRegularExpression(pattern: text)  // swift-format-ignore: NeverUseForceTry
    }
}

/// Ruby's erb templates compile to methods named after the template with a generated suffix
/// (`_foo_html_erb__3327151541118998292_70361296749460`); Sentry's grouping reads the name without it.
enum RubyTemplateName {
    static func removingGeneratedSuffix(_ function: String) -> String {
        let parts = function.components(separatedBy: "__")
        guard parts.count > 1, let suffix = parts.last else { return function }
        let numbers = suffix.split(separator: "_", omittingEmptySubsequences: false)
        guard numbers.count == 2, numbers.allSatisfy({ $0.count >= 4 && $0.allSatisfy(\.isASCIIDigit) }) else {
            return function
        }
        return String(function.dropLast(suffix.count + 2))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
