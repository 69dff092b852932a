@testable import Cinematic
import CinematicDomain
import Foundation
import Testing

/// Lists of films encoded once per film (JSON/ListFragmentCache.swift) and patched by what
/// changed (JSON/StatePatch.swift): a page appended is adds of its films, a film changed in
/// place is encoded again even when the rest of the list is reused without comparing it.
@Suite("List fragments and their patches")
struct ListFragmentCacheTests {
    /// A film; `title` longer than a small string, so equal films built apart have different storage.
    func film(_ id: Int, rating: Double = 7, title: String? = nil) -> Movie {
        Movie(id: id, title: title ?? "A film with a long enough title \(id)", year: 2000, runtime: 90, rating: rating,
              votes: 10, genres: ["Drama"], mpaa: nil)
    }

    /// The patch between two encodings of lists, as `[[op, path, value?]]` with values parsed.
    func operations(_ old: StateNode, _ new: StateNode) throws -> [[String]] {
        let key: StaticString = "list"
        let patch = StatePatch(from: .object([(key: key, value: old)]), to: .object([(key: key, value: new)]))
        let parsed = try JSONSerialization.jsonObject(with: Data(patch.json.text.utf8)) as? [[String: Any]] ?? []
        return parsed.map { operation -> [String] in
            var described = [operation["op"] as? String ?? "?", operation["path"] as? String ?? "?"]
            if let value = operation["value"] as? [String: Any], let id = value["id"] as? Int { described.append("\(id)") }
            return described
        }
    }

    /// The ids and ratings a list node encodes.
    func decoded(_ node: StateNode) throws -> [[Double]] {
        let list = try JSONSerialization.jsonObject(with: Data(node.json.text.utf8)) as? [[String: Any]] ?? []
        return list.map { [($0["id"] as? NSNumber)?.doubleValue ?? -1, ($0["rating"] as? NSNumber)?.doubleValue ?? -1] }
    }

    @Test("a page appended is an add of each new film, and the list encodes whole")
    func appendedPage() throws {
        let cache = MovieFragments()
        let first = (1...40).map { film($0) }
        let before = cache.node(for: first)
        let grown = first.appendingPage((41...60).map { film($0) })
        let after = cache.node(for: grown)
        #expect(try operations(before, after) == (41...60).map { ["add", "/list/-", "\($0)"] })
        #expect(try decoded(after) == grown.map { [Double($0.id), $0.rating] })
    }

    @Test("a film changed in place is encoded again; the films around it are not patched")
    func filmChangedInPlace() throws {
        let cache = MovieFragments()
        let list = (1...30).map { film($0) }
        let before = cache.node(for: list)
        var changed = list
        changed[10] = film(11, rating: 9.5)   // same id, new rating: equal ids must not be enough
        let after = cache.node(for: changed)
        #expect(try operations(before, after) == [["replace", "/list/10", "11"]])
        #expect(try decoded(after)[10] == [11, 9.5])
        // And a change at the very end of a list that also grew.
        var grown = changed + [film(31)]
        grown[29] = film(30, rating: 1)
        let last = cache.node(for: grown)
        #expect(try decoded(last).suffix(2) == [[30, 1], [31, 7]])
        #expect(try operations(after, last).contains(["add", "/list/-", "31"]) == false)
    }

    @Test("equal films built apart (other storage) are reused: nothing to patch")
    func equalFilmsBuiltApart() throws {
        let cache = MovieFragments()
        let before = cache.node(for: (1...25).map { film($0) })
        let rebuilt = (1...25).map { film($0, title: String("A film with a long enough title \($0)".reversed().reversed())) }
        #expect(try operations(before, cache.node(for: rebuilt)).isEmpty)
    }

    @Test("a favorite removed is one remove; one added at the top is one add at 0")
    func removedAndInserted() throws {
        let cache = MovieFragments()
        let list = (1...50).map { film($0) }
        let before = cache.node(for: list)
        var removed = list
        removed.remove(at: 17)
        let afterRemoval = cache.node(for: removed)
        #expect(try operations(before, afterRemoval) == [["remove", "/list/17"]])
        let inserted = [film(99)] + removed
        #expect(try operations(afterRemoval, cache.node(for: inserted)) == [["add", "/list/0", "99"]])
    }

    @Test("one film inserted or removed anywhere encodes exactly as a fresh encoding of the list",
          arguments: ["insert first", "insert middle", "insert last", "remove first", "remove middle", "remove last",
                      "insert a duplicate", "swap two", "insert one and change another", "remove one and change another"])
    func oneChangeEncodesAsFresh(edit: String) throws {
        let cache = MovieFragments()
        let list = (1...30).map { film($0) }
        _ = cache.node(for: list)
        var changed = list
        switch edit {
        case "insert first": changed.insert(film(99), at: 0)
        case "insert middle": changed.insert(film(99), at: 13)
        case "insert last": changed.append(film(99))
        case "remove first": changed.removeFirst()
        case "remove middle": changed.remove(at: 13)
        case "remove last": changed.removeLast()
        case "insert a duplicate": changed.insert(film(5), at: 5)
        case "insert one and change another":
            changed.insert(film(99), at: 0)
            changed[10] = film(10, rating: 9)
        case "remove one and change another":
            changed.removeFirst()
            changed[10] = film(12, rating: 9)
        default: changed.swapAt(3, 20)
        }
        #expect(try decoded(cache.node(for: changed)) == decoded(MovieFragments().node(for: changed)))
        #expect(try decoded(cache.node(for: list)) == decoded(MovieFragments().node(for: list)))
    }
}
