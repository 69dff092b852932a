import CJansson
import Synchronization

/// Encodes the elements of a list once per distinct element: a page appended to 2,000 films
/// encodes 20, a removed favorite encodes none. Elements are matched by `key` (a film's id)
/// and reused while equal; an unchanged list (the same array storage) costs one comparison.
/// The cache keeps only the last list's elements, so it is bounded by the list it encodes.
final class ListFragmentCache<Element: Equatable & Sendable, Key: Hashable & Sendable>: Sendable {
    private let key: @Sendable (Element) -> Key
    private let encode: @Sendable (Element) -> UnsafeMutablePointer<json_t>
    private let last = Mutex<(list: [Element], fragments: [JSONFragment], byKey: [Key: Int])>(([], [], [:]))

    /// A cache matching elements by `key` and encoding new ones with `encode`.
    init(key: @escaping @Sendable (Element) -> Key, encode: @escaping @Sendable (Element) -> UnsafeMutablePointer<json_t>) {
        self.key = key
        self.encode = encode
    }

    /// The fragment of each element of `list`, in order.
    func fragments(for list: [Element]) -> [JSONFragment] {
        let previous = last.withLock { $0 }
        if previous.list == list { return previous.fragments }
        var byKey: [Key: Int] = [:]
        byKey.reserveCapacity(list.count)
        var fragments: [JSONFragment] = []
        fragments.reserveCapacity(list.count)
        for (index, element) in list.enumerated() {
            let elementKey = key(element)
            if byKey[elementKey] == nil { byKey[elementKey] = index }
            if index < previous.list.count, previous.list[index] == element {
                fragments.append(previous.fragments[index])
            } else if let old = previous.byKey[elementKey], previous.list[old] == element {
                fragments.append(previous.fragments[old])
            } else {
                fragments.append(JSONFragment(consuming: encode(element)))
            }
        }
        last.withLock { $0 = (list, fragments, byKey) }
        return fragments
    }
}
