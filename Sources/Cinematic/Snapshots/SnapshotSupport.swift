import CJansson
import CinematicDomain
import CinematicFeatures
import MVIKit
import Synchronization

/// The snapshot of a feature that declares none in the schema: the arguments its store was
/// opened with (`nil`: none; `{"movieId": 15249}` for a detail). A restore opens a store from
/// them, then sends the feature's `restore` intents (x-cinematic.features), so a new feature
/// gets snapshots without writing a line.
struct ArgumentsSnapshot: Sendable, Equatable {
    /// The arguments as JSON, nil when the store was opened without any.
    let arguments: JSONFragment?

    static let none = ArgumentsSnapshot(arguments: nil)
}

/// What a host shows that the state does not know, saved by the host into a snapshot's
/// `view` and carried through restores untouched (schema `snapshotView`): at most
/// ``maximumBytes`` encoded and ``maximumDepth`` levels deep. `firstVisibleIndex` is read.
struct SnapshotView: Sendable, Equatable {
    static let maximumBytes = 4096
    static let maximumDepth = 8

    /// The view object as the host wrote it; nil when the snapshot has none.
    let json: JSONFragment?
    /// The first visible item of a list, when the host said so.
    let firstVisibleIndex: Int?

    static let none = SnapshotView(json: nil, firstVisibleIndex: nil)

    /// Reads and bounds a snapshot's `view`.
    static func read(_ member: JSONValueReader) throws(APIError) -> SnapshotView {
        let object = try member.object("an object (the host's view)")
        guard depth(of: member.value, limit: maximumDepth + 1) <= maximumDepth else {
            throw .invalid("view nests deeper than \(maximumDepth) levels", at: member.path)
        }
        let json = JSONFragment(copying: member.value)
        guard json.text.utf8.count <= maximumBytes else {
            throw .invalid("view is larger than \(maximumBytes) bytes", at: member.path)
        }
        let index = try object.optional("firstVisibleIndex").map { value throws(APIError) in
            try value.int(minimum: 0, maximum: Int.max)
        }
        return SnapshotView(json: json, firstVisibleIndex: index)
    }

    /// How deep `value` nests, counting no further than `limit` (bounded work on hostile input).
    private static func depth(of value: UnsafeMutablePointer<json_t>, limit: Int) -> Int {
        guard limit > 0 else { return 1 }
        var deepest = 0
        JSONChildren.forEach(of: value) { _, child in
            deepest = max(deepest, depth(of: child, limit: limit - 1))
            return deepest < limit
        }
        return deepest + 1
    }
}

/// What a store was opened from, kept for its snapshots: the arguments (the default snapshot)
/// and the host's view of a restored store (saved again until the host writes another).
final class StoreOrigin: Sendable {
    private let value = Mutex<(arguments: ArgumentsSnapshot, view: SnapshotView)>((.none, .none))

    var arguments: ArgumentsSnapshot { value.withLock { $0.arguments } }
    var view: SnapshotView { value.withLock { $0.view } }

    func set(arguments: ArgumentsSnapshot, view: SnapshotView) { value.withLock { $0 = (arguments, view) } }
}

extension FeatureCodec where Snapshot == ArgumentsSnapshot {
    /// A snapshot's data is an arguments object (`{}` for none), checked when the store opens.
    static func decodeSnapshot(_ data: JSONObjectReader) throws(APIError) -> ArgumentsSnapshot {
        data.keys.isEmpty ? .none : ArgumentsSnapshot(arguments: JSONFragment(copying: data.object))
    }

    static func encodeSnapshot(_ snapshot: ArgumentsSnapshot) -> JSONFragment {
        snapshot.arguments ?? JSONFragment(consuming: JSONBuilder.object())
    }

    static func snapshot(of state: Reducer.State, origin: StoreOrigin) -> ArgumentsSnapshot { origin.arguments }

    static func makeStore(restoring snapshot: ArgumentsSnapshot, view: SnapshotView, serial: UInt64, environment: StoreEnvironment,
                          delivery: StoreDelivery) throws(APIError) -> any FeatureStore {
        let arguments = try snapshot.arguments.map { fragment throws(APIError) in try JSONDocument(parsing: fragment.text) }
        return try makeStore(arguments: arguments, serial: serial, environment: environment, delivery: delivery)
    }
}

extension FeatureCodec {
    /// Opens a store from a snapshot's data and view: the feature's own restore
    /// (``makeStore(restoring:view:serial:environment:delivery:)``), then its `restore` intents.
    static func restore(_ data: JSONObjectReader, view: SnapshotView, serial: UInt64, environment: StoreEnvironment,
                        delivery: StoreDelivery) throws(APIError) -> any FeatureStore {
        let snapshot = try decodeSnapshot(data)
        let store = try makeStore(restoring: snapshot, view: view, serial: serial, environment: environment, delivery: delivery)
        if let typed = store as? CodecStore<Self> {
            for intent in restoreIntents { typed.start(.host(intent)) }
        }
        return store
    }

    /// True when the feature declares no snapshot (its snapshot is its arguments).
    static var snapshotIsArguments: Bool { Snapshot.self == ArgumentsSnapshot.self }

    /// The data of a snapshot of `state`, as JSON.
    static func snapshotData(of state: Reducer.State, origin: StoreOrigin) -> JSONFragment {
        encodeSnapshot(snapshot(of: state, origin: origin))
    }
}

extension JSONValueReader {
    /// An integer within `minimum...maximum` (a schema `minimum` / `maximum`).
    func int(minimum: Int, maximum: Int) throws(APIError) -> Int {
        let value = try int()
        guard value >= minimum, value <= maximum else {
            throw .invalid(maximum == Int.max ? "expected an integer >= \(minimum), found \(value)"
                                              : "expected an integer in \(minimum)...\(maximum), found \(value)", at: path)
        }
        return value
    }

    /// An array of at most `maxItems` values of `type` (its size is checked before any is read).
    func list<T: WireValue>(of type: T.Type, maxItems: Int) throws(APIError) -> [T] {
        guard self.type == .array else { _ = try array(); return [] }
        guard json_array_size(value) <= maxItems else {
            throw .invalid("more than \(maxItems) items (\(json_array_size(value)))", at: path)
        }
        var values: [T] = []
        for element in try array() { values.append(try T.read(element)) }
        return values
    }
}

/// A restored Discover section on the wire (schema `discoverSnapshotSection`).
extension DiscoverRestoredSection: WireValue {
    static func read(_ member: JSONValueReader) throws(APIError) -> DiscoverRestoredSection {
        let object = try member.object("a section {\"section\", \"pagesLoaded\"}")
        try object.rejectUnknownKeys(allowing: ["section", "pagesLoaded"])
        return DiscoverRestoredSection(section: try DiscoverSection.read(object.required("section")),
                                       pages: try object.required("pagesLoaded").int(minimum: 0, maximum: Int.max))
    }

    var wireNode: UnsafeMutablePointer<json_t> {
        JSONBuilder.object(["section": section.wireNode, "pagesLoaded": JSONBuilder.int(pages)])
    }
}
