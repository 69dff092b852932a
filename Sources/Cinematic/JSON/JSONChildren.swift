import CJansson

/// The members of an object or the elements of an array, visited in order: the one walk
/// over a parsed tree (a snapshot view's depth, the place of an integer too large).
enum JSONChildren {
    /// One step down: a member's key or an element's index.
    enum Step {
        case member(String)
        case element(Int)
    }

    /// Calls `body` with each child of `value` (none for a scalar) until it returns false.
    static func forEach(of value: UnsafeMutablePointer<json_t>, _ body: (Step, UnsafeMutablePointer<json_t>) -> Bool) {
        if value.pointee.type == JSON_OBJECT {
            var iterator = json_object_iter(value)
            while let current = iterator {
                if let child = json_object_iter_value(current), !body(.member(String(cString: json_object_iter_key(current))), child) { return }
                iterator = json_object_iter_next(value, current)
            }
        } else if value.pointee.type == JSON_ARRAY {
            for index in 0..<json_array_size(value) {
                if let child = json_array_get(value, index), !body(.element(index), child) { return }
            }
        }
    }

    /// Where the first integer too large for 64 bits sits in `text` (which jansson refused for
    /// it): the text is read again with integers as reals, and the first number of at least 2^63
    /// in magnitude names the path (`$` when none is found).
    static func overflowPath(_ text: UnsafePointer<CChar>, _ length: Int) -> String {
        var error = json_error_t()
        let flags = Int(JSON_REJECT_DUPLICATES | JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL)
        guard let root = json_loadb(text, length, flags, &error) else { return "$" }
        defer { json_decref(root) }
        // Depth first, in document order, with a stack of its own (no recursion on a
        // caller's thread, however deep the document nests).
        var pending: [(UnsafeMutablePointer<json_t>, JSONPath)] = [(root, .text("$"))]
        while let (value, path) = pending.popLast() {
            if value.pointee.type == JSON_REAL, abs(json_real_value(value)) >= 9_223_372_036_854_775_808.0 { return path.text }
            var children: [(UnsafeMutablePointer<json_t>, JSONPath)] = []
            forEach(of: value) { step, child in
                switch step {
                case let .member(key): children.append((child, .member(path, key)))
                case let .element(index): children.append((child, .element(path, index)))
                }
                return true
            }
            pending.append(contentsOf: children.reversed())
        }
        return "$"
    }
}
