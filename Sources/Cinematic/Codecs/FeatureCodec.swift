import CJansson
import CinematicDomain
import MVIKit

/// One feature on the wire. Its schema entry (schema/cinematic.schema.json,
/// `x-cinematic.features`) declares the name, the host intents with their members and the
/// internal intents' names; `make generate` turns that into the codec's generated extension
/// (Generated/FeatureWire.swift: `name`, `HostKind`, `InternalKind`, `decodeHost`,
/// `encodeHost`) and the list ``FeatureCatalog`` iterates. The hand-written rest is the
/// feature's wire description: how a store is opened, how its state is encoded (one member
/// list) and how its internal intents are encoded for the debug history and recordings.
///
/// Host intents are the feature's `Intent.Host` cases, named as their wire `type`: adding an
/// intent to the schema fails to compile until the reducer has the case, and no internal
/// intent can ever be decoded.
protocol FeatureCodec: Sendable {
    associatedtype Reducer: MVIKit.Reducer where Reducer.Intent: HostIntents
    /// The wire `type` of each host intent (generated).
    associatedtype HostKind: RawRepresentable, CaseIterable where HostKind.RawValue == String
    /// The wire `type` of each internal intent (generated).
    associatedtype InternalKind: RawRepresentable, CaseIterable where InternalKind.RawValue == String

    /// A codec with empty caches.
    init()

    /// The name `cinematic_store_open` takes (generated).
    static var name: String { get }
    /// Arguments a store of this feature can always be opened with (nil when it takes none):
    /// for tests and the fuzz target (generated from the schema's `sampleArgs`).
    static var sampleArguments: String? { get }

    /// Opens a store of this feature with the host's arguments, built from `environment`
    /// and delivering through `delivery`.
    static func makeStore(arguments: JSONDocument?, serial: UInt64, environment: StoreEnvironment,
                          delivery: StoreDelivery) throws(APIError) -> any FeatureStore

    /// Decodes the members of a host intent of `kind` (generated).
    func decodeHost(_ kind: HostKind, _ intent: IntentReader) throws(APIError) -> Reducer.Intent.Host

    /// Encodes a host intent as a host sends it (generated).
    static func encodeHost(_ intent: Reducer.Intent.Host) -> EncodedIntent

    /// A state's top-level members, in wire order, each already encoded: the one description
    /// of the state. Codecs may cache the fragments of parts that rarely change.
    /// ``encodeState(_:)`` joins them; the debug history and the log compare them to say which
    /// members an intent changed.
    func stateMembers(_ state: Reducer.State) -> [StateMember]

    /// What a snapshot of this feature holds: a struct generated from the schema def its
    /// `x-cinematic.features` entry names as `"snapshot"`, else ``ArgumentsSnapshot`` (the
    /// store's arguments; everything below then has a default). docs/wire.md, "Snapshots".
    associatedtype Snapshot: Sendable
    /// The host intents a restored store sends itself once open (generated from `"restore"`).
    static var restoreIntents: [Reducer.Intent.Host] { get }
    /// Reads a snapshot's data (generated).
    static func decodeSnapshot(_ data: JSONObjectReader) throws(APIError) -> Snapshot
    /// Writes a snapshot's data (generated).
    static func encodeSnapshot(_ snapshot: Snapshot) -> JSONFragment
    /// What a person expects back from `state` (the store was opened from `origin`).
    static func snapshot(of state: Reducer.State, origin: StoreOrigin) -> Snapshot
    /// Opens a store from a snapshot: its state says what is loading, and the effects that
    /// reload it start here (never copies of old results). Bounded work whatever the snapshot.
    static func makeStore(restoring snapshot: Snapshot, view: SnapshotView, serial: UInt64, environment: StoreEnvironment,
                          delivery: StoreDelivery) throws(APIError) -> any FeatureStore

    /// The parts of this feature's state a child handle may show (`cinematic_store_scope`);
    /// none unless the feature composes others (the app). Default: none.
    static var scopes: [String] { get }
    /// The node of scope `name` in `state` (`null` when it shows nothing now).
    func scopeNode(_ name: String, of state: Reducer.State) -> StateNode
    /// A child handle's intent document (`root`) as this feature's host intent.
    func scopeIntent(_ name: String, _ root: JSONValueReader) throws(APIError) -> Reducer.Intent

    /// Encodes any intent, internal ones included (`{"type":"resultsLoaded",…}`), for the
    /// debug history, the log and recordings: host intents through ``encodeHost(_:)``,
    /// internal ones through ``result(_:_:source:)``.
    static func encodeIntent(_ intent: Reducer.Intent) -> EncodedIntent
}

extension FeatureCodec {
    /// No scopes.
    static var scopes: [String] { [] }

    /// The node of scope `name` in `state` (`null` when it shows nothing now).
    func scopeNode(_ name: String, of state: Reducer.State) -> StateNode { .null }

    /// A child handle's intent document (`root`) as this feature's host intent.
    func scopeIntent(_ name: String, _ root: JSONValueReader) throws(APIError) -> Reducer.Intent {
        throw .invalid("\(Self.name) has no scope \"\(name)\"", at: "$")
    }
}

/// The internal intent kinds of a feature whose effects feed nothing back (or that has no
/// effects): there are none.
enum NoInternalIntents: RawRepresentable, CaseIterable, Sendable {
    init?(rawValue: String) { nil }
    var rawValue: String { switch self {} }
    static var allCases: [NoInternalIntents] { [] }
}

/// An intent as JSON, and whether a host may send it (internal intents are effect results).
struct EncodedIntent: Sendable {
    /// The wire `type`.
    let type: String
    let json: JSONFragment
    let isHost: Bool

    /// `{"type": type, members…}` (members stolen).
    static func host(_ type: String, _ members: KeyValuePairs<String, UnsafeMutablePointer<json_t>> = [:]) -> EncodedIntent {
        EncodedIntent(type: type, json: node(type, members), isHost: true)
    }

    /// An internal intent: `{"type": type, members…}` (members stolen), with where its answer
    /// came from (`"source"`, `"cachedAt"`; nothing for `.local`) when given.
    /// What the debug history shows for a state set back by time travel (no intent).
    static var revert: EncodedIntent { .internal("revert") }

    fileprivate static func `internal`(_ type: String, _ members: KeyValuePairs<String, UnsafeMutablePointer<json_t>> = [:],
                           source: AnswerSource? = nil, notes: [(String, UnsafeMutablePointer<json_t>)] = []) -> EncodedIntent {
        EncodedIntent(type: type, json: node(type, members, source: source, notes: notes), isHost: false)
    }

    private static func node(_ type: String, _ members: KeyValuePairs<String, UnsafeMutablePointer<json_t>>,
                             source: AnswerSource? = nil, notes: [(String, UnsafeMutablePointer<json_t>)] = []) -> JSONFragment {
        let object = JSONBuilder.object(["type": JSONBuilder.string(type)])
        for (key, value) in members { JSONBuilder.set(object, key, value) }
        if let source { DomainJSON.set(source, on: object) }
        for (key, value) in notes { JSONBuilder.set(object, key, value) }
        return JSONFragment(consuming: object)
    }
}

extension FeatureCodec {
    /// Encodes a state: `{member: value, …}` in wire order.
    func encodeState(_ state: Reducer.State) -> JSONFragment { stateNode(state).json }

    /// A state as a tree a ``StatePatch`` can compare.
    func stateNode(_ state: Reducer.State) -> StateNode { .object(stateMembers(state)) }

    /// The wire names of every host intent.
    static var hostIntents: [String] { HostKind.allCases.map(\.rawValue) }

    /// The wire names of the internal intents, only to tell a host why one is refused.
    static var internalIntents: [String] { InternalKind.allCases.map(\.rawValue) }

    /// An internal intent: `{"type": kind, members…}` (members stolen), with where its answer
    /// came from (`"source"`, `"cachedAt"`; nothing for `.local`) when given, then `notes`
    /// (members that are there only sometimes, stolen).
    static func result(_ kind: InternalKind, _ members: KeyValuePairs<String, UnsafeMutablePointer<json_t>> = [:],
                       source: AnswerSource? = nil, notes: [(String, UnsafeMutablePointer<json_t>)] = []) -> EncodedIntent {
        .internal(kind.rawValue, members, source: source, notes: notes)
    }

    /// Decodes a host intent document; anything else (an internal intent, an unknown type)
    /// is `invalid`.
    func decodeIntent(_ intent: IntentReader) throws(APIError) -> Reducer.Intent {
        guard let kind = HostKind(rawValue: intent.type) else {
            throw intent.unknown(hostIntents: Self.hostIntents, internalIntents: Self.internalIntents)
        }
        return .host(try decodeHost(kind, intent))
    }

    /// Features without arguments accept NULL or `{}`.
    static func requireNoArguments(_ arguments: JSONDocument?) throws(APIError) {
        guard let arguments else { return }
        let object = try arguments.object("an arguments object")
        try object.rejectUnknownKeys(allowing: [])
    }
}

/// An intent document: an object with a string `type`.
struct IntentReader {
    let object: JSONObjectReader
    let type: String

    init(_ document: JSONDocument) throws(APIError) {
        object = try document.object("an intent object")
        type = try object.required("type").string()
    }

    /// Checks that the intent carries nothing but its `type` (e.g. `{"type":"task"}`).
    func requireNoMembers() throws(APIError) {
        try object.rejectUnknownKeys(allowing: ["type"])
    }

    /// The error for a `type` this feature does not accept from hosts, at this intent's
    /// `type` (`$.type`; `$.intent.type` for an intent nested in an app intent).
    func unknown(hostIntents: [String], internalIntents: [String]) -> APIError {
        let accepted = hostIntents.joined(separator: ", ")
        let path = object.path + ".type"
        if internalIntents.contains(type) {
            return .invalid("\"\(type)\" is an internal effect result; hosts may send: \(accepted)", at: path)
        }
        return .invalid("unknown intent \"\(type)\"; hosts may send: \(accepted)", at: path)
    }
}

/// Every feature a host can open, in the schema's order (generated: ``GeneratedFeatures``):
/// the one list the C API, the fuzz target and the tests iterate.
package enum FeatureCatalog {
    static var all: [any FeatureCodec.Type] { GeneratedFeatures.all }

    /// Every feature name, in order.
    package static var names: [String] { all.map { $0.name } }

    /// Each feature's name with arguments its store can always be opened with.
    package static var samples: [(name: String, arguments: String?)] { all.map { ($0.name, $0.sampleArguments) } }

    /// Each feature's host intent types and internal intent types.
    package static var intentNames: [(name: String, host: [String], internal: [String])] {
        all.map { ($0.name, $0.hostIntents, $0.internalIntents) }
    }

    /// The feature called `name`.
    static func named(_ name: String) throws(APIError) -> any FeatureCodec.Type {
        guard let feature = all.first(where: { $0.name == name }) else {
            throw APIError(.unknownFeature, "unknown feature \"\(name)\"; available: \(names.joined(separator: ", "))")
        }
        return feature
    }
}
