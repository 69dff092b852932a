import CJansson
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Encodes the elements of a list once per distinct element: a page appended to 2,000 films
/// encodes 20, a removed favorite encodes none. Elements are reused while equal: by position
/// (a list that grew keeps its prefix), else by `key` (a film's id, for a list whose elements
/// moved). An unchanged list (the same array storage) returns the very same nodes, so a patch
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
        let common = Self.commonPrefix(previous.list, list)
        var nodes: [StateNode] = []
        nodes.reserveCapacity(list.count)
        nodes.append(contentsOf: previous.nodes[..<common])
        if common < list.count {
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

    /// How many elements at the start of `old` and `new` are equal. An element whose stored
    /// bytes are the ones cached (the very same strings and arrays: a list that grew is a copy
    /// of the last one plus a page) is equal without comparing it: one `memcmp` instead of
    /// copying both elements out to compare them member by member, which for 2,000 films cost
    /// more than the rest of a `loadMore`. Others are compared with `==`.
    private static func commonPrefix(_ old: [Element], _ new: [Element]) -> Int {
        old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                let count = min(old.count, new.count), size = MemoryLayout<Element>.size
                guard count > 0, let a = old.baseAddress, let b = new.baseAddress else { return 0 }
                var common = 0
                while common < count, memcmp(a + common, b + common, size) == 0 || a[common] == b[common] { common += 1 }
                return common
            }
        }
    }
}
