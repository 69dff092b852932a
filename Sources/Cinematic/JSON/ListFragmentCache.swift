import CJansson
import Synchronization

/// Encodes the elements of a list once per distinct element: a page appended to 2,000 films
/// encodes 20, a removed favorite encodes none. Elements are reused while equal: by position
/// (a list that grew keeps its prefix; one element inserted or removed keeps the rest, found
/// by comparing, not hashing), else by `key` (a film's id, for a list whose elements moved). An unchanged list (the same array storage) returns the very same nodes, so a patch
/// compares it in constant time. Only the last list is kept: the cache is bounded by the
/// list it encodes.
final class ListFragmentCache<Element: Equatable & Sendable, Key: Hashable & Sendable>: Sendable {
    private let key: @Sendable (Element) -> Key
    private let encode: @Sendable (Element) -> UnsafeMutablePointer<json_t>
    private let last = Mutex<(list: [Element], nodes: [StateNode], node: StateNode?)>(([], [], nil))

    /// A cache matching elements by `key` and encoding new ones with `encode`.
    init(key: @escaping @Sendable (Element) -> Key, encode: @escaping @Sendable (Element) -> UnsafeMutablePointer<json_t>) {
        self.key = key
        self.encode = encode
    }

    /// The list as a node: one node per element (each a fragment), serialized at most once
    /// per distinct list; the same node while the list stays the same.
    func node(for list: [Element]) -> StateNode {
        let previous = last.withLock { $0 }
        if let node = previous.node, previous.list == list { return node }
        // Elements kept in place (a page appended, a change further down) reuse their nodes.
        let common = previous.list.commonPrefixCount(with: list)
        var nodes: [StateNode] = []
        nodes.reserveCapacity(list.count)
        nodes.append(contentsOf: previous.nodes[..<common])
        if list.count == previous.list.count + 1, previous.list.suffix(from: common, equals: list, from: common + 1) {
            // One element inserted (a favorite added: at the front): the rest keep their nodes.
            nodes.append(.fragment(JSONFragment(consuming: encode(list[common]))))
            nodes.append(contentsOf: previous.nodes[common...])
        } else if list.count + 1 == previous.list.count, previous.list.suffix(from: common + 1, equals: list, from: common) {
            // One element removed (a favorite removed): the rest keep their nodes.
            nodes.append(contentsOf: previous.nodes[(common + 1)...])
        } else if common < list.count {
            // The rest: reuse what moved (a favorite removed or added above), encode the new.
            var moved: [Key: Int] = [:]
            if common < previous.list.count {
                for index in common..<previous.list.count { moved[key(previous.list[index])] = index }
            }
            for element in list[common...] {
                if let old = moved[key(element)], previous.list[old] == element {
                    nodes.append(previous.nodes[old])
                } else {
                    nodes.append(.fragment(JSONFragment(consuming: encode(element))))
                }
            }
        }
        // A list that only grew says so: its patch is the new elements, found without comparing.
        let base: SerializedNode? = if common == previous.list.count, case let .cached(box)? = previous.node { box } else { nil }
        let node = StateNode.cached(SerializedNode(.list(nodes), appendedTo: base, from: common))
        last.withLock { $0 = (list, nodes, node) }
        return node
    }
}
