import CJansson
import CinematicData
import CinematicDomain
import CinematicFeatures

/// A runtime's configuration, decoded from `cinematic_runtime_open`'s JSON (NULL = defaults).
///
/// ```json
/// {"catalog": "embedded" | "host" | {"host": "https://movies.example"} | {"path": "/path/movies.idx"},
///  "favorites": ":memory:" | "/path/favorites.sqlite" | {"path": "…", "readOnly": true},
///  "clock": "system" | "manual", "delivery": "immediate" | "queued",
///  "search": {"debounceMs": 250}, "history": 0, "record": "/path/session.jsonl",
///  "app": {"rowsPerList": 2000, "details": 16, "undo": 20},
///  "offlineCache": false | {"path": "…", "maxBytes": N, "ttlSeconds": N}, "requestDeadlineMs": 10000}
/// ```
struct RuntimeConfig: Sendable {
    /// Where movies come from.
    enum Catalog: Sendable, Equatable {
        /// The catalog compiled into the library.
        case embedded
        /// A catalog index file built by `cinematic-index` (docs/catalog-index.md).
        case index(path: String)
        /// The host answers catalog requests through its provider callback. `source` is the
        /// identity the host declared for its catalog (`{"host": "<url or name>"}`), which
        /// scopes the offline cache; nil for plain `"host"` (no shared default cache).
        case host(source: String?)
    }

    var catalog = Catalog.embedded
    var favorites = ":memory:"
    /// Favorites opened read-only: listing works, every change fails with `storage`.
    var favoritesReadOnly = false
    var manualClock = false
    var delivery = DeliveryMode.immediate
    var searchDebounceMilliseconds = 250
    /// The app store's bounds (config `app`).
    var appLimits = AppLimits()
    /// History entries kept per store (0: no history).
    var historyCapacity = 0
    /// Where the session is recorded (nil: not recorded).
    var recordPath: String?
    /// A host catalog's offline cache and request deadline.
    var remote = RemoteCatalogConfig()

    /// The most history entries a store may keep.
    static let maximumHistory = 100_000

    static let keys = Set(["catalog", "favorites", "clock", "delivery", "search", "history", "record", "app"]).union(RemoteCatalogConfig.keys)

    init() {}

    init(_ document: JSONDocument) throws(APIError) {
        let config = try document.object("a config object")
        try config.rejectUnknownKeys(allowing: Self.keys)
        remote = try RemoteCatalogConfig(config)
        if let catalog = config.optional("catalog") {
            self.catalog = try Self.catalog(catalog)
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
        if let app = config.optional("app") { appLimits = try Self.appLimits(app) }
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

    /// `{"rowsPerList": 2000, "details": 16, "undo": 20}`, each optional, each within its range.
    private static func appLimits(_ app: JSONValueReader) throws(APIError) -> AppLimits {
        let object = try app.object("the app's bounds {\"rowsPerList\", \"details\", \"undo\"}")
        try object.rejectUnknownKeys(allowing: ["rowsPerList", "details", "undo"])
        var limits = AppLimits()
        if let rows = object.optional("rowsPerList") {
            let range = AppLimits.rowsPerListRange
            limits.rowsPerList = try rows.int(minimum: range.lowerBound, maximum: range.upperBound)
            guard limits.rowsPerList % MovieCatalog.pageSize == 0 else {
                throw .invalid("rowsPerList must be a multiple of \(MovieCatalog.pageSize) (a page)", at: rows.path)
            }
        }
        if let details = object.optional("details") {
            limits.details = try details.int(minimum: AppLimits.detailsRange.lowerBound, maximum: AppLimits.detailsRange.upperBound)
        }
        if let undo = object.optional("undo") {
            limits.undo = try undo.int(minimum: AppLimits.undoRange.lowerBound, maximum: AppLimits.undoRange.upperBound)
        }
        return limits
    }

    /// The longest source identity a host catalog may declare, in UTF-8 bytes.
    static let maximumSourceBytes = 1024

    /// `"embedded"`, `"host"`, `{"host": "<source>"}` or `{"path": "<index file>"}`.
    private static func catalog(_ catalog: JSONValueReader) throws(APIError) -> Catalog {
        let expected = "\"embedded\", \"host\", {\"host\": …} or {\"path\": …}"
        if catalog.type == .string {
            switch try catalog.string() {
            case "embedded": return .embedded
            case "host": return .host(source: nil)
            case let other: throw .invalid("unknown catalog \"\(other)\"; expected \(expected)", at: catalog.path)
            }
        }
        let object = try catalog.object(expected)
        try object.rejectUnknownKeys(allowing: ["path", "host"])
        if let source = object.optional("host") {
            guard object.optional("path") == nil else {
                throw .invalid("a catalog is {\"host\": …} or {\"path\": …}, not both", at: object.path)
            }
            let id = try source.string()
            guard !id.isEmpty, id.utf8.count <= maximumSourceBytes else {
                throw .invalid("a host catalog's source must be 1 to \(maximumSourceBytes) UTF-8 bytes", at: source.path)
            }
            return .host(source: id)
        }
        let path = try object.required("path").string()
        guard !path.isEmpty else { throw .invalid("empty catalog path", at: object.path + ".path") }
        return .index(path: path)
    }

    /// The configuration as JSON, every key spelled out (a recording's `session` line).
    var json: JSONFragment {
        let catalog: UnsafeMutablePointer<json_t>
        switch self.catalog {
        case .embedded: catalog = JSONBuilder.string("embedded")
        case let .index(path): catalog = JSONBuilder.object(["path": JSONBuilder.string(path)])
        case .host(source: nil): catalog = JSONBuilder.string("host")
        case let .host(source?): catalog = JSONBuilder.object(["host": JSONBuilder.string(source)])
        }
        return JSONFragment(consuming: JSONBuilder.object([
            "catalog": catalog,
            "favorites": JSONBuilder.object(["path": JSONBuilder.string(favorites), "readOnly": JSONBuilder.bool(favoritesReadOnly)]),
            "clock": JSONBuilder.string(manualClock ? "manual" : "system"),
            "delivery": JSONBuilder.string(delivery == .immediate ? "immediate" : "queued"),
            "search": JSONBuilder.object(["debounceMs": JSONBuilder.int(searchDebounceMilliseconds)]),
            "history": JSONBuilder.int(historyCapacity),
            "app": JSONBuilder.object(["rowsPerList": JSONBuilder.int(appLimits.rowsPerList), "details": JSONBuilder.int(appLimits.details),
                                       "undo": JSONBuilder.int(appLimits.undo)]),
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
        if case let .host(source) = catalog, case let .on(path, _, _) = remote.offlineCache,
           let cache = path ?? (source == nil ? nil : CinematicData.OfflineCache.defaultPath), cache != ":memory:" {
            paths.append(cache)
        }
        return paths.flatMap { [$0, $0 + "-wal", $0 + "-shm", $0 + "-journal"] }
    }
}
