import Synchronization

/// A thread-safe list that effects, observers and callbacks append to.
public final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    public init() {}

    /// Everything recorded so far, in order.
    public var values: [Value] { storage.withLock { $0 } }

    /// How many values were recorded.
    public var count: Int { storage.withLock { $0.count } }

    public func append(_ value: Value) { storage.withLock { $0.append(value) } }
}

/// A thread-safe flag.
public final class Flag: Sendable {
    private let storage = Mutex(false)

    public init() {}

    public var isSet: Bool { storage.withLock { $0 } }

    public func set() { storage.withLock { $0 = true } }
}

/// A thread-safe optional value, set once by one side and read by the other.
public final class Slot<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)

    public init() {}

    public var value: Value? { storage.withLock { $0 } }

    public func store(_ value: Value) { storage.withLock { $0 = value } }

    /// Empties the slot (e.g. to break a reference cycle a test built on purpose).
    public func clear() { storage.withLock { $0 = nil } }
}
