import Synchronization

/// What one patch-mode observation delivered: a sequence number and the last state, so each
/// delivery is the change since the previous one.
///
/// The first delivery is `{"seq":1,"state":{…}}`; each later one is
/// `{"seq":n,"patch":[…]}`, an RFC 6902 JSON Patch from delivery n−1's state to this one
/// (``StatePatch``). A state that encodes like the last one delivers nothing, so sequence
/// numbers have no gaps: a host that sees one (it dropped a delivery) observes again to get
/// the whole state.
final class PatchedDelivery: Sendable {
    private let last = Mutex<(sequence: Int, state: StateNode?)>((0, nil))

    /// The envelope that delivers `state`, or nil when nothing changed since the last one.
    func next(_ state: StateNode) -> JSONFragment? {
        last.withLock { last in
            guard let previous = last.state else {
                last = (1, state)
                return .object(["seq": .int(1), "state": state.json])
            }
            let patch = StatePatch(from: previous, to: state)
            guard !patch.isEmpty else { return nil }
            last = (last.sequence + 1, state)
            var writer = JSONTextWriter()
            writer.append(raw: #"{"seq":"#)
            writer.append(.int(last.sequence))
            writer.append(raw: #","patch":"#)
            patch.write(into: &writer)
            writer.append(raw: "}")
            return writer.fragment
        }
    }
}
