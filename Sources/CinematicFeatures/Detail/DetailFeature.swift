import CinematicDomain
import MVIKit

/// What the Detail screen of one movie renders.
///
/// The heart is optimistic: ``isFavorite`` flips the moment the user taps and is written in
/// the background. Three bookkeeping fields make that safe: ``savingFavorite`` (the value
/// being written right now), ``storedFavorite`` (the newest value known to be stored, which a
/// failed write rolls back to and a completed write settles on) and ``storedVersion`` (the
/// favorites version ``storedFavorite`` comes from, so an older report never overwrites a
/// newer one).
public struct DetailState: Equatable, Sendable {
    /// The movie this screen shows.
    public let movieID: Int
    /// The movie's details.
    public var detail: LoadingPhase<MovieDetail, MovieError>
    /// Whether the heart is filled: the user's latest wish while a write is in flight, else
    /// what the favorites repository reports.
    public var isFavorite: Bool
    /// Why the last favorite change could not be saved (the heart was rolled back); cleared
    /// by the next toggle.
    public var favoriteError: MovieError?
    /// The value being written to the favorites now; nil when no write is in flight.
    public var savingFavorite: Bool?
    /// The newest value known to be stored: reported by the repository or confirmed by a
    /// write, whichever carries the higher version.
    public var storedFavorite: Bool
    /// The favorites version ``storedFavorite`` was learned from; 0 before any report.
    public var storedVersion: UInt64
    /// Where the loaded detail came from.
    public var detailSource: AnswerSource
    /// The film's row in the list it was opened from, when known (the app's Details): the
    /// heart works from it even when the detail cannot load (offline).
    public var listing: Movie?
    /// False while ``listing`` came from outside this session (a snapshot, a state file) and
    /// the catalog has not confirmed it: the heart then stores only the loaded detail's row,
    /// never an unconfirmed one. The detail's load confirms it (its row replaces the listing)
    /// or drops it (the catalog has no such film).
    public var listingChecked = true

    /// Creates the state of the Detail screen for `movieID`; by default nothing is loaded.
    ///
    /// ```swift
    /// let store = Store(initialState: DetailState(movieID: 42),
    ///                   reducer: DetailReducer(catalog: catalog, favorites: favorites))
    /// ```
    public init(movieID: Int, detail: LoadingPhase<MovieDetail, MovieError> = .idle, isFavorite: Bool = false,
                favoriteError: MovieError? = nil, savingFavorite: Bool? = nil, storedFavorite: Bool = false,
                storedVersion: UInt64 = 0, detailSource: AnswerSource = .local, listing: Movie? = nil) {
        self.movieID = movieID
        self.detail = detail
        self.isFavorite = isFavorite
        self.favoriteError = favoriteError
        self.savingFavorite = savingFavorite
        self.storedFavorite = storedFavorite
        self.storedVersion = storedVersion
        self.detailSource = detailSource
        self.listing = listing
    }

    /// The film the heart stores: the loaded detail's, else the row it was opened from (once
    /// confirmed: ``listingChecked``).
    public var favoriteMovie: Movie? { detail.value?.movie ?? (listingChecked ? listing : nil) }
}

/// Everything that can happen on the Detail screen.
public enum DetailIntent: Equatable, Sendable, HostIntents {
    /// What the user did: the only intents a host may send (the C API decodes exactly these).
    case host(Host)
    /// Internal: the detail arrived, from `source`.
    case detailLoaded(MovieDetail, source: AnswerSource = .local)
    /// Internal: the detail could not be loaded (`.notFound` for an unknown id).
    case detailFailed(MovieError)
    /// Internal: the stored favorites changed (or were read for the first time).
    case favoritesChanged(FavoritesSnapshot)
    /// Internal: the write left the movie stored as `isFavorite`; the favorites were at
    /// `version` right after it.
    case favoriteSaved(version: UInt64, isFavorite: Bool)
    /// Internal: storing the favorite failed.
    case favoriteSaveFailed(MovieError)


    /// The screen appeared: `.host(.task)`.
    public static let task = DetailIntent.host(.task)
    /// The user tapped the heart: `.host(.favoriteToggled)`.
    public static let favoriteToggled = DetailIntent.host(.favoriteToggled)
}

/// The Detail feature's reducer: loads one movie and keeps an optimistic favorite toggle
/// consistent with storage.
///
/// Writes are serialized: at most one is in flight, and when it completes the reducer writes
/// the user's latest wish if it differs from what is stored. So ten rapid taps cost at most
/// two writes, the stored value always ends equal to the heart, and writes can never land out
/// of order (a cancelled-but-running write racing its replacement is impossible). A failed
/// write rolls the heart back to ``DetailState/storedFavorite`` (taps made while it was in
/// flight are dropped with it) and sets ``DetailState/favoriteError``.
///
/// Other stores (the Favorites tab, another Detail of the same movie) write the same
/// favorites, and the observation's snapshot and a write's result arrive from different
/// tasks in no fixed order. Both carry the favorites version, and
/// ``DetailState/storedFavorite`` only ever moves to a higher one, so the heart ends on what
/// storage holds last whichever report arrives first: a write that completes after another
/// store changed the movie settles on that newer value rather than on what it wrote.
///
/// ```swift
/// store.send(.task)
/// store.send(.favoriteToggled)   // the heart fills now; the write follows
/// ```
public struct DetailReducer: Reducer {
    /// Loading the detail.
    public static let loadEffect: EffectID = "detail.load"
    /// The long-lived observation of the favorites.
    public static let observeEffect: EffectID = "detail.favorites"
    /// The favorite write (one at a time).
    public static let saveEffect: EffectID = "detail.save"

    private let catalog: any MovieCatalogRepository
    private let favorites: any FavoritesRepository

    /// Creates the reducer over the catalog and the runtime's shared favorites repository.
    public init(catalog: any MovieCatalogRepository, favorites: any FavoritesRepository) {
        self.catalog = catalog
        self.favorites = favorites
    }

    public func reduce(_ state: inout DetailState, _ intent: DetailIntent) -> Effect<DetailIntent> {
        switch intent {
        case .host(.task):
            var effects: [Effect<DetailIntent>] = []
            switch state.detail {
            case .loading, .loaded:
                break
            case .idle:
                // The first task (the detail leaves `.idle` for good) also starts observing.
                effects.append(observe())
                effects.append(load(&state))
            case .failed:
                effects.append(load(&state))
            }
            return .merge(effects)
        case .host(.favoriteToggled):
            guard let movie = state.favoriteMovie else { return .none }
            state.isFavorite.toggle()
            state.favoriteError = nil
            // A write in flight writes the latest wish when it completes (favoriteSaved).
            guard state.savingFavorite == nil else { return .none }
            return save(movie, &state)
        case let .detailLoaded(detail, source):
            state.detail = .loaded(detail)
            state.detailSource = source
            if !state.listingChecked {
                state.listing = detail.movie
                state.listingChecked = true
            }
            return .none
        case let .detailFailed(error):
            state.detail = .failed(error)
            if !state.listingChecked && error == .notFound {
                state.listing = nil
                state.listingChecked = true
            }
            return .none
        case let .favoritesChanged(snapshot):
            if snapshot.version > state.storedVersion {
                state.storedFavorite = snapshot.contains(movieID: state.movieID)
                state.storedVersion = snapshot.version
            }
            // While a write is in flight the heart keeps the user's wish; favoriteSaved settles it.
            if state.savingFavorite == nil { state.isFavorite = state.storedFavorite }
            return .none
        case let .favoriteSaved(version, saved):
            if version > state.storedVersion {
                state.storedFavorite = saved
                state.storedVersion = version
            }
            let written = state.savingFavorite ?? saved
            state.savingFavorite = nil
            guard state.isFavorite != written else {
                // No tap during the write: storage is the truth, and a later change made by
                // another store wins over the value this write stored.
                state.isFavorite = state.storedFavorite
                return .none
            }
            // The user tapped during the write: write the latest wish unless it is stored already.
            guard state.isFavorite != state.storedFavorite, let movie = state.favoriteMovie else { return .none }
            return save(movie, &state)
        case let .favoriteSaveFailed(error):
            state.savingFavorite = nil
            state.isFavorite = state.storedFavorite
            state.favoriteError = error
            return .none
        }
    }

    /// Time travel showed a past heart, but the favorites live in storage: observed again, the
    /// heart is what is stored now (a write in flight still settles it). Back before the first
    /// task, nothing is observed until the next one.
    public func reverted(_ state: inout DetailState) -> Effect<DetailIntent> {
        if case .idle = state.detail { return .cancel(Self.observeEffect) }
        return observe()
    }

    private func load(_ state: inout DetailState) -> Effect<DetailIntent> {
        state.detail = .loading
        return .run(id: Self.loadEffect) { [catalog, id = state.movieID] send in
            do throws(MovieError) {
                let answer = try await catalog.detail(id: id)
                await send(.detailLoaded(answer.value, source: answer.source))
            } catch {
                await send(.detailFailed(error))
            }
        }
    }

    private func observe() -> Effect<DetailIntent> {
        .run(id: Self.observeEffect) { [favorites] send in
            for await snapshot in favorites.observe() { await send(.favoritesChanged(snapshot)) }
        }
    }

    /// Flips what is stored (the user tapped a heart showing `storedFavorite`, so the wish
    /// is its opposite). The flip applies to storage as it is at write time: when another
    /// runtime or process changed the movie a moment ago, the tap flips that newer value, and
    /// the heart settles on what the write left stored.
    private func save(_ movie: Movie, _ state: inout DetailState) -> Effect<DetailIntent> {
        state.savingFavorite = state.isFavorite
        return .run(id: Self.saveEffect) { [favorites] send in
            do throws(MovieError) {
                let outcome = try await favorites.toggle(movie)
                await send(.favoriteSaved(version: outcome.version, isFavorite: outcome.isFavorite))
            } catch {
                await send(.favoriteSaveFailed(error))
            }
        }
    }
}
