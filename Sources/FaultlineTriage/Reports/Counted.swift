/// `1 event`, `2 events`: a count with its noun in the right number.
package func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
}
