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
    /// A second reader of the same file, running ahead to learn requests before the clock
    /// reaches them.
    private let lookahead: RecordingScript
    private let catalog = ReplayCatalog()
    private let favorites = ReplayFavorites()
    private let collector = ReplayCollector()

    init(path: String) throws(APIError) {
        script = try RecordingScript(path: path)
        lookahead = try RecordingScript(sameFileAs: script)
    }

    /// What the replay keeps of the stores it opened, and of the recording read so far.
    private struct Progress {
        var stores: [UInt64: (store: any FeatureStore, feature: String)] = [:]
        /// Each store's last recorded intent (its sequence and JSON), for the state after it.
        var intents: [UInt64: (sequence: UInt64, intent: JSONFragment)] = [:]
        var closed: Set<UInt64> = []
        var ended = false
        /// The first line of the lookahead not yet learned (it is later than the replay).
        var pending: RecordingScript.Line?
        var lookaheadDone = false
    }

    /// Runs the whole recording, comparing as it goes.
    func run() throws(APIError) -> Outcome {
        guard let session = try script.next() else {
            throw APIError(.invalid, "the recording is empty: it must start with a \"session\" line", path: "$")
        }
        var config = try RuntimeConfig(JSONDocument(parsing: session.json("config").text))
        config.catalog = .host(source: nil)
        config.remote = RemoteCatalogConfig()
        config.remote.offlineCache = .off          // answers come from the recording
        config.favorites = ":memory:"
        config.favoritesReadOnly = false
        config.manualClock = true
        config.delivery = .immediate
        config.recordPath = nil
        let runtime = try Runtime(serial: HandleTable.shared.reserve(), config: config,
                                  substitutes: .init(catalog: catalog, favorites: favorites, sink: collector))
        defer {
            runtime.close()
            // Requests matched to answers the replay never reached (a cut or failing
            // recording) would keep their effects suspended for ever.
            catalog.answers.close()
            favorites.answers.close()
        }
        guard let clock = runtime.clock.manual else { throw .misuse("a replay runtime without a manual clock") }

        var progress = Progress()
        while let line = try script.next() {
            // The replayed stores make their requests when the clock reaches them, which may
            // be before the request's own line: learn requests a little ahead of the clock
            // (one that is later still waits for the lookahead; see ScriptedAnswers).
            try learnRequests(upTo: line.time + Self.lookaheadTime, &progress)
            if line.time > clock.now.offset {
                let step = line.time - clock.now.offset
                runtime.drive { clock.advance(by: step) }
            }
            var failure: APIError?
            runtime.drive {
                do throws(APIError) { try apply(line, to: runtime, &progress) } catch { failure = line.annotate(error) }
            }
            if let failure { throw failure }
            if progress.ended { break }
        }
        // Requests the recording never made fail now; their stores reduce that before comparing.
        try learnRequests(upTo: ManualClock.limit, &progress)
        runtime.drive {}
        return outcome(progress)
    }

    /// How far ahead of the replay's clock recorded requests are learned.
    static let lookaheadTime = Duration.seconds(5)

    /// Feeds the lookahead's request lines with a time up to `time` to the scripted answers;
    /// at the end of the recording, replayed requests it never made fail.
    private func learnRequests(upTo time: Duration, _ progress: inout Progress) throws(APIError) {
        while !progress.lookaheadDone {
            if progress.pending == nil { progress.pending = try lookahead.next() }
            guard let line = progress.pending, line.event != "end" else {
                progress.lookaheadDone = true
                catalog.answers.finish()
                favorites.answers.finish()
                return
            }
            guard line.time <= time else { return }
            progress.pending = nil
            if line.event == "request" { try learn(line) }
        }
    }

    private func outcome(_ progress: Progress) -> Outcome {
        let result = collector.finish(stopped: !progress.ended || script.cutLine != nil) {
            progress.ended || progress.closed.contains($0)
        }
        var report: [(key: StaticString, value: JSONFragment)] = [
            ("matched", .bool(result.first == nil)), ("complete", .bool(progress.ended && script.cutLine == nil)),
        ]
        if let cut = script.cutLine { report.append(("cutLine", .int(cut))) }
        if let first = result.first {
            report += [("states", .int(result.compared)), ("afterClose", .int(result.afterClose)), ("divergence", first.report)]
        } else {
            report += [("lines", .int(script.linesRead)), ("stores", .int(progress.stores.count)),
                       ("states", .int(result.compared)), ("afterClose", .int(result.afterClose))]
        }
        return Outcome(matched: result.first == nil, report: .object(report))
    }

    private func apply(_ line: RecordingScript.Line, to runtime: Runtime, _ progress: inout Progress) throws(APIError) {
        func store() throws(APIError) -> any FeatureStore {
            let id = try line.uint("store")
            guard let store = progress.stores[id]?.store else { throw line.invalid("store \(id) was never opened") }
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
            progress.stores[id] = (entry.store, feature)
            collector.track(entry.store.serial, recordedID: id, feature: feature)
        case "intent":
            let replayed = try store()
            progress.intents[try line.uint("store")] = (try line.uint("sequence"), try line.json("intent"))
            guard try line.object.required("host").bool() else { return }
            let intent = try line.json("intent")
            do throws(APIError) {
                try replayed.send(JSONDocument(parsing: intent.text))
            } catch {
                throw line.invalid("the store refuses the intent: \(error.message)")
            }
        case "revert":
            _ = try store().revert(toSequence: line.uint("sequence"))
        case "state":
            let id = try line.uint("store")
            let replayed = try store()
            let sequence = try line.object.optional("sequence").map { value throws(APIError) in try value.int() }
            let last = progress.intents[id]
            let intent = last.flatMap { sequence == Int(clamping: $0.sequence) ? $0.intent : nil }
            collector.expect(.init(line: line.number, intent: intent, state: try line.json("state")), of: replayed.serial)
        case "close":
            let id = try line.uint("store")
            progress.closed.insert(id)
            if let entry = progress.stores[id] { runtime.closeStore(entry.store) }
        case "end":
            progress.ended = true
        case "answer":
            if try line.object.optional("cancelled")?.bool() == true { return }
            let id = try line.uint("id")
            let answer = try line.object.required("answer")
            if let request = catalog.answers.request(id) {
                let recorded = try RecordedSource.decode(line.object)
                catalog.answers.answer(id, with: try HostRequestJSON.decodeAnswer(answer, for: request).map { value in recorded.map { value } })
            } else if let request = favorites.answers.request(id) {
                favorites.answers.answer(id, with: try FavoritesAnswer.decode(answer, for: request))
            } else {
                throw line.invalid("an answer to request \(id), which was never made")
            }
        case "snapshot":
            let movies = try line.object.required("movies").array().map { movie throws(APIError) in try DomainJSON.decodeMovie(movie) }
            favorites.push(FavoritesSnapshot(version: try line.uint("version"), movies: movies), to: try line.uint("stream"))
        case "advance", "observe", "request", "providerRequest", "providerAnswer", "providerCancel":
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
}
