#if canImport(Glibc)
import Glibc
#endif

extension Array where Element: Equatable {
    /// How many elements at the start of this array and `other` are equal, compared in place.
    /// An element whose stored bytes are the other's (the very same strings, arrays and boxes:
    /// a list that grew is a copy of the last one plus a page) is equal after one `memcmp`,
    /// without copying both out to compare them member by member (for 2,000 films that copying
    /// cost more than the rest of a `loadMore`); others are compared with `==`.
    func commonPrefixCount(with other: [Element]) -> Int {
        withUnsafeBufferPointer { old in
            other.withUnsafeBufferPointer { new in
                let count = Swift.min(old.count, new.count), size = MemoryLayout<Element>.size
                guard count > 0, let a = old.baseAddress, let b = new.baseAddress else { return 0 }
                var common = 0
                while common < count, memcmp(a + common, b + common, size) == 0 || a[common] == b[common] { common += 1 }
                return common
            }
        }
    }

    /// True when the elements from `start` to the end equal `other`'s from `otherStart` to
    /// its end, compared in place as ``commonPrefixCount(with:)`` does (one film inserted or
    /// removed: the rest of a 1,000-film list is compared without copying a film).
    func suffix(from start: Int, equals other: [Element], from otherStart: Int) -> Bool {
        guard count - start == other.count - otherStart, start >= 0, otherStart >= 0 else { return false }
        return withUnsafeBufferPointer { old in
            other.withUnsafeBufferPointer { new in
                let size = MemoryLayout<Element>.size
                guard let a = old.baseAddress, let b = new.baseAddress else { return true }
                var index = 0
                while start + index < old.count {
                    let x = a + start + index, y = b + otherStart + index
                    guard memcmp(x, y, size) == 0 || x.pointee == y.pointee else { return false }
                    index += 1
                }
                return true
            }
        }
    }
}
