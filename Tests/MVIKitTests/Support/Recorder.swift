import Synchronization

/// A thread-safe list that effects, observers and callbacks append to.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    /// Everything recorded so far, in order.
    var values: [Value] { storage.withLock { $0 } }

    /// How many values were recorded.
    var count: Int { storage.withLock { $0.count } }

    func append(_ value: Value) { storage.withLock { $0.append(value) } }
}

/// A thread-safe flag.
final class Flag: Sendable {
    private let storage = Mutex(false)

    var isSet: Bool { storage.withLock { $0 } }

    func set() { storage.withLock { $0 = true } }
}

/// A thread-safe optional value, set once by one side and read by the other.
final class Slot<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)

    var value: Value? { storage.withLock { $0 } }

    func store(_ value: Value) { storage.withLock { $0 = value } }
}
