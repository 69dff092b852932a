import CJansson
import CinematicData

/// A runtime's configuration, decoded from `cinematic_runtime_open`'s JSON (NULL = defaults).
///
/// ```json
/// {"catalog": "embedded" | "host" | {"path": "/path/movies.idx"},
///  "favorites": ":memory:" | "/path/favorites.sqlite" | {"path": "…", "readOnly": true},
///  "clock": "system" | "manual", "delivery": "immediate" | "queued",
///  "search": {"debounceMs": 250}, "history": 0, "record": "/path/session.jsonl",
///  "offlineCache": false | {"path": "…", "maxBytes": N, "ttlSeconds": N}, "requestDeadlineMs": 10000}
/// ```
struct RuntimeConfig: Sendable {
    /// Where movies come from.
    enum Catalog: Sendable, Equatable {
        /// The catalog compiled into the library.
        case embedded
        /// A catalog index file built by `cinematic-index` (docs/catalog-index.md).
        case index(path: String)
        /// The host answers catalog requests through its provider callback.
        case host
    }

    var catalog = Catalog.embedded
    var favorites = ":memory:"
    /// Favorites opened read-only: listing works, every change fails with `storage`.
    var favoritesReadOnly = false
    var manualClock = false
    var delivery = DeliveryMode.immediate
    var searchDebounceMilliseconds = 250
    /// History entries kept per store (0: no history).
    var historyCapacity = 0
    /// Where the session is recorded (nil: not recorded).
    var recordPath: String?
    /// A host catalog's offline cache and request deadline.
    var remote = RemoteCatalogConfig()

    /// The most history entries a store may keep.
    static let maximumHistory = 100_000

    static let keys = Set(["catalog", "favorites", "clock", "delivery", "search", "history", "record"]).union(RemoteCatalogConfig.keys)

    init() {}

    init(_ document: JSONDocument) throws(APIError) {
        let config = try document.object("a config object")
        try config.rejectUnknownKeys(allowing: Self.keys)
        remote = try RemoteCatalogConfig(config)
        if let catalog = config.optional("catalog") {
            if catalog.type == .string {
                switch try catalog.string() {
                case "embedded": self.catalog = .embedded
                case "host": self.catalog = .host
                case let other: throw .invalid("unknown catalog \"\(other)\"; expected \"embedded\", \"host\" or {\"path\": …}", at: catalog.path)
                }
            } else {
                let object = try catalog.object("\"embedded\", \"host\" or {\"path\": …}")
                try object.rejectUnknownKeys(allowing: ["path"])
                let path = try object.required("path").string()
                guard !path.isEmpty else { throw .invalid("empty catalog path", at: object.path + ".path") }
                self.catalog = .index(path: path)
            }
        }
        if let favorites = config.optional("favorites") {
            var path = favorites
            if favorites.type == .object {
                let object = try favorites.object()
                try object.rejectUnknownKeys(allowing: ["path", "readOnly"])
                path = try object.required("path")
                favoritesReadOnly = try object.optional("readOnly")?.bool() ?? false
            }
            self.favorites = try path.string()
            guard !self.favorites.isEmpty else { throw .invalid("empty favorites path", at: path.path) }
        }
        if let clock = config.optional("clock") {
            switch try clock.string() {
            case "system": manualClock = false
            case "manual": manualClock = true
            case let other: throw .invalid("unknown clock \"\(other)\"; expected \"system\" or \"manual\"", at: clock.path)
            }
        }
        if let delivery = config.optional("delivery") {
            switch try delivery.string() {
            case "immediate": self.delivery = .immediate
            case "queued": self.delivery = .queued
            case let other: throw .invalid("unknown delivery \"\(other)\"; expected \"immediate\" or \"queued\"", at: delivery.path)
            }
        }
        if let search = config.optional("search") {
            let object = try search.object()
            try object.rejectUnknownKeys(allowing: ["debounceMs"])
            if let debounce = object.optional("debounceMs") {
                let value = try debounce.int()
                guard (0...60_000).contains(value) else { throw .invalid("debounceMs must be within 0...60000", at: debounce.path) }
                searchDebounceMilliseconds = value
            }
        }
        if let history = config.optional("history") {
            let value = try history.int()
            guard (0...Self.maximumHistory).contains(value) else {
                throw .invalid("history must be within 0...\(Self.maximumHistory)", at: history.path)
            }
            historyCapacity = value
        }
        if let record = config.optional("record") {
            let path = try record.string()
            guard !path.isEmpty else { throw .invalid("empty record path", at: record.path) }
            recordPath = path
        }
    }

    /// The configuration as JSON, every key spelled out (a recording's `session` line).
    var json: JSONFragment {
        let catalog: UnsafeMutablePointer<json_t>
        switch self.catalog {
        case .embedded: catalog = JSONBuilder.string("embedded")
        case let .index(path): catalog = JSONBuilder.object(["path": JSONBuilder.string(path)])
        case .host: catalog = JSONBuilder.string("host")
        }
        return JSONFragment(consuming: JSONBuilder.object([
            "catalog": catalog,
            "favorites": JSONBuilder.object(["path": JSONBuilder.string(favorites), "readOnly": JSONBuilder.bool(favoritesReadOnly)]),
            "clock": JSONBuilder.string(manualClock ? "manual" : "system"),
            "delivery": JSONBuilder.string(delivery == .immediate ? "immediate" : "queued"),
            "search": JSONBuilder.object(["debounceMs": JSONBuilder.int(searchDebounceMilliseconds)]),
            "history": JSONBuilder.int(historyCapacity),
            "offlineCache": remote.offlineCacheNode,
            "requestDeadlineMs": JSONBuilder.int(remote.deadlineMilliseconds),
        ]))
    }
}

extension RuntimeConfig {
    /// The database files this runtime may open (favorites, a host catalog's offline cache,
    /// an embedded catalog at a path), with their SQLite side files: a recording is never
    /// written over one of them.
    var databasePaths: [String] {
        var paths: [String] = []
        if favorites != ":memory:" { paths.append(favorites) }
        if case let .index(path) = catalog { paths.append(path) }
        if case .host = catalog, case let .on(path, _, _) = remote.offlineCache {
            let cache = path ?? CinematicData.OfflineCache.defaultPath
            if cache != ":memory:" { paths.append(cache) }
        }
        return paths.flatMap { [$0, $0 + "-wal", $0 + "-shm", $0 + "-journal"] }
    }
}
