package cinematic

// Child handles (`cinematic_store_scope`): the parts of a composed store's state a host may
// render on their own, and how a store opens one (openChild). Written by hand: the schema
// names the app's parts, not their types.

/**
 * A part of a composed store's state that a child handle shows ([Store.scope]): its wire
 * [name] and the typed store the child is. [P] is the parent's state, so a scope only applies
 * to the store it belongs to (`app.scope(AppScopes.search)` compiles, `search.scope(...)` of
 * an app part does not).
 */
class Scope<P, S, T : Store<S>> internal constructor(
    /** The part's name on the wire (`cinematic_store_scope`'s scope), e.g. "search". */
    val name: String,
    /** The feature whose state and intents the child handle has (its states decode with it). */
    internal val feature: Feature<S, T>
) {
    override fun toString(): String = "Scope($name)"
}

/**
 * The parts of an [AppStore] (docs/wire.md "app"): [search], [discover] and [favorites], each
 * exactly as its own store's state, with that store's send helpers; [detail], the shown Detail
 * (the last of `AppState.details`, with its `listing`), `null` while none is open.
 *
 * ```
 * val search: SearchStore = app.scope(AppScopes.search)
 * val detail: ShownDetailStore = app.scope(AppScopes.detail)
 * detail.subscribe { shown -> println(shown?.listing?.label ?: "no film open") }
 * ```
 */
object AppScopes {
    /** The Search screen: a [SearchStore] (a query of any length is taken, fitted by the app). */
    val search: Scope<AppState, SearchState, SearchStore> = Scope("search", SearchFeature)
    /** The Discover screen: a [DiscoverStore]. */
    val discover: Scope<AppState, DiscoverState, DiscoverStore> = Scope("discover", DiscoverFeature)
    /** The Favorites screen: a [FavoritesStore] (a removal goes on the app's undo stack). */
    val favorites: Scope<AppState, FavoritesState, FavoritesStore> = Scope("favorites", FavoritesFeature)
    /** The shown Detail: a [ShownDetailStore], whose state is `null` while no Detail is open. */
    val detail: Scope<AppState, AppDetailState?, ShownDetailStore> = Scope("detail", ShownDetailFeature)
    /** Every part, in the order of the app's state. */
    val all: List<Scope<AppState, *, *>> = listOf(search, discover, favorites, detail)
}

/** The parts [definition]'s stores have (the app's; none for the four features). */
internal fun scopesOf(definition: Feature<*, *>): List<Scope<*, *, *>> =
    if (definition === AppFeature) AppScopes.all else emptyList()

/**
 * A child handle of an app's shown Detail ([AppScopes.detail]): its state is the last of
 * `AppState.details` (an [AppDetailState]: the Detail's state and the film's `listing`), or
 * `null` while no Detail is open; its helpers are the detail feature's, acting on the Detail
 * shown when they are sent (nothing while none is).
 */
class ShownDetailStore internal constructor(runtime: Runtime, handle: Long) : Store<AppDetailState?>(runtime, handle, ShownDetailFeature) {
    /**
     * The shown Detail appeared (the app already loads a Detail it opens).
     * Sends [Task], `{"type":"task"}`; reduced when this returns.
     *
     * @throws CinematicException "closed".
     */
    fun task() = send(Task().toJson())

    /**
     * The person tapped the shown Detail's heart: flips the favorite at once, then what is stored.
     * Sends [FavoriteToggled], `{"type":"favoriteToggled"}`; reduced when this returns.
     *
     * @throws CinematicException "closed".
     */
    fun favoriteToggled() = send(FavoriteToggled().toJson())
}

/** The app's shown Detail as a child handle's feature: "detail" intents, a nullable [AppDetailState]. */
internal object ShownDetailFeature : Feature<AppDetailState?, ShownDetailStore>("detail", null) {
    override fun decodeState(json: String): AppDetailState? = decodeTree(Json.parse(json))

    override fun decodeStateTree(tree: Map<String, Any?>): AppDetailState? = AppDetailState.fromJson(tree)

    override fun decodeTree(tree: Any?): AppDetailState? = tree?.let { AppDetailState.fromJson(it) }

    /** The shown Detail as maps (an empty map while none is shown). */
    override fun encodeState(state: AppDetailState?): Map<String, Any?> = state?.toJson() ?: emptyMap()

    /** Not a feature's state (the schema's detailState has no `listing`, and is never null; nor is a patchedDelivery's state). */
    override val isWireState: Boolean get() = false

    override fun wrap(runtime: Runtime, handle: Long): ShownDetailStore = ShownDetailStore(runtime, handle)

    override val sampleCalls: List<Pair<String, (ShownDetailStore) -> Unit>> = listOf(
        "task" to { store -> store.task() },
        "favoriteToggled" to { store -> store.favoriteToggled() }
    )
}

/** Opens the child handle of the part [name] of this store, typed by [feature] (see [Store.scope]). */
internal fun Store<*>.openChild(name: String, feature: Feature<*, *>): Store<*> {
    val childHandle = openedHandle("child store") { out ->
        library.storeScope(handle, cText(name, Status.INVALID, "the scope name"), out)
    }
    val store: Store<*> = feature.wrap(runtime, childHandle)
    store.stateLock.locked {
        store.parentStore = this
        store.scopeOf = name
    }
    // Closed meanwhile: the library closed the child with this store, so release it here.
    val orphan = stateLock.locked { released.also { if (!it) children.add(store) } }
    if (orphan) store.releaseCallbacks()
    return store
}

/** Forgets a closed child handle of this store. */
internal fun Store<*>.forgetChild(child: Store<*>) {
    stateLock.locked { children.remove(child) }
}
