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
/// - Resume: at open, on the file's own thread (never the host's), the file is read
///   (``ReadableFile``: a regular file of at most ``maximumBytes``, never blocking) and, when
///   it is ours and of a format this library reads, the app restores from its snapshot.
///   A missing file is a fresh start; anything else (another program's file, a symbolic
///   link, damaged or newer JSON) is a fresh start with a notice saying why, and the file is
///   left untouched for the whole session (nothing is saved over it).
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
    private let store: CodecStore<AppCodec>
    private let worker = WorkerThread(name: "cinematic-app-state")
    /// Changes seen (bumped by the store's observer), and the change last saved.
    private let changes = Atomic<UInt64>(0)
    private let saved = Atomic<UInt64>(0)
    /// False once saving is off: the file could not be resumed from (left untouched).
    private let saving = Atomic<Bool>(true)
    private let wake: AsyncStream<Void>.Continuation
    private let task = Mutex<Task<Void, Never>?>(nil)
    private let observation = Mutex<StoreObservation?>(nil)

    /// Gives `store` its state file, if `options` names one: resumes from it (unless `fresh`)
    /// and saves to it from now on.
    static func attach(_ options: AppOptions, to store: CodecStore<AppCodec>, environment: StoreEnvironment,
                       executor: ThreadExecutor) throws(APIError) {
        guard let path = options.stateFile else { return }
        let file = AppStateFile(path: path, store: store, clock: environment.clock, executor: executor)
        store.onClose { file.close() }
        if !options.fresh { _ = file.worker.submit { file.resume() } }
        file.observation.withLock { $0 = store.observeChanges { file.changed() } }
    }

    private init(path: String, store: CodecStore<AppCodec>, clock: RuntimeClock, executor: ThreadExecutor) {
        self.path = path
        self.store = store
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        wake = continuation
        // The quiet wait runs on the runtime's effect thread (never Swift's shared pool).
        let loop = Task(executorPreference: executor) { [weak self] in
            for await _ in stream {
                // Quiet for saveDelay: no change while sleeping.
                var seen: UInt64 = 0
                repeat {
                    guard let current = self?.changes.load(ordering: .acquiring) else { return }
                    seen = current
                    do { try await clock.sleep(for: Self.saveDelay) } catch { return }
                } while self?.changes.load(ordering: .acquiring) != seen
                self?.save(upTo: seen)
            }
        }
        task.withLock { $0 = loop }
    }

    private func changed() {
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
    }

    /// Reads the file and restores the app from it (on the file's thread).
    private func resume() {
        let outcome = AppStateDocument.read(path)
        switch outcome {
        case .missing: return
        case let .restore(restore): store.start(.restored(restore))
        case let .refused(reason):
            saving.store(false, ordering: .releasing)
            store.start(.stateFileProblem("Started fresh: \(reason); it was left unchanged and this session is not saved"))
        }
    }

    /// Writes `text` (files rule: ours or nothing there; temporary file, fsync, rename).
    private func write(_ text: String) {
        do throws(MovieError) {
            try OwnedFile.replaceWhole(path, with: Array(text.utf8), what: "app state file") { $0.starts(with: Self.signature) }
        } catch {
            store.start(.stateFileProblem("Could not save: \(error.message)"))
        }
    }
}
