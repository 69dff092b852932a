/// One reduced intent in a store's debug history.
public struct HistoryEntry<State: Sendable, Intent: Sendable>: Sendable {
    /// The intent that was reduced.
    public let intent: Intent
    /// The state before the reduce.
    public let before: State
    /// The state after the reduce.
    public let after: State
}

/// A bounded ring of history entries: the oldest entry is dropped when full.
struct HistoryRing<State: Sendable, Intent: Sendable> {
    let capacity: Int
    private var storage: [HistoryEntry<State, Intent>] = []
    private var start = 0

    init(capacity: Int) {
        self.capacity = capacity
        storage.reserveCapacity(capacity)
    }

    mutating func record(_ entry: HistoryEntry<State, Intent>) {
        if storage.count < capacity {
            storage.append(entry)
        } else {
            storage[start] = entry
            start = (start + 1) % capacity
        }
    }

    /// Oldest first.
    var entries: [HistoryEntry<State, Intent>] { Array(storage[start...] + storage[..<start]) }
}
