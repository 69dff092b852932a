/*
 * cinematic/snapshot.h: snapshots (SNAPSHOTS), picking up where the person left off: a
 * store's or a whole runtime's, taken and restored.
 *
 * Part of the C API of libcinematic: hosts include <cinematic.h>, which includes this header
 * and holds the conventions every function here follows (statuses, error detail, ownership,
 * handles, input, THREADS, files). Including this header alone includes <cinematic.h> too.
 */
#ifndef CINEMATIC_SNAPSHOT_H
#define CINEMATIC_SNAPSHOT_H

#include "../cinematic.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * SNAPSHOTS. A snapshot is what a person expects back after the process dies: for Search
 * the query and how many pages of results were shown, for Discover the sections that were
 * loaded and how far, for Detail the film (its arguments), for Favorites nothing beyond
 * the favorites file. It is JSON (schema/cinematic.schema.json, "storeSnapshot"; docs/wire.md,
 * "Snapshots"):
 *     {"format":1,"library":"0.3.0","feature":"search","data":{"query":"dune","pagesLoaded":2}}
 * A host may add "view": an object of its own (at most 4096 bytes, 8 levels deep), carried
 * through restores untouched and saved again by the restored store; "firstVisibleIndex" in
 * it makes a restored Search load the pages that show that item.
 * A restored store holds no copy of old results: it opens saying "loading" and reloads
 * through its normal effects (the catalog, or a host catalog and its offline cache), Search
 * and Discover page after page (at most 25 pages for Search, 10 per Discover section;
 * stopping at the last page that exists: restoring "page 10,000" loads what exists within
 * that maximum, and further pages load on "loadMore" as usual); Detail and Favorites send
 * themselves "task". A store opened from a snapshot needs no "task" (one sent anyway is
 * harmless).
 * In flight at snapshot time: a pending search debounce is saved as its query, searched at
 * once on restore; a page still loading is not counted (it loads again if it was the first);
 * a heart tap's favorites write is not in the snapshot at all: the heart shows what the
 * favorites file holds after the restore. A write queued before cinematic_runtime_close
 * completes (saved); one the process died before committing is dropped whole (SQLite
 * commits a write entirely or not at all): never half applied.
 * Compatibility: the library reads its own snapshot format (x-cinematic.snapshotFormat, now
 * 1) whatever version wrote it; format 0 ({"feature": ..., "args": ...}, what a 0.2.0 host
 * could keep, e.g. a recording's "open" line) is migrated: the store opens from those
 * arguments, as new. A newer or unknown format is CINEMATIC_ERR_INVALID naming the format
 * and the version that wrote it. Hostile snapshots get a status, never a crash: unknown
 * members, wrong types, negative counts, a query longer than a query may be, a snapshot of
 * another feature, or more than 256 stores are CINEMATIC_ERR_INVALID (path named); huge page
 * counts are capped as above; a movie id that no longer exists opens a detail whose load
 * fails with "notFound"; nesting is bounded by the JSON rules (CINEMATIC_ERR_JSON).
 */

/**
 * Stores in *out_json (required; owned by the caller: free with cinematic_free) the store's
 * snapshot (see SNAPSHOTS), taken from its current state; never waits. Any thread,
 * including from inside a callback.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_MISUSE (bad handle or NULL out_json); CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_snapshot(cinematic_store *store, char **out_json);

/**
 * Opens a store from a snapshot (snapshot_json, borrowed: a cinematic_store_snapshot result
 * or a format-0 {"feature","args"} document); the feature is the snapshot's. *out
 * (required) receives a store to close like any other. The same as
 * cinematic_store_open(rt, feature, "{\"snapshot\": <snapshot_json>}", out), which also
 * works (and refuses a snapshot of another feature); recordings show that form, so a
 * replay restores the same way. The store's first state says what is loading; its reloads
 * have started when this returns. Never waits for I/O. Any thread.
 * Size: a store snapshot is at most 6565 bytes, well within the 1 MiB input limit: the
 * largest is a Search's, with its longest query once escaped (256 characters in 1024
 * bytes: 255 control characters escaped as 6 bytes each, \u0001, and one character of the
 * 769 bytes left: 2299 bytes), the largest page count (19 digits), a 4096-byte view and a
 * library version of up to 64 bytes, plus 101 bytes of members (Discover is at most 4741
 * bytes with all 9 sections, Detail 4252, Favorites less).
 * Returns CINEMATIC_OK; CINEMATIC_ERR_JSON / _TOO_LARGE for bad JSON; CINEMATIC_ERR_INVALID for
 * a snapshot that is not one, of a format this library cannot read (the message names the
 * format and the version that wrote it) or with bad data (path named);
 * CINEMATIC_ERR_UNKNOWN_FEATURE for a feature this library does not have;
 * CINEMATIC_ERR_MISUSE (bad runtime, NULL snapshot_json or out, or the runtime already has
 * 256 stores open); CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_restore(cinematic_runtime *rt, const char *snapshot_json, cinematic_store **out);

/**
 * Stores in *out_json (required; owned by the caller: free with cinematic_free) the snapshot
 * of every store the runtime has open, in the order they were opened ("runtimeSnapshot"):
 *     {"format":1,"library":"0.3.0","stores":[{"format":1,"feature":"search",...}, ...]}
 * for a host that saves when it goes to the background. Never waits. Any thread.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_MISUSE (bad handle or NULL out_json); CINEMATIC_ERR_CLOSED.
 */
int cinematic_runtime_snapshot(cinematic_runtime *rt, char **out_json);

/**
 * Reopens every store of a runtime snapshot (snapshot_json, borrowed) in rt, in the
 * snapshot's order, each as cinematic_store_restore does. All or nothing: every store
 * snapshot is checked before any opens, and when one fails to open the ones opened before
 * it are closed. *out_stores (required) receives an array of *out_count (optional) new store
 * handles, in the snapshot's order, owned by the caller: free the array (not the stores)
 * with cinematic_free; the stores are closed like any other. At most 256 stores, counting
 * those rt already has open (a runtime keeps at most 256). Any thread.
 * Size: snapshot_json may be up to 2 MiB (2097152 bytes; every other input: 1 MiB), so
 * whatever cinematic_runtime_snapshot hands out comes back: the largest runtime snapshot
 * the limits allow is 256 store snapshots of at most 6565 bytes (see
 * cinematic_store_restore), 255 commas and 101 bytes around them: 1,680,996 bytes (1.6 MiB),
 * a quarter under the limit.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_JSON; CINEMATIC_ERR_TOO_LARGE (over 2 MiB: "a runtime
 * snapshot is larger than 2097152 bytes"); CINEMATIC_ERR_INVALID (not a runtime
 * snapshot, another format, more than 256 stores, or a bad store snapshot: path named, e.g.
 * "$.stores[2].data.query"); CINEMATIC_ERR_UNKNOWN_FEATURE; CINEMATIC_ERR_IO (out of memory
 * for the array; nothing stays open); CINEMATIC_ERR_MISUSE (bad runtime, NULL snapshot_json
 * or out_stores, or the stores would take rt past 256 open: none is opened);
 * CINEMATIC_ERR_CLOSED. On failure *out_stores is NULL and *out_count 0.
 */
int cinematic_runtime_restore(cinematic_runtime *rt, const char *snapshot_json, cinematic_store ***out_stores, int *out_count);

#ifdef __cplusplus
}
#endif

#endif /* CINEMATIC_SNAPSHOT_H */
