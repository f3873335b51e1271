extension Array {
    /// The count as a recording's `tolerated` table holds it: absent for none.
    var nilIfEmptyCount: Int? { isEmpty ? nil : count }
}
