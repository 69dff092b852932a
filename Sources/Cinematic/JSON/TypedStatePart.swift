import Synchronization

/// A part of a state that compares itself, as a typed value, with the part it follows and
/// patches only the members that changed: it is described as nodes only when something reads
/// it whole (a first delivery, a snapshot, a state read), never to find what a keystroke
/// changed. The app's view is one: on a keystroke two of its strings change, and comparing
/// its fields costs less than describing them all again.
///
/// ```swift
/// final class ListPart: TypedStatePart, @unchecked Sendable {
///     override func describe() -> StateNode { .object([("status", .string(list.status))]) }
///     override func patch(from old: TypedStatePart, at path: String, into patch: inout StatePatch) -> Bool {
///         guard let old = old as? ListPart else { return false }
///         if old.list.status != list.status { patch.member(.string(old.list.status), .string(list.status), at: path + "/status") }
///         return true
///     }
/// }
/// ```
class TypedStatePart: @unchecked Sendable {
    // @unchecked: the only stored state is the Mutex below (subclasses add immutable lets).
    private let described = Mutex<StateNode?>(nil)

    /// The part as an object node (described once, when first asked).
    final var node: StateNode {
        if let node = described.withLock({ $0 }) { return node }
        let node = describe()
        described.withLock { $0 = node }
        return node
    }

    /// The part described (a subclass's).
    func describe() -> StateNode { .null }

    /// Records in `patch` what turns `old` into this part, at `path`. False when `old` is
    /// another kind of part (the patch then compares their nodes).
    func patch(from old: TypedStatePart, at path: String, into patch: inout StatePatch) -> Bool { false }
}

/// The members of a typed part's value, in wire order: each one's key and whether two values
/// hold it alike. A part describes and patches itself through them (``object(_:)``,
/// ``patch(_:_:old:new:at:into:)``), so only its member list is its own.
protocol TypedPartMembers: CaseIterable {
    /// The value whose members these are.
    associatedtype Value
    /// The member's key.
    var key: StaticString { get }
    /// True when `a` and `b` hold this member alike (compared in place, nothing described).
    func same(_ a: Value, _ b: Value) -> Bool
}

extension TypedPartMembers {
    /// The value described: each member's node (`node`), in order.
    static func object(_ node: (Self) -> StateNode) -> StateNode { .object(allCases.map { ($0.key, node($0)) }) }

    /// Records in `patch` the members of `new` that `old` does not hold alike, at `path`: a leaf
    /// replaced, an object or list compared node by node (`oldNode`, `newNode` describe them).
    static func patch(_ old: Value, _ new: Value, old oldNode: (Self) -> StateNode, new newNode: (Self) -> StateNode,
                      at path: String, into patch: inout StatePatch) {
        for member in allCases where !member.same(old, new) {
            patch.member(oldNode(member), newNode(member), at: path + "/" + member.key.description)
        }
    }
}
