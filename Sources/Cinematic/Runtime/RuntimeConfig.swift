/// A runtime's configuration, decoded from `cinematic_runtime_open`'s JSON (NULL = defaults).
///
/// ```json
/// {"catalog": "embedded" | "host" | {"path": "/path/catalog.sqlite"},
///  "favorites": ":memory:" | "/path/favorites.sqlite" | {"path": "…", "readOnly": true},
///  "clock": "system" | "manual", "delivery": "immediate" | "queued",
///  "search": {"debounceMs": 250},
///  "offlineCache": false | {"path": "…", "maxBytes": N, "ttlSeconds": N}, "requestDeadlineMs": 10000}
/// ```
struct RuntimeConfig: Sendable {
    /// Where movies come from.
    enum Catalog: Sendable, Equatable {
        /// The embedded catalog, cached at `path` (nil: the default cache location).
        case embedded(path: String?)
        /// The host answers catalog requests through its provider callback.
        case host
    }

    var catalog = Catalog.embedded(path: nil)
    var favorites = ":memory:"
    /// Favorites opened read-only: listing works, every change fails with `storage`.
    var favoritesReadOnly = false
    var manualClock = false
    var delivery = DeliveryMode.immediate
    var searchDebounceMilliseconds = 250
    /// A host catalog's offline cache and request deadline.
    var remote = RemoteCatalogConfig()

    static let keys = Set(["catalog", "favorites", "clock", "delivery", "search"]).union(RemoteCatalogConfig.keys)

    init() {}

    init(_ document: JSONDocument) throws(APIError) {
        let config = try document.object("a config object")
        try config.rejectUnknownKeys(allowing: Self.keys)
        remote = try RemoteCatalogConfig(config)
        if let catalog = config.optional("catalog") {
            if catalog.type == .string {
                switch try catalog.string() {
                case "embedded": self.catalog = .embedded(path: nil)
                case "host": self.catalog = .host
                case let other: throw .invalid("unknown catalog \"\(other)\"; expected \"embedded\", \"host\" or {\"path\": …}", at: catalog.path)
                }
            } else {
                let object = try catalog.object("\"embedded\", \"host\" or {\"path\": …}")
                try object.rejectUnknownKeys(allowing: ["path"])
                let path = try object.required("path").string()
                guard !path.isEmpty else { throw .invalid("empty catalog path", at: object.path + ".path") }
                self.catalog = .embedded(path: path)
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
    }
}
