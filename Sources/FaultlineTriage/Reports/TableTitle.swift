/// How a table shows a title: its point, without the route the table shows in its own column, and the head a cut
/// keeps whole.
///
/// Faultline's own titles start with the request they are about (`GET /boleto/users/{id}: valueNotFound at
/// 'data.profileImage' …`); said in the title and again in the ROUTE column, the route took the cells of the part that
/// says what failed. A table shows the point in its title column and the method and route in its route column.
struct TableTitle {
    /// The title without its leading `METHOD route: ` or `route: `.
    let point: String
    /// The method and route the title started with (`GET /boleto/users/{id}`), else the route as the events gave it.
    let route: String?
    /// The cells of the point's head that a cut keeps whole: up to the end of a quote it opens near its start, such as
    /// a decoding failure's coding path (`valueNotFound at 'data.profileImage'`) or an error page's title (`HTTP 502
    /// page "502 Bad Gateway"`); 0 for other titles.
    let head: Int

    /// The parts of `title`, whose events' route is `route`.
    init(_ title: String, route: String?) {
        var point = title[...]
        var shownRoute = route
        if let route, !route.isEmpty, let prefixEnd = Self.routePrefixEnd(of: title, route: route) {
            shownRoute = String(title[..<prefixEnd].dropLast(2))
            point = title[prefixEnd...]
        }
        let pointText = String(point)
        self.point = pointText
        self.route = shownRoute
        self.head = Self.quoteEnd(of: pointText).map { TerminalText.width(String(pointText[..<$0])) } ?? 0
    }

    /// Where the `METHOD route: ` or `route: ` that `title` starts with ends, when it starts with one.
    private static func routePrefixEnd(of title: String, route: String) -> String.Index? {
        var rest = title[...]
        if let space = rest.prefix(8).firstIndex(of: " "),
            rest[..<space].allSatisfy({ $0.isASCII && $0.isUppercase }), !rest[..<space].isEmpty
        {
            rest = rest[rest.index(after: space)...]
        }
        guard rest.hasPrefix(route + ": ") else { return nil }
        return rest.index(rest.startIndex, offsetBy: route.count + 2)
    }

    /// Where the first quote of `point` ends, when it opens (after a space, with `'` or `"`) in its first 32
    /// characters.
    private static func quoteEnd(of point: String) -> String.Index? {
        let start = point.prefix(32)
        guard
            let open = start.indices.first(where: { index in
                (point[index] == "'" || point[index] == "\"") && index > point.startIndex
                    && point[point.index(before: index)] == " "
            }),
            let close = point[point.index(after: open)...].firstIndex(of: point[open])
        else { return nil }
        return point.index(after: close)
    }
}
