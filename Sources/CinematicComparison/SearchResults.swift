import CinematicDomain
import MVIKit

/// What the Search screen shows, in every version: idle, loading, the movies, or a typed failure.
public typealias SearchResults = LoadingPhase<[Movie], MovieError>
