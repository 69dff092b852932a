import CJansson

/// Which members of a state changed, for the debug history and the log.
enum JSONDiff {
    /// The members whose encoded values differ, in `after`'s order (members only in `before`
    /// last). Fragments of unchanged parts come from the codecs' caches, so this compares
    /// text, nothing is parsed.
    static func changedKeys(_ before: [StateMember], _ after: [StateMember]) -> [String] {
        var changed: [String] = []
        for (key, value) in after where !before.contains(where: { $0.key.description == key.description && $0.value == value }) {
            changed.append(key.description)
        }
        for (key, _) in before where !after.contains(where: { $0.key.description == key.description }) {
            changed.append(key.description)
        }
        return changed
    }

    /// Parses a fragment the library itself encoded (new reference), nil if it cannot.
    static func parse(_ fragment: JSONFragment) -> UnsafeMutablePointer<json_t>? {
        fragment.text.withCString { json_loads($0, Int(JSON_DECODE_ANY), nil) }
    }
}
