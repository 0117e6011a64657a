/// A span of time as the terminal shows an age: its two largest units, `45s`, `12m 5s`, `3h 20m`, `2d 4h`. A display
/// form, never read back.
enum ElapsedTime {
    static func text(seconds: Double) -> String {
        let total = max(0, Int(seconds.rounded(.down)))
        let units = [(86_400, "d"), (3_600, "h"), (60, "m"), (1, "s")]
        guard let first = units.firstIndex(where: { total >= $0.0 }) else { return "0s" }
        let (size, name) = units[first]
        var text = "\(total / size)\(name)"
        if first + 1 < units.count {
            let (nextSize, nextName) = units[first + 1]
            let rest = total % size / nextSize
            if rest > 0 { text += " \(rest)\(nextName)" }
        }
        return text
    }
}
