import MVIKit
import Testing

extension Store {
    /// `settle()` with a bound: waits (through ``Store/whenSettled(_:)``, the primitive under
    /// `settle()`) until no effect is in flight, but records a test failure instead of hanging
    /// when the store never settles, e.g. because a broken store kept a replaced effect that
    /// is still waiting on a scripted answer.
    public func settle(within timeout: Duration, sourceLocation: SourceLocation = #_sourceLocation) async {
        let settled = Flag()
        let waiter = whenSettled { settled.set() }
        let ok = await waitUntil("the store settled", timeout: timeout, sourceLocation: sourceLocation) { settled.isSet }
        if !ok { waiter.cancel() }
    }
}
