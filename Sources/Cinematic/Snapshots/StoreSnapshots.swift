import CJansson

/// A store snapshot read and checked, ready to open (its document must outlive it).
struct ParsedSnapshot {
    /// The feature it opens.
    let codec: any FeatureCodec.Type
    /// Format 1: the feature's data. Nil for a migrated format-0 snapshot.
    let data: JSONObjectReader?
    /// A format-0 snapshot's arguments (migrated: the store opens from them, as new).
    let legacyArguments: JSONValueReader?
    /// The host's view, carried through.
    let view: SnapshotView
}

/// Snapshots on the wire (docs/wire.md, "Snapshots"; schema `storeSnapshot`,
/// `runtimeSnapshot`, `legacySnapshot`):
///
/// ```json
/// {"format":1,"library":"0.3.0","feature":"search","data":{"query":"dune","pagesLoaded":2},"view":{"firstVisibleIndex":23}}
/// ```
///
/// Compatibility: a snapshot of this library's format is read whatever version wrote it;
/// format 0 (no `"format"`: `{"feature", "args"}`, what a 0.2.0 host could keep, e.g. a
/// recording's `open` line) is migrated (the store opens from its arguments); a newer format
/// is refused with `invalid` naming it and the version that wrote it.
enum Snapshots {
    /// The most stores a runtime snapshot reopens, and the most a runtime keeps open: every
    /// runtime snapshot handed out can be restored.
    static let maximumStores = 256
    /// The input limit of a runtime snapshot (`cinematic_runtime_restore`), over the general
    /// 1 MiB so that the largest snapshot the limits allow restores, with a quarter to spare.
    /// The largest store snapshot is a Search's: its longest query once escaped (256
    /// characters in 1024 bytes: 255 control characters of 6 escaped bytes and one character
    /// of the 769 bytes left, 2299 bytes), the largest page count (19 digits), a 4096-byte view
    /// and a library version of 64 bytes, 6565 bytes in all (Discover at most 4741, Detail
    /// 4252). 256 of them, 255 commas and the 101 bytes around them: 1,680,996 bytes.
    static let maximumRuntimeBytes = 2 << 20
    /// The longest `library` string read.
    static let maximumLibraryLength = 64
    /// Keys a format-0 document may carry (a recording's `open` line has them all).
    private static let legacyKeys: Set<String> = ["feature", "args", "event", "t", "store"]

    /// The snapshot inside store arguments `{"snapshot": {...}}` (nothing else allowed beside
    /// it); nil for ordinary arguments.
    static func snapshotArgument(_ arguments: JSONDocument) throws(APIError) -> JSONValueReader? {
        let root = JSONValueReader(arguments.root, path: "$")
        guard root.type == .object, let object = try? root.object(), let snapshot = object.optional("snapshot") else { return nil }
        try object.rejectUnknownKeys(allowing: ["snapshot"])
        return snapshot
    }

    /// Reads and checks a store snapshot; `expecting` is the feature the caller opens.
    static func readStore(_ reader: JSONValueReader, expecting: String? = nil) throws(APIError) -> ParsedSnapshot {
        let object = try reader.object("a store snapshot object {\"format\", \"feature\", \"data\"}")
        let format = try object.optional("format").map { value throws(APIError) in try value.int() }
        let library = try object.optional("library").map { value throws(APIError) in
            try value.text(maxCharacters: maximumLibraryLength, maxBytes: maximumLibraryLength)
        }
        let writer = library.map { " (written by cinematic \($0))" } ?? ""
        switch format {
        case nil, 0?:
            // Format 0: the feature and its arguments, migrated by opening from them.
            guard object.optional("args") != nil || (format == 0 && object.optional("data") == nil) else {
                throw .invalid("not a cinematic snapshot: no \"format\" (this library writes format \(snapshotFormat))",
                               at: reader.path)
            }
            try object.rejectUnknownKeys(allowing: legacyKeys.union(["format", "library"]))
            let codec = try feature(object, expecting: expecting)
            let arguments = object.optional("args").flatMap { $0.isNull ? nil : $0 }
            if let arguments { _ = try arguments.object("an arguments object") }
            return ParsedSnapshot(codec: codec, data: nil, legacyArguments: arguments, view: .none)
        case let version? where version == snapshotFormat:
            try object.rejectUnknownKeys(allowing: ["format", "library", "feature", "data", "view"])
            let codec = try feature(object, expecting: expecting)
            let data = try object.required("data").object("the feature's snapshot data (an object)")
            let view = try object.optional("view").map { value throws(APIError) in try SnapshotView.read(value) } ?? .none
            return ParsedSnapshot(codec: codec, data: data, legacyArguments: nil, view: view)
        case let version?:
            let relation = version > snapshotFormat ? "is newer than" : "is not"
            throw .invalid("snapshot format \(version)\(writer) \(relation) this library's format \(snapshotFormat) (cinematic "
                           + "\(libraryVersion)): it cannot be read; open the store without it", at: "\(reader.path).format")
        }
    }

    private static func feature(_ object: JSONObjectReader, expecting: String?) throws(APIError) -> any FeatureCodec.Type {
        let name = try object.required("feature").text(maxCharacters: 64, maxBytes: 256)
        if let expecting, name != expecting {
            throw .invalid("a \(name) snapshot cannot open a \(expecting) store", at: "\(object.path).feature")
        }
        return try FeatureCatalog.named(name)
    }

    /// A store's snapshot: `{"format","library","feature","data"[,"view"]}`.
    static func storeJSON(_ store: any FeatureStore) -> JSONFragment {
        storeJSON(feature: store.featureName, data: store.snapshotData(), view: store.origin.view.json)
    }

    /// A store snapshot of `feature` holding `data` (and the host's `view`).
    static func storeJSON(feature: String, data: JSONFragment, view: JSONFragment? = nil) -> JSONFragment {
        var members: [(key: StaticString, value: JSONFragment)] = [
            ("format", .int(snapshotFormat)), ("library", .string(libraryVersion.description)),
            ("feature", .string(feature)), ("data", data),
        ]
        if let view { members.append(("view", view)) }
        return .object(members)
    }

    /// A runtime's snapshot: every open store, in the order they were opened.
    static func runtimeJSON(_ stores: [any FeatureStore]) -> JSONFragment {
        .object([("format", .int(snapshotFormat)), ("library", .string(libraryVersion.description)),
                 ("stores", .array(stores.map(storeJSON)))])
    }

    /// Reads a runtime snapshot's stores (every one checked before any opens).
    static func readRuntime(_ document: JSONDocument) throws(APIError) -> [ParsedSnapshot] {
        let root = JSONValueReader(document.root, path: "$")
        let object = try root.object("a runtime snapshot object {\"format\", \"stores\"}")
        let format = try object.required("format").int()
        guard format == snapshotFormat else {
            let library = (try? object.optional("library")?.string()).flatMap { $0 }.map { " (written by cinematic \(String($0.prefix(64))))" } ?? ""
            throw .invalid("runtime snapshot format \(format)\(library) is not this library's format \(snapshotFormat) (cinematic "
                           + "\(libraryVersion)): it cannot be read", at: "$.format")
        }
        try object.rejectUnknownKeys(allowing: ["format", "library", "stores"])
        if let library = object.optional("library") {
            _ = try library.text(maxCharacters: maximumLibraryLength, maxBytes: maximumLibraryLength)
        }
        let stores = try object.required("stores")
        guard stores.type != .array || json_array_size(stores.value) <= maximumStores else {
            throw .invalid("more than \(maximumStores) stores (\(json_array_size(stores.value)))", at: stores.path)
        }
        var parsed: [ParsedSnapshot] = []
        for store in try stores.array() { parsed.append(try readStore(store)) }
        return parsed
    }
}

extension Runtime {
    /// Opens the store a parsed snapshot describes; recordings show it opened with
    /// `recordedArguments` (`{"snapshot": …}`), so a replay restores it the same way.
    func restoreStore(_ snapshot: ParsedSnapshot, recordedArguments: JSONFragment) throws(APIError) -> OpaquePointer {
        let codec = snapshot.codec
        if let data = snapshot.data {
            let arguments = codec.snapshotIsArguments && !data.keys.isEmpty ? JSONFragment(copying: data.object) : nil
            return try registerStore(feature: codec.name, recordedArguments: recordedArguments,
                                     origin: (ArgumentsSnapshot(arguments: arguments), snapshot.view)) { serial throws(APIError) in
                try codec.restore(data, view: snapshot.view, serial: serial, environment: environment, delivery: delivery)
            }
        }
        // Format 0: the arguments it was opened with, checked as arguments; the store opens as new.
        let arguments = try snapshot.legacyArguments.map { value throws(APIError) in
            try JSONDocument(parsing: JSONFragment(copying: value.value).text)
        }
        let recorded = arguments.map { JSONFragment(copying: $0.root) }
        return try registerStore(feature: codec.name, recordedArguments: recordedArguments,
                                 origin: (ArgumentsSnapshot(arguments: recorded), .none)) { serial throws(APIError) in
            try codec.makeStore(arguments: arguments, serial: serial, environment: environment, delivery: delivery)
        }
    }

    /// Snapshot of every open store, in the order they were opened.
    func snapshotJSON() -> JSONFragment { Snapshots.runtimeJSON(openStores) }

    /// Reopens every store of a runtime snapshot, in order: all or none (a store that fails to
    /// open closes the ones opened before it).
    func restoreAll(_ document: JSONDocument) throws(APIError) -> [OpaquePointer] {
        let parsed = try Snapshots.readRuntime(document)
        try ensureRoom(for: parsed.count)
        var handles: [OpaquePointer] = []
        for (index, snapshot) in parsed.enumerated() {
            do {
                let stores = JSONValueReader(document.root, path: "$").value
                let element = json_array_get(json_object_get(stores, "stores"), index)!
                let recorded = JSONFragment.object([("snapshot", JSONFragment(copying: element))])
                handles.append(try restoreStore(snapshot, recordedArguments: recorded))
            } catch {
                for handle in handles {
                    if let entry = try? lookupStore(handle) { closeStore(entry.store) }
                }
                throw error
            }
        }
        return handles
    }
}
