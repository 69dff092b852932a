import CinematicThreads

/// What a ``CodecStore`` needs of its runtime to run and be heard: the queue its states are
/// delivered through, the executor its effects run on, and how much history it keeps
/// (config `history`). Built once by the runtime; a store holds no reference to the runtime.
struct StoreDelivery: Sendable {
    /// The runtime's delivery queue (states, in order, never two callbacks at once).
    let queue: DeliveryQueue
    /// The runtime's effect thread.
    let effects: ThreadExecutor
    /// Debug history entries kept per store (0: none).
    let historyCapacity: Int
}
