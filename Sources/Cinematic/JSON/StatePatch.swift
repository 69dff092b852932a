/// An RFC 6902 JSON Patch between two states of one store, built from their ``StateNode``
/// trees: what the codecs already know changed. Parts that did not change are the same cached
/// fragments (compared by identity first, so an unchanged list of 2,000 films costs one
/// comparison), an object is patched member by member (members that came or went are added
/// or removed: `/positions/search` alone when one list's position goes), and a
/// list is patched by its change when it is one of the kinds states make: elements appended
/// (a page: `add` at `/…/-` for each new one), one element removed (`remove`), one inserted
/// (`add` at its index). Anything else is a `replace` of the part that changed.
///
/// ```json
/// [{"op":"replace","path":"/pagesLoaded","value":2},
///  {"op":"add","path":"/results/value/-","value":{"id":…}}]
/// ```
struct StatePatch {
    /// The operations, in order.
    private(set) var operations: [Operation] = []

    /// True when the two states encode alike.
    var isEmpty: Bool { operations.isEmpty }

    /// The patch that turns `old` into `new`.
    init(from old: StateNode, to new: StateNode) {
        diff(old, new, at: "")
    }

    /// `[op, …]`.
    var json: JSONFragment {
        var writer = JSONTextWriter()
        write(into: &writer)
        return writer.fragment
    }

    /// Writes `[op, …]`, each `{"op":…,"path":…[,"value":…]}`, into `writer` (one text for the
    /// whole delivery: nothing is encoded per operation).
    func write(into writer: inout JSONTextWriter) {
        writer.array(operations) { operation, writer in
            writer.append(raw: operation.kind.prefix)
            writer.append(.string(operation.path))
            if let value = operation.value {
                writer.append(raw: #","value":"#)
                writer.append(value)
            }
            writer.append(raw: "}")
        }
    }

    /// One operation of the patch.
    struct Operation {
        /// What it does.
        enum Kind {
            case add, remove, replace

            /// Its text up to the path.
            var prefix: StaticString {
                switch self {
                case .add: #"{"op":"add","path":"#
                case .remove: #"{"op":"remove","path":"#
                case .replace: #"{"op":"replace","path":"#
                }
            }
        }
        let kind: Kind
        /// A JSON Pointer (RFC 6901).
        let path: String
        /// The value added or put in place (none for `remove`).
        let value: JSONFragment?
    }

    private mutating func diff(_ old: StateNode, _ new: StateNode, at path: String) {
        switch (old, new) {
        case let (.typed(a), .typed(b)):
            // The same part, or one that patches itself from the last; else node by node.
            if a !== b, !b.patch(from: a, at: path, into: &self) { diff(a.node, b.node, at: path) }
        case let (.typed(a), _):
            diff(a.node, new, at: path)
        case let (_, .typed(b)):
            diff(old, b.node, at: path)
        case let (.cached(a), .cached(b)) where a === b:
            return  // the same value: nothing changed below
        case let (.cached(a), .cached(b)) where b.appended?.to === a:
            // A list that grew from the very list delivered last: its new elements, appended.
            if case let .list(elements) = b.node, let start = b.appended?.from {
                for element in elements[start...] { operation(.add, path + "/-", element.json) }
            }
        case let (.cached(a), _):
            diff(a.node, new, at: path)
        case let (_, .cached(b)):
            diff(old, b.node, at: path)
        case let (.fragment(a), .fragment(b)):
            if a != b { replace(path, b) }
        case let (.object(a), .object(b)):
            guard a.count == b.count, a.indices.allSatisfy({ Self.sameKey(a[$0].key, b[$0].key) }) else {
                return diff(members: a, b, at: path)
            }
            // A member's path is made only when it changed (most members of a keystroke's
            // state did not: the same cached box, or an equal leaf), compared in place.
            for index in a.indices where !Self.isSame(a[index].value, b[index].value) {
                diff(a[index].value, b[index].value, at: path + "/" + Self.escape(b[index].key.description))
            }
        case let (.list(a), .list(b)):
            diff(list: a, b, at: path)
        default:
            if old != new { replace(path, new.json) }
        }
    }

    /// An object whose members came or went (positions by list): each member gone is
    /// removed, each new one added, and those in both are patched, so a change to one entry
    /// touches only its path. Only while the order stays what an applier rebuilds (the members
    /// kept in their order, new ones after them: an `add` appends); else the whole object is
    /// replaced, so the patched text stays the state's, byte for byte.
    private mutating func diff(members old: [StateMember], _ new: [StateMember], at path: String) {
        let kept = old.filter { member in new.contains { Self.sameKey($0.key, member.key) } }
        guard kept.count <= new.count, zip(kept, new).allSatisfy({ Self.sameKey($0.key, $1.key) }) else {
            replace(path, StateNode.object(new).json)
            return
        }
        for member in old where !kept.contains(where: { Self.sameKey($0.key, member.key) }) {
            operation(.remove, path + "/" + Self.escape(member.key.description), nil)
        }
        for (before, after) in zip(kept, new) where !Self.isSame(before.value, after.value) {
            diff(before.value, after.value, at: path + "/" + Self.escape(after.key.description))
        }
        for member in new[kept.count...] { operation(.add, path + "/" + Self.escape(member.key.description), member.value.json) }
    }

    private mutating func diff(list old: [StateNode], _ new: [StateNode], at path: String) {
        if new.count == old.count, case .object = new.first?.uncached {
            // Objects (Discover's sections) element by element: an unchanged one is the same
            // box and costs one comparison; comparing them whole first would compare every film.
            for index in new.indices { diff(old[index], new[index], at: path + "/\(index)") }
            return
        }
        let common = old.commonPrefixCount(with: new)
        if common == old.count, common == new.count { return }
        if common == old.count {
            for element in new[common...] { operation(.add, path + "/-", element.json) }
        } else if new.count == old.count - 1, old.suffix(from: common + 1, equals: new, from: common) {
            operation(.remove, path + "/\(common)", nil)
        } else if new.count == old.count + 1, old.suffix(from: common, equals: new, from: common + 1) {
            operation(.add, path + "/\(common)", new[common].json)
        } else if new.count == old.count, Self.patchesElementwise(old, new, from: common) {
            for index in common..<new.count where old[index] != new[index] { diff(old[index], new[index], at: path + "/\(index)") }
        } else {
            replace(path, StateNode.list(new).json)
        }
    }

    /// Lists of encoded values of the same length are patched element by element when at most
    /// half of them changed (else one `replace` is smaller); the first `common` are equal.
    private static func patchesElementwise(_ old: [StateNode], _ new: [StateNode], from common: Int) -> Bool {
        (common..<new.count).count { old[$0] != new[$0] } * 2 <= new.count
    }

    private mutating func replace(_ path: String, _ value: JSONFragment) { operation(.replace, path, value) }

    /// A member of a ``TypedStatePart`` that changed, at `path`: a leaf is replaced (the old
    /// one is not described), an object or list is compared node by node.
    mutating func member(_ old: @autoclosure () -> StateNode, _ new: StateNode, at path: String) {
        if case let .fragment(fragment) = new { return replace(path, fragment) }
        diff(old(), new, at: path)
    }

    private mutating func operation(_ kind: Operation.Kind, _ path: String, _ value: JSONFragment?) {
        operations.append(Operation(kind: kind, path: path, value: value))
    }

    /// True when two members' keys are the same: the same constant (one pointer comparison)
    /// or equal text.
    private static func sameKey(_ a: StaticString, _ b: StaticString) -> Bool {
        if a.hasPointerRepresentation && b.hasPointerRepresentation && a.utf8Start == b.utf8Start { return true }
        return a.description == b.description
    }

    /// True when `a` and `b` are known equal without looking inside: the same cached box, or
    /// equal leaves.
    private static func isSame(_ a: StateNode, _ b: StateNode) -> Bool {
        if case let .cached(x) = a, case let .cached(y) = b { return x === y }
        if case let .typed(x) = a, case let .typed(y) = b { return x === y }
        if case let .fragment(x) = a, case let .fragment(y) = b { return x.text == y.text }
        return false
    }

    /// A key as a JSON Pointer reference token (RFC 6901: `~` is `~0`, `/` is `~1`).
    static func escape(_ key: String) -> String {
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
        var escaped = ""
        for character in key {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
