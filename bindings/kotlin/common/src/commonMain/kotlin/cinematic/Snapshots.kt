package cinematic

/*
 * Snapshots: pick up where the person left off (include/cinematic/snapshot.h, SNAPSHOTS;
 * docs/wire.md, "Snapshots"). A store's or a runtime's snapshot is what a person expects
 * back (the query and pages of a search, the sections of Discover, the film of a detail), as
 * JSON whose shape is the schema's StoreSnapshot / RuntimeSnapshot; a runtime, later or in
 * another process, reopens stores from it, which reload through their normal effects (their
 * first state says "loading").
 *
 *     val saved = runtime.snapshotJson()                  // going to the background
 *     ...
 *     Runtime().use { val (search, detail) = it.restoreAll(saved) }   // the next launch
 */

/**
 * This store's snapshot as the library's JSON text (`cinematic_store_snapshot`), e.g.
 * `{"format":1,"library":"0.3.0","feature":"search","data":{"query":"dune","pagesLoaded":2}}`.
 * A host may add a `"view"` of its own (`{"firstVisibleIndex":37}`) before saving it.
 *
 * @throws CinematicException "closed".
 */
fun Store<*>.snapshotJson(): String =
    ownedJson("snapshot") { out -> runtime.library.storeSnapshot(handle, out) }.also { runtime.library.record("snapshot", null, it) }

/** This store's snapshot, typed ([StoreSnapshot]). */
fun Store<*>.snapshot(): StoreSnapshot = StoreSnapshot.fromJson(snapshotJson())

/**
 * The snapshot of every store this runtime has open, in the order they were opened
 * (`cinematic_runtime_snapshot`), as JSON text.
 *
 * @throws CinematicException "closed".
 */
fun Runtime.snapshotJson(): String =
    ownedJson("runtime snapshot") { out -> library.runtimeSnapshot(handle, out) }.also { library.record("runtimeSnapshot", null, it) }

/** This runtime's snapshot, typed ([RuntimeSnapshot]). */
fun Runtime.snapshot(): RuntimeSnapshot = RuntimeSnapshot.fromJson(snapshotJson())

/**
 * Opens a store from a store snapshot's JSON text (`cinematic_store_restore`): the feature's
 * typed store ([SearchStore] for a search snapshot, ...). Its first state says "loading".
 *
 * @throws CinematicException "invalid" for a snapshot that is not one or of a format this
 *   library cannot read (the message names it), "unknown_feature", "json", "closed".
 */
fun Runtime.restore(snapshotJson: String): Store<*> {
    val handle = openedHandle("store") { out -> library.storeRestore(handle, jsonText(snapshotJson), out) }
    return adopt(handle)
}

/** Opens a store from a typed store snapshot. */
fun Runtime.restore(snapshot: StoreSnapshot): Store<*> = restore(Json.write(snapshot.toJson().filterValues { it != null }))

/**
 * Reopens every store of a runtime snapshot's JSON text, in order
 * (`cinematic_runtime_restore`): all or none.
 *
 * @throws CinematicException as [restore]; nothing stays open when one store fails.
 */
fun Runtime.restoreAll(snapshotJson: String): List<Store<*>> {
    val handles = ArrayList<Long>()
    checkStatus(library.runtimeRestore(handle, jsonText(snapshotJson), handles))
    return handles.map { adopt(it) }
}

/** Wraps a restored store's handle in its feature's typed store (the feature is the snapshot's). */
private fun Runtime.adopt(storeHandle: Long): Store<*> {
    val feature = (Json.parse(ownedJson("snapshot") { out -> library.storeSnapshot(storeHandle, out) }) as Map<*, *>)["feature"] as String
    val definition: Feature<*, *> = ALL_FEATURES.firstOrNull { it.name == feature } ?: UntypedFeature(feature)
    return register(definition.wrap(this, storeHandle))
}
