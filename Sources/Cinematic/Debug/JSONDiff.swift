import CJansson

/// Which members of a state changed, for the debug history and the log.
enum JSONDiff {
    /// The top-level keys whose values differ between two JSON objects, in `after`'s order
    /// (keys only in `before` last). Anything that is not an object compares as a whole
    /// (`["$"]` when different).
    static func changedKeys(_ before: JSONFragment, _ after: JSONFragment) -> [String] {
        guard before != after else { return [] }
        guard let old = parse(before) else { return ["$"] }
        defer { json_decref(old) }
        guard let new = parse(after) else { return ["$"] }
        defer { json_decref(new) }
        guard old.pointee.type == JSON_OBJECT, new.pointee.type == JSON_OBJECT else { return json_equal(old, new) != 0 ? [] : ["$"] }
        var keys: [String] = []
        var iterator = json_object_iter(new)
        while let current = iterator {
            let key = String(cString: json_object_iter_key(current))
            let value = json_object_iter_value(current)
            if json_equal(value, json_object_get(old, key)) == 0 { keys.append(key) }
            iterator = json_object_iter_next(new, current)
        }
        iterator = json_object_iter(old)
        while let current = iterator {
            let key = String(cString: json_object_iter_key(current))
            if json_object_get(new, key) == nil { keys.append(key) }
            iterator = json_object_iter_next(old, current)
        }
        return keys
    }

    /// Parses a fragment the library itself encoded (new reference), nil if it cannot.
    static func parse(_ fragment: JSONFragment) -> UnsafeMutablePointer<json_t>? {
        fragment.text.withCString { json_loads($0, Int(JSON_DECODE_ANY), nil) }
    }
}
