import CJansson
import CinematicData

/// The settings of a remote (host-provided) catalog: its offline cache and request deadline.
///
/// ```json
/// {"offlineCache": false | true | {"path": "/path/cache.sqlite", "maxBytes": 67108864, "ttlSeconds": 604800},
///  "requestDeadlineMs": 10000}
/// ```
/// Both apply to a `"host"` catalog only; with the embedded catalog they are checked and
/// unused.
struct RemoteCatalogConfig: Sendable, Equatable {
    /// Where and how answers are cached.
    enum OfflineCache: Sendable, Equatable {
        /// No cache: a failed request shows its error.
        case off
        /// A cache at `path` (nil: the default location, and a cache that cannot be opened
        /// there is skipped rather than failing the runtime).
        case on(path: String?, maxBytes: Int, ttlSeconds: Int)
    }

    /// The config keys this part reads.
    static let keys: Set<String> = ["offlineCache", "requestDeadlineMs"]
    /// The default deadline of a provider request.
    static let defaultDeadlineMilliseconds = 10_000
    /// The longest deadline accepted: one hour.
    static let maximumDeadlineMilliseconds = 3_600_000
    /// The largest cache bound accepted: 1 TiB.
    static let maximumCacheBytes = 1 << 40
    /// The longest time to live accepted: 100 years.
    static let maximumTTLSeconds = 3_153_600_000

    var offlineCache = OfflineCache.on(path: nil, maxBytes: CinematicData.OfflineCache.defaultMaxBytes,
                                       ttlSeconds: CinematicData.OfflineCache.defaultTTLSeconds)
    var deadlineMilliseconds = defaultDeadlineMilliseconds

    init() {}

    /// Reads the keys of ``keys`` from a config object.
    init(_ config: JSONObjectReader) throws(APIError) {
        if let cache = config.optional("offlineCache") {
            offlineCache = try Self.offlineCache(cache)
        }
        if let deadline = config.optional("requestDeadlineMs") {
            let value = try deadline.int()
            guard (1...Self.maximumDeadlineMilliseconds).contains(value) else {
                throw .invalid("requestDeadlineMs must be within 1...\(Self.maximumDeadlineMilliseconds)", at: deadline.path)
            }
            deadlineMilliseconds = value
        }
    }

    private static func offlineCache(_ value: JSONValueReader) throws(APIError) -> OfflineCache {
        let defaults = (maxBytes: CinematicData.OfflineCache.defaultMaxBytes, ttl: CinematicData.OfflineCache.defaultTTLSeconds)
        if value.type == .bool {
            return try value.bool() ? .on(path: nil, maxBytes: defaults.maxBytes, ttlSeconds: defaults.ttl) : .off
        }
        let object = try value.object("false, true or {\"path\": …, \"maxBytes\": …, \"ttlSeconds\": …}")
        try object.rejectUnknownKeys(allowing: ["path", "maxBytes", "ttlSeconds"])
        var path: String?
        if let member = object.optional("path") {
            let text = try member.string()
            guard !text.isEmpty else { throw .invalid("empty offline cache path", at: member.path) }
            path = text
        }
        func bounded(_ key: String, default fallback: Int, maximum: Int) throws(APIError) -> Int {
            guard let member = object.optional(key) else { return fallback }
            let number = try member.int()
            guard (1...maximum).contains(number) else { throw .invalid("\(key) must be within 1...\(maximum)", at: member.path) }
            return number
        }
        return .on(path: path, maxBytes: try bounded("maxBytes", default: defaults.maxBytes, maximum: Self.maximumCacheBytes),
                   ttlSeconds: try bounded("ttlSeconds", default: defaults.ttl, maximum: Self.maximumTTLSeconds))
    }

    /// The cache setting as config JSON (a recording's `session` line; new reference).
    var offlineCacheNode: UnsafeMutablePointer<json_t> {
        switch offlineCache {
        case .off: return JSONBuilder.bool(false)
        case let .on(path, maxBytes, ttlSeconds):
            let object = JSONBuilder.object(["maxBytes": JSONBuilder.int(maxBytes), "ttlSeconds": JSONBuilder.int(ttlSeconds)])
            if let path { JSONBuilder.set(object, "path", JSONBuilder.string(path)) }
            return object
        }
    }
}
