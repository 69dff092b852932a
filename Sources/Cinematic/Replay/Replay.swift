import CJansson
import CinematicDomain
import MVIKit

/// Replays a recording (see ``Recorder``) in a fresh runtime with the manual clock: the stores
/// are opened as recorded, get the recorded host intents, clock advances, time-travel steps,
/// catalog and favorites answers and favorites snapshots at their recorded virtual times,
/// and every state they produce is compared with the recorded one.
struct Replay {
    /// The outcome: whether every state matched, and the report (JSON, see the header).
    struct Outcome {
        let matched: Bool
        let report: JSONFragment
    }

    private let script: RecordingScript
    private let catalog = ReplayCatalog()
    private let favorites = ReplayFavorites()
    private let collector = ReplayCollector()

    init(path: String) throws(APIError) {
        script = try RecordingScript(path: path)
    }

    /// Runs the whole recording, then compares.
    func run() throws(APIError) -> Outcome {
        let session = script.lines[0]
        var config = try RuntimeConfig(JSONDocument(parsing: session.json("config").text))
        config.catalog = .host
        config.remote = RemoteCatalogConfig()
        config.remote.offlineCache = .off          // answers come from the recording
        config.favorites = ":memory:"
        config.favoritesReadOnly = false
        config.manualClock = true
        config.delivery = .immediate
        config.recordPath = nil
        let runtime = try Runtime(serial: HandleTable.shared.reserve(), config: config,
                                  substitutes: .init(catalog: catalog, favorites: favorites, sink: collector))
        defer { runtime.close() }
        guard let clock = runtime.manualClock else { throw .misuse("a replay runtime without a manual clock") }

        // Every recorded request is known before the replay starts: the replayed stores make
        // theirs when the clock reaches them, which may be before the request's own line.
        for line in script.lines where line.event == "request" { try learn(line) }
        var stores: [UInt64: (store: any FeatureStore, feature: String)] = [:]
        for line in script.lines {
            if line.time > clock.now.offset {
                let step = line.time - clock.now.offset
                runtime.drive { clock.advance(by: step) }
            }
            var failure: APIError?
            runtime.drive {
                do throws(APIError) { try apply(line, to: runtime, stores: &stores) } catch { failure = line.annotate(error) }
            }
            if let failure { throw failure }
        }
        return compare(stores: stores)
    }

    private func apply(_ line: RecordingScript.Line, to runtime: Runtime,
                       stores: inout [UInt64: (store: any FeatureStore, feature: String)]) throws(APIError) {
        func store() throws(APIError) -> any FeatureStore {
            let id = try line.uint("store")
            guard let store = stores[id]?.store else { throw line.invalid("store \(id) was never opened") }
            return store
        }
        switch line.event {
        case "open":
            let id = try line.uint("store")
            let feature = try line.object.required("feature").string()
            let arguments = try line.object.required("args")
            let document = arguments.isNull ? nil : try JSONDocument(parsing: JSONFragment(copying: arguments.value).text)
            let handle = try runtime.openStore(feature: feature, arguments: document)
            let entry: StoreEntry = try HandleTable.shared.lookup(handle, as: .store)
            stores[id] = (entry.store, feature)
        case "intent":
            guard try line.object.required("host").bool() else { return }
            let intent = try line.json("intent")
            do throws(APIError) {
                try store().send(JSONDocument(parsing: intent.text))
            } catch {
                throw line.invalid("the store refuses the intent: \(error.message)")
            }
        case "revert":
            _ = try store().revert(toSequence: line.uint("sequence"))
        case "close":
            let id = try line.uint("store")
            if let entry = stores[id] { runtime.closeStore(entry.store) }
        case "answer":
            if try line.object.optional("cancelled")?.bool() == true { return }
            let id = try line.uint("id")
            let answer = try line.object.required("answer")
            if let request = catalog.answers.request(id) {
                let source = try RecordedSource.decode(line.object)
                catalog.answers.answer(id, with: try HostRequestJSON.decodeAnswer(answer, for: request).map { Sourced($0, source: source) })
            } else if let request = favorites.answers.request(id) {
                favorites.answers.answer(id, with: try FavoritesAnswer.decode(answer, for: request))
            } else {
                throw line.invalid("an answer to request \(id), which was never made")
            }
        case "snapshot":
            let movies = try line.object.required("movies").array().map { movie throws(APIError) in try DomainJSON.decodeMovie(movie) }
            favorites.push(FavoritesSnapshot(version: try line.uint("version"), movies: movies), to: try line.uint("stream"))
        case "session", "state", "advance", "observe", "end", "request", "providerRequest", "providerAnswer", "providerCancel":
            return
        default:
            throw line.invalid("unknown event \"\(line.event)\"")
        }
    }

    /// Learns a recorded request (catalog or favorites).
    private func learn(_ line: RecordingScript.Line) throws(APIError) {
        let id = try line.uint("id")
        let request = try line.object.required("request")
        if let catalogRequest = try HostRequestJSON.decodeRequest(request) {
            catalog.answers.recorded(catalogRequest, id: id)
        } else if let favoritesRequest = try FavoritesRequest.decode(request) {
            favorites.answers.recorded(favoritesRequest, id: id)
        } else {
            throw line.invalid("unknown request op")
        }
    }

    /// One recorded state, where it is and the intent that produced it.
    private struct Expected {
        let line: Int
        let intent: JSONFragment?
        let state: JSONFragment
    }

    /// The first divergence in file order, or a match.
    private func compare(stores: [UInt64: (store: any FeatureStore, feature: String)]) -> Outcome {
        var expected: [UInt64: [Expected]] = [:]
        var intents: [String: JSONFragment] = [:]
        for line in script.lines {
            guard let store = try? line.uint("store") else { continue }
            if line.event == "intent", let sequence = try? line.uint("sequence"), let intent = try? line.json("intent") {
                intents["\(store)/\(sequence)"] = intent
            } else if line.event == "state", let state = try? line.json("state") {
                let sequence = (try? line.uint("sequence")).map { "\(store)/\($0)" } ?? ""
                let entry = Expected(line: line.number, intent: intents[sequence], state: state)
                if let last = expected[store]?.last, Self.equal(last.state, state) { continue }
                expected[store, default: []].append(entry)
            }
        }
        // Stores the recording closed: explicitly, or all of them with the runtime ("end").
        let ended = script.lines.last?.event == "end"
        let closed = Set(script.lines.filter { $0.event == "close" }.compactMap { try? $0.uint("store") })
        var first: (line: Int, report: JSONFragment)?
        var compared = 0
        var afterClose = 0
        for (id, entry) in stores.sorted(by: { $0.key < $1.key }) {
            var actual: [ReplayCollector.Produced] = []
            for produced in collector.states(of: entry.store.serial) where !(actual.last.map { Self.equal($0.state, produced.state) } ?? false) {
                actual.append(produced)
            }
            let recorded = expected[id] ?? []
            // An effect's result that reached its store in the replay but lost the race with
            // the store's close in the recorded session (recorded as an answer, never
            // reduced there): states after the last recorded one, from effect results only,
            // of a store the recording closed.
            if (ended || closed.contains(id)), actual.count > recorded.count,
               actual[recorded.count...].allSatisfy({ !$0.isInput }),
               zip(recorded, actual).allSatisfy({ Self.equal($0.state, $1.state) }) {
                afterClose += actual.count - recorded.count
                actual.removeLast(actual.count - recorded.count)
            }
            for index in 0..<max(recorded.count, actual.count) {
                let want = index < recorded.count ? recorded[index] : nil
                let got = index < actual.count ? actual[index] : nil
                if let want, let got, Self.equal(want.state, got.state) {
                    compared += 1
                    continue
                }
                let line = want?.line ?? Int.max
                if first == nil || line < first!.line {
                    first = (line, .object([
                        "line": want.map { .int($0.line) } ?? .null, "store": .int(Int(clamping: id)), "feature": .string(entry.feature),
                        "index": .int(index), "intent": want?.intent ?? .null, "replayedIntent": got?.intent ?? .null,
                        "expected": want?.state ?? .null, "actual": got?.state ?? .null,
                    ]))
                }
                break
            }
        }
        let complete = JSONFragment.bool(ended)
        if let first {
            return Outcome(matched: false, report: .object([
                "matched": .bool(false), "complete": complete, "states": .int(compared), "afterClose": .int(afterClose),
                "divergence": first.report,
            ]))
        }
        return Outcome(matched: true, report: .object([
            "matched": .bool(true), "complete": complete, "lines": .int(script.lines.count), "stores": .int(stores.count),
            "states": .int(compared), "afterClose": .int(afterClose),
        ]))
    }

    /// JSON equality of two encoded values.
    private static func equal(_ a: JSONFragment, _ b: JSONFragment) -> Bool {
        if a == b { return true }
        guard let left = JSONDiff.parse(a) else { return false }
        defer { json_decref(left) }
        guard let right = JSONDiff.parse(b) else { return false }
        defer { json_decref(right) }
        return json_equal(left, right) != 0
    }
}
