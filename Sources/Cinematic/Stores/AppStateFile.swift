import CinematicData
import CinematicDomain
import CinematicFeatures
import CinematicThreads
import MVIKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An app store's state file (args `{"stateFile": path}`): the app resumes from it and saves
/// to it, so no host decides when to save or how to resume.
///
/// - Resume: at open, the file is read (``ReadableFile``: a regular file of at most
///   ``maximumBytes``, not a symbolic link, never blocking) and, when it is ours and of a
///   format this library reads, the app opens from its snapshot.
///   A missing file is a fresh start; anything else (an empty file, another program's file,
///   a symbolic link, damaged or newer JSON) is a fresh start with a notice saying why, and
///   the file is left untouched for the whole session (nothing is saved over it).
/// - One session per file: a lock beside it (``SessionLock``, `.<name>.lock`) is held while
///   the store is open. A second store on the same file, in this process or another, resumes
///   from it but never saves over it, and a notice says so.
/// - Save: after every change, once the app has been quiet for ``saveDelay`` on the runtime's
///   clock (a manual clock: when the host advances it), and at once when the store closes.
///   Files are ours or untouched: written to a new temporary file beside the path, flushed,
///   and renamed over a file that is ours (or over nothing); a failed save is a notice.
///
/// The file is `{"cinematicAppState":1,"snapshot":<the app store's snapshot>}`.
final class AppStateFile: Sendable {
    /// The state file's format.
    static let format = 1
    /// The largest state file read (an app snapshot is a few kilobytes).
    static let maximumBytes = 1 << 20
    /// How long the app stays quiet before a save.
    static let saveDelay: Duration = .seconds(1)
    /// What a state file starts with: how a file is proven ours before it is replaced.
    static let signature = Array("{\"cinematicAppState\":".utf8)

    private let path: String
    /// This session's hold on the file (nil when another session holds it): released at close.
    private let lock: Mutex<SessionLock?>
    private let store: CodecStore<AppCodec>
    private let worker = WorkerThread(name: "cinematic-app-state")
    /// Changes seen (bumped by the store's observer), and the change last saved.
    private let changes = Atomic<UInt64>(0)
    private let saved = Atomic<UInt64>(0)
    /// When the last change was seen, on the runtime's clock (nanoseconds since it opened).
    private let changedAt = Atomic<Int64>(0)
    private let clock: RuntimeClock
    /// False once saving is off: the file could not be resumed from (left untouched).
    private let saving = Atomic<Bool>(true)
    private let wake: AsyncStream<Void>.Continuation
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let observation = Mutex<StoreObservation?>(nil)

    /// Opens an app store with a state file (args `{"stateFile": path}`, `fresh` aside), in
    /// `runtime`: resumes from the file (read now, bounded, never blocking on a FIFO) and saves
    /// to it from now on. A recording shows the store opened from the snapshot it resumed
    /// (or, for a file it refused, from a fresh snapshot carrying the notice), so a replay
    /// restores it the same way and never touches the file.
    static func open(_ options: AppOptions, path: String, in runtime: Runtime) throws(APIError) -> OpaquePointer {
        let (lock, lockProblem) = Self.lock(path)
        let outcome: AppStateDocument.Outcome = options.fresh ? .missing : AppStateDocument.read(path)
        let handle: OpaquePointer
        switch outcome {
        case .missing:
            handle = try runtime.registerStore(feature: AppCodec.name, recordedArguments: .null,
                                               origin: (ArgumentsSnapshot(arguments: nil), .none)) { serial throws(APIError) in
                try AppCodec.makeStore(arguments: nil, serial: serial, environment: runtime.environment, delivery: runtime.delivery)
            }
        case let .restore(snapshot):
            handle = try open(snapshot: snapshot, in: runtime)
        case let .refused(reason):
            let notice = AppSnapshotNotice(kind: .stateFile, text: String("Started fresh: \(reason); it was left unchanged and this session is not saved".prefix(1000)),
                                           offersUndo: false)
            let fresh = AppCodec.Snapshot(tab: .search, section: .popular, query: "", searchPages: 0, sections: [], details: [],
                                          positions: AppPositions(positions: [:]), removed: [], notice: notice)
            handle = try open(snapshot: Snapshots.storeJSON(feature: AppCodec.name, data: AppCodec.encodeSnapshot(fresh)), in: runtime)
        }
        let entry: StoreEntry = try HandleTable.shared.lookup(handle, as: .store)
        guard let store = entry.store as? CodecStore<AppCodec> else { throw .misuse("not an app store") }
        let file = AppStateFile(path: path, store: store, clock: runtime.environment.clock, executor: runtime.delivery.effects, lock: lock)
        if case .refused = outcome {
            file.saving.store(false, ordering: .releasing)
        } else if let lockProblem {
            file.saving.store(false, ordering: .releasing)
            store.start(.stateFileProblem(lockProblem))
        }
        store.onClose { file.close() }
        file.observation.withLock { $0 = store.observeChanges { file.changed() } }
        return handle
    }

    /// Opens the app from a store snapshot, as `cinematic_store_open`'s `{"snapshot": …}` does.
    private static func open(snapshot: JSONFragment, in runtime: Runtime) throws(APIError) -> OpaquePointer {
        let arguments = JSONFragment.object([("snapshot", snapshot)])
        let document = try JSONDocument(parsing: arguments.text)
        guard let reader = try Snapshots.snapshotArgument(document) else { throw .invalid("no snapshot", at: "$") }
        return try runtime.restoreStore(Snapshots.readStore(reader, expecting: AppCodec.name), recordedArguments: arguments)
    }

    /// One session saves to a state file at a time (``SessionLock``): a second app store on
    /// the same file (this process or another) resumes from it but does not save over the
    /// first's session, and its notice says so. Nil and the words, when this one may not save.
    /// A missing directory is no problem yet: the lock is taken again before the first save
    /// (which then reports the missing directory itself).
    private static func lock(_ path: String) -> (SessionLock?, String?) {
        do throws(MovieError) {
            switch try SessionLock.acquire(besides: path) {
            case let .acquired(lock): return (lock, nil)
            case .noDirectory: return (nil, nil)
            case .busy: return (nil, busy(path))
            }
        } catch {
            return (nil, String("Cannot save this session: \(error.message)".prefix(1000)))
        }
    }

    private static func busy(_ path: String) -> String { "Another session of this app is using \(path); this session is not saved" }

    private init(path: String, store: CodecStore<AppCodec>, clock: RuntimeClock, executor: ThreadExecutor, lock: SessionLock?) {
        self.lock = Mutex(lock)
        self.path = path
        self.store = store
        self.clock = clock
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        wake = continuation
        // The quiet wait runs on the runtime's effect thread (never Swift's shared pool), and
        // is counted on the runtime's clock from the last change, whenever the loop wakes.
        let loop = Task(executorPreference: executor) { [weak self] in
            for await _ in stream {
                var seen: (change: UInt64, at: Int64) = (0, 0)
                repeat {
                    guard let self else { return }
                    seen = (changes.load(ordering: .acquiring), changedAt.load(ordering: .acquiring))
                    let due = RuntimeClock.Instant(offset: .nanoseconds(seen.at) + Self.saveDelay)
                    do { try await clock.sleep(until: due) } catch { return }
                } while self?.changes.load(ordering: .acquiring) != seen.change
                self?.save(upTo: seen.change)
            }
        }
        task.withLock { $0 = loop }
    }

    private func changed() {
        let (seconds, attoseconds) = clock.now.offset.components
        changedAt.store(seconds * 1_000_000_000 + attoseconds / 1_000_000_000, ordering: .releasing)
        changes.add(1, ordering: .releasing)
        wake.yield()
    }

    /// Takes the app's snapshot now and writes it on the file's thread.
    private func save(upTo change: UInt64) {
        guard saving.load(ordering: .acquiring), saved.load(ordering: .acquiring) < change else { return }
        saved.store(change, ordering: .releasing)
        let text = Self.document(store)
        _ = worker.submit { [self] in write(text) }
    }

    /// The state file's text for `store`'s current state.
    static func document(_ store: any FeatureStore) -> String {
        JSONFragment.object([("cinematicAppState", .int(format)), ("snapshot", Snapshots.storeJSON(store))]).text + "\n"
    }

    /// At close: the last save, written before this returns.
    private func close() {
        observation.withLock { $0 }?.cancel()
        task.withLock { $0 }?.cancel()
        wake.finish()
        if saving.load(ordering: .acquiring) {
            let text = Self.document(store)
            _ = worker.submit { [self] in write(text) }
        }
        worker.shutDown()
        lock.withLock { $0 }?.release()
    }

    /// True when this session may save: it holds the lock, or takes it now (the directory
    /// appeared since the store opened, or still misses and the write says so). Another
    /// session holding it turns saving off, with a notice.
    private func holdsLock() -> Bool {
        if lock.withLock({ $0 != nil }) { return true }
        let (taken, problem) = Self.lock(path)
        if let taken {
            lock.withLock { $0 = taken }
            return true
        }
        guard let problem else { return true }
        saving.store(false, ordering: .releasing)
        store.start(.stateFileProblem(problem))
        return false
    }

    /// Writes `text` (files rule: ours or nothing there; temporary file, fsync, rename).
    private func write(_ text: String) {
        guard holdsLock() else { return }
        do throws(MovieError) {
            try OwnedFile.replaceWhole(path, with: Array(text.utf8), what: "app state file") { $0.starts(with: Self.signature) }
        } catch {
            store.start(.stateFileProblem("Could not save: \(error.message)"))
        }
    }
}
