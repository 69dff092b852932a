import CinematicDomain

/// The app's bounds, set by the runtime's configuration (`{"app": {"rowsPerList": 2000,
/// "details": 16, "undo": 20}}`) and enforced by ``AppReducer`` on every path that reaches
/// them: a `moved` past the last row, a nested `loadMore` (a child handle's included), a retry,
/// a restore. A host does not check them again.
///
/// ```swift
/// AppReducer(catalog: catalog, favorites: favorites, limits: AppLimits(rowsPerList: 200))
/// ```
public struct AppLimits: Equatable, Sendable {
    /// The most films a list keeps (a multiple of ``MovieCatalog/pageSize``): at the bound no
    /// next page loads, and the list's status line says so.
    public var rowsPerList: Int
    /// The most Details open at once: opening another closes the oldest.
    public var details: Int
    /// The most removed favorites undo remembers (the oldest are forgotten).
    public var undo: Int

    /// The allowed ranges (the upper ends of `details` and `undo` are the wire's bounds).
    public static let rowsPerListRange = 20...10_000
    public static let detailsRange = 1...AppReducer.maximumDetails
    public static let undoRange = 0...AppReducer.maximumUndo

    /// Bounds; the defaults are 2,000 rows per list (100 pages), 16 Details and 20 undos.
    public init(rowsPerList: Int = 2_000, details: Int = AppReducer.maximumDetails, undo: Int = AppReducer.maximumUndo) {
        self.rowsPerList = rowsPerList
        self.details = details
        self.undo = undo
    }

    /// The most pages a list of this bound loads.
    public var pagesPerList: Int { rowsPerList / MovieCatalog.pageSize }
}
