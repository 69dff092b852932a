/// One reduced intent in a store's debug history.
public struct HistoryEntry<State: Sendable, Intent: Sendable>: Sendable {
    /// The entry's number: the store's count of reduced intents when it was reduced (1 for the
    /// first intent the store ever reduced). Numbers keep counting while old entries drop out.
    public let sequence: UInt64
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
        storage.reserveCapacity(min(capacity, 1_024))
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

    /// The entry numbered `sequence`, if it is still kept.
    func entry(numbered sequence: UInt64) -> HistoryEntry<State, Intent>? {
        guard let oldest = storage.isEmpty ? nil : storage[start].sequence,
              sequence >= oldest, sequence - oldest < UInt64(storage.count) else { return nil }
        return storage[(start + Int(sequence - oldest)) % storage.count]
    }
}
