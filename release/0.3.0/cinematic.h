/*
 * cinematic.h: the C API of libcinematic (Cinematic Core).
 *
 * libcinematic runs a movie app's features (Search, Discover, Favorites, Detail) as MVI
 * stores: a host sends intents as JSON strings, reads states as JSON strings, and the
 * effects (debounces, catalog queries, favorites writes) run inside the library and report
 * back through callbacks.
 *
 *     cinematic_runtime *rt;
 *     cinematic_store *search;
 *     cinematic_runtime_open(NULL, &rt);
 *     cinematic_store_open(rt, "search", NULL, &search);
 *     cinematic_store_send(search, "{\"type\":\"queryChanged\",\"query\":\"dune\"}");
 *     cinematic_store_settle(search, 5000);
 *     char *state;
 *     cinematic_store_state(search, &state);   // {"query":"dune","results":{"phase":"loaded",...}}
 *     puts(state);
 *     cinematic_free(state);
 *     cinematic_runtime_close(rt);             // closes its stores too
 *
 * CONVENTIONS
 *
 * Status. Every function returns an int status (CINEMATIC_OK = 0, else a CINEMATIC_ERR_*)
 * except the pure getters cinematic_version, cinematic_status_name, cinematic_last_error and
 * cinematic_free. Results go through out-pointers, which are set to NULL / -1 / 0 on
 * failure. After any error the runtime and its stores keep working.
 *
 * Error detail. cinematic_last_error() returns a JSON envelope describing the last failed
 * call on the calling thread, for example
 *     {"status":"invalid","message":"missing required member \"query\"","path":"$.query"}
 *     {"status":"json","message":"malformed JSON: ...","line":1,"column":9}
 * Every status-returning call clears it, so after a success it is NULL (even when a
 * callback run inside that call made a failing call of its own).
 *
 * Ownership. Every pointer argument is BORROWED for the duration of the call: the library
 * copies what it keeps. Every char * the library hands out through an out-pointer is OWNED
 * BY THE CALLER and must be released with cinematic_free() (never free(): the library may
 * use another allocator). Strings passed to callbacks are BORROWED for the duration of the
 * callback: copy them to keep them. Static strings (version, status names) are never freed.
 *
 * Handles. cinematic_runtime and cinematic_store are opaque. A NULL handle, or a value that
 * is not a handle of the expected kind, gives CINEMATIC_ERR_MISUSE; a handle that was
 * closed gives CINEMATIC_ERR_CLOSED. Neither ever crashes, and closed handles are never
 * reused.
 *
 * Input. JSON inputs are NUL-terminated UTF-8 of at most 1 MiB (CINEMATIC_ERR_TOO_LARGE
 * beyond); one input has a limit of its own: a runtime snapshot given to
 * cinematic_runtime_restore, at most 2 MiB (the largest one the limits allow is 1.6 MiB).
 * Malformed JSON, invalid UTF-8, duplicate keys, NUL escapes in strings and
 * documents nested more than 2048 levels deep (the innermost value counts as a level) give
 * CINEMATIC_ERR_JSON. A well-formed document that is not a valid intent, config or argument
 * (including a top-level scalar such as 42 or null) gives CINEMATIC_ERR_INVALID naming the
 * offending path ("$" for the document itself). Unknown keys in configs, arguments and
 * intents are errors (typos surface at once); unknown keys in provider answers are ignored
 * (forward compatibility).
 *
 * Threads. Every function may be called from any thread. cinematic_store_send reduces
 * before it returns: a cinematic_store_state right after it sees the intent applied.
 *
 * THREADS: the execution model. The library keeps a host alive whatever the host does:
 *   - A host's thread never waits for I/O, for another runtime or for a callback of another
 *     thread. cinematic_store_send decodes, reduces, delivers the state it produced (with
 *     "immediate" delivery, before any effect of that intent runs) and starts the effects up
 *     to their first suspension, in microseconds, whatever the effects then do. A heart tap
 *     returns at once even while another process holds the favorites file locked: the write
 *     waits on the library's favorites thread and the heart rolls back only if it fails.
 *   - Blocking work runs on threads each runtime owns: one per SQLite connection (catalog,
 *     favorites, a host catalog's offline cache), one for its effects, one for delivering
 *     what effects produce. Nothing of a runtime runs on Swift's shared cooperative pool, so
 *     a runtime whose callbacks are slow stalls only its own deliveries, never another
 *     runtime. One more thread serves the whole process: its timer, which only wakes
 *     effects sleeping on the system clock (debounces, provider request deadlines).
 *   - No lock is held while the library calls out (callbacks, observers, task cancellation),
 *     so a callback may call back in; the library's own locks are leaves.
 *   - Work per input is bounded: JSON documents are at most 1 MiB (a runtime snapshot 2 MiB)
 *     and 2048 levels deep, a search query at most 256 characters and 1024 UTF-8 bytes
 *     (CINEMATIC_ERR_INVALID beyond), so no query costs more than a few plain ones; a movie
 *     file indexed by cinematic_catalog_build_index at most 256 MiB (inflated too), its titles
 *     at most 1024 characters (every bound is listed there).
 *   - No host thread waits on the library's own I/O either: recordings are written by the
 *     runtime's recorder thread, CINEMATIC_LOG=stderr lines by one library thread per
 *     process through a bounded buffer (1 MiB; lines past it are dropped and their count
 *     written once stderr drains), offline cache writes by the cache's thread (at most 256
 *     waiting; more are dropped: the cache is disposable).
 *   - Memory is bounded by configuration, never by uptime or input size: answered host
 *     requests leave nothing behind (their deadline timers included, on either clock: a
 *     request answered or replaced is let go at once, not when its deadline would have
 *     passed), a replay holds one line of its recording at a time.
 *   - The blocking calls, all documented as such: cinematic_runtime_open (opens files and
 *     checks their headers; the catalog is made ready on the catalog's own thread: the
 *     embedded one is read in place in about a millisecond, a file read and checked once;
 *     searches wait for it there, never the host),
 *     cinematic_catalog_build_index (builds an index: seconds), cinematic_runtime_close and
 *     cinematic_store_close (wait for a callback of the closed runtime or store running on
 *     another thread, except from inside a callback; see below), cinematic_store_settle (by
 *     design), cinematic_runtime_advance_clock and cinematic_runtime_respond (wait, bounded by
 *     CPU work, until the effects they woke reached their next suspension), cinematic_replay
 *     (runs a whole recording), cinematic_runtime_set_logger (waits for a log line running
 *     on another thread, like cinematic_store_observe).
 *   - Deadlock freedom across callbacks: called from inside any callback (of any runtime),
 *     cinematic_store_close, cinematic_runtime_close, cinematic_store_observe and
 *     cinematic_runtime_set_provider do not wait for a callback running on another thread;
 *     no new callback of that store, runtime or provider starts after they return, but one
 *     already running elsewhere may finish afterwards. cinematic_store_settle is refused
 *     there (CINEMATIC_ERR_MISUSE) for the same reason.
 *     (Two callbacks that each close the other's store would otherwise wait forever.)
 *
 * Favorites shared across runtimes and processes. Runtimes using the same favorites file see
 * each other's changes within about 50 ms (the favorites thread polls SQLite's data_version;
 * read-only favorites compare the file's size and time instead). A heart tap flips what is
 * stored at that moment, so two processes toggling the same movies end with every heart
 * equal to the file.
 *
 * Files are ours or untouched. A favorites file is adopted only when it is new (missing or
 * empty) or carries this library's application_id ("CINE") and a schema it knows; files of
 * 0.1.0 (no application_id, our exact schema) are adopted and stamped. Anything else gives
 * CINEMATIC_ERR_IO, and the file is left unchanged byte for byte: the check reads the SQLite
 * header before SQLite opens it. Read-only favorites create nothing (no -wal, no -shm).
 * The offline cache of a host catalog follows the same rule with its own application_id
 * ("CNOC"), and tells busy from damaged. A missing or empty cache file is initialized in
 * place under SQLite's locks (never unlinked), so any number of processes may create one
 * cache at once. A cache another process keeps locked is waited for (about 2 s), then that
 * runtime runs without it: nothing is ever deleted. Only our own file that SQLite reports
 * damaged (corrupt, not a database), at open (which reads every stored answer, so one
 * damaged page anywhere among them is found there, not refused) or later during a lookup or
 * store, is replaced, in place and in one transaction, by an empty cache: another process
 * using it sees the old file or the new one, never none. Each replacement is logged
 * ("offline cache the offline cache at <path> was damaged (<SQLite's words>); it was
 * replaced by an empty one"; see cinematic_runtime_set_logger and CINEMATIC_LOG).
 * A recording ("record") is a file the library writes itself, under the same rule: a new
 * file is created under a temporary name and linked into place (never over anything); an
 * existing path is replaced (by rename: a reader of the old file keeps it whole) only when
 * it is a regular file, not a symbolic link, starts as a recording of ours (or is empty), and
 * no other runtime or process is recording to it (one writer per file: an exclusive flock
 * held while recording). A FIFO is written as it is. A record path naming the runtime's own
 * favorites, offline cache or index (or their -wal/-shm/-journal) is refused. Anything else
 * gives CINEMATIC_ERR_IO, and the file is left unchanged. A write that fails (disk full, file
 * too large, a pipe nobody reads) stops the recording at its last complete line, is logged
 * ("runtime recording stopped: ...") and is reported by cinematic_runtime_close
 * (CINEMATIC_ERR_IO); the session itself goes on.
 * cinematic_runtime_close returns after the catalog, favorites and offline cache files are
 * closed, and a recording is written and flushed to disk (fsync).
 *
 * Files we read are hostile until proven ours. Every file the library reads is opened
 * without blocking and must be a regular file: a FIFO, a device, a socket or a directory at
 * any path below is CINEMATIC_ERR_IO at once ("... is not a regular file (a FIFO)"), never a
 * hang. What each reader accepts, and what a hostile file gets:
 *   - A catalog index ("catalog": {"path"}): at most 4 GiB; SQLite's header with the index's
 *     application_id ("CIDX") and format, checked before anything else is read (otherwise
 *     CINEMATIC_ERR_IO at open, the file untouched). It is then read whole, in one read, into
 *     memory the library owns (one copy however many runtimes of the process open that same
 *     file), on the catalog's thread: nothing of it is mapped, nothing is
 *     written or created beside it (a header that says WAL is read as a plain database: no
 *     -wal, no -shm), and rewriting or truncating the file while a runtime uses it changes
 *     nothing that runtime serves. Every array the search reads in place is validated there,
 *     in one pass (the search section's trailer and frame: every part's offset and length
 *     inside it; a sorted vocabulary of non-empty words, postings ascending in range, offsets
 *     in range, ratings finite in 0...10): a truncated, damaged or crafted index fails the
 *     catalog's load, and
 *     cinematic_runtime_catalog_state says {"phase":"failed"} with a message naming the
 *     field ("the index is damaged: its words are not sorted at word 12"); every store then
 *     shows a failed phase. A film whose stored distribution is not ten numbers in 0...100
 *     fails that film's Detail ("storage") and nothing else.
 *   - The favorites (read-write or read-only) and the offline cache: SQLite files, checked as
 *     "Files are ours or untouched" says before SQLite opens them, then read by SQLite, which
 *     reports damage as an error (a failed phase or a status), never a crash.
 *   - A recording (cinematic_replay): streamed, one line of at most 1 MiB at a time, each
 *     line a JSON document validated like any input (see cinematic_replay).
 *   - A movie file (cinematic_catalog_build_index): see that function for its bounds.
 * The JSON layer never traps on a value: a number JSON cannot hold is encoded as null, and
 * none can reach it from a file, since files are validated where they enter.
 *
 * Versioning. The header's CINEMATIC_VERSION and cinematic_version() (the loaded library's)
 * follow semantic versioning; the ABI only grows.
 *
 * WIRE FORMAT
 *
 * The JSON that crosses this API (configs, store arguments, intents, states, error
 * envelopes, the provider protocol) is specified by schema/cinematic.schema.json (JSON Schema
 * draft 2020-12), the contract, and explained feature by feature in docs/wire.md. Keys are
 * camelCase everywhere. Host types (Python TypedDicts, Kotlin data classes) and this header's
 * status and version block are generated from the schema (tools/wiregen.py). The features:
 * "search", "discover", "favorites", "detail" (see docs/wire.md for their arguments, intents
 * and states). A host-provided catalog ("catalog": "host") receives requests such as
 * {"op":"search","query":"dune","page":1} with an id, and answers with
 * cinematic_runtime_respond; {"op":"cancel"} says an answer is no longer needed (the request
 * was replaced, or passed its deadline: "requestDeadlineMs"). With a host catalog, loaded
 * phases say where their value came from: "source":"live", or "source":"cache" with
 * "cachedAt" (Unix seconds) when the provider failed and the offline cache had the answer.
 */
#ifndef CINEMATIC_H
#define CINEMATIC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* BEGIN GENERATED: version and statuses (tools/wiregen.py from schema/cinematic.schema.json) */
/** The version this header describes. Compare with cinematic_version() at run time. */
#define CINEMATIC_VERSION_MAJOR 0
#define CINEMATIC_VERSION_MINOR 3
#define CINEMATIC_VERSION_PATCH 0
#define CINEMATIC_VERSION "0.3.0"
/** MAJOR * 10000 + MINOR * 100 + PATCH, for compile-time comparisons. */
#define CINEMATIC_VERSION_NUMBER 300

/** Statuses: every function returns one (as int). Values never change; new ones may be
 *  added. cinematic_status_name gives the name in parentheses. */
typedef enum cinematic_status {
    CINEMATIC_OK = 0, /**< Success. ("ok") */
    CINEMATIC_ERR_JSON = 1, /**< Input is not well-formed JSON / valid UTF-8, or nests too deep. ("json") */
    CINEMATIC_ERR_INVALID = 2, /**< Well-formed, but not a valid intent, config or argument. ("invalid") */
    CINEMATIC_ERR_UNKNOWN_FEATURE = 3, /**< No feature has that name. ("unknown_feature") */
    CINEMATIC_ERR_IO = 4, /**< A file or system resource failed, or a file is not ours. ("io") */
    CINEMATIC_ERR_CLOSED = 5, /**< The handle was closed. ("closed") */
    CINEMATIC_ERR_MISUSE = 6, /**< NULL or foreign handle, NULL required pointer, wrong mode or thread, more than 256 stores in a runtime. ("misuse") */
    CINEMATIC_ERR_TIMEOUT = 7, /**< A wait ran out of time. ("timeout") */
    CINEMATIC_ERR_TOO_LARGE = 8 /**< Input larger than 1 MiB (a runtime snapshot: 2 MiB). ("too_large") */
} cinematic_status;

/** The features cinematic_store_open accepts, in the schema's order, as an initializer:
 *  `const char *names[] = CINEMATIC_FEATURE_NAMES;`. Each one's intents and state are in
 *  schema/cinematic.schema.json and docs/wire-format.md. */
#define CINEMATIC_FEATURE_NAMES { "search", "discover", "favorites", "detail", "app" }
/** How many names CINEMATIC_FEATURE_NAMES holds. */
#define CINEMATIC_FEATURE_COUNT 5
/** Arguments each feature's store can always be opened with, in CINEMATIC_FEATURE_NAMES order
 *  (NULL: the feature takes none), e.g. for a host's smoke test over every feature. */
#define CINEMATIC_FEATURE_SAMPLE_ARGUMENTS { NULL, NULL, NULL, "{\"movieId\":15249}", NULL }
/* END GENERATED */

/** A runtime: configuration, clock, catalog, favorites and callback delivery for its stores. */
typedef struct cinematic_runtime cinematic_runtime;
/** A store: one feature's state machine, owned by a runtime. */
typedef struct cinematic_store cinematic_store;

/* ------------------------------------------------------------------------------------ */
/* Library                                                                               */

/** The loaded library's version, e.g. "0.1.0". Static: never free it. Any thread. */
const char *cinematic_version(void);

/** The name of a status, e.g. "invalid" for CINEMATIC_ERR_INVALID, "unknown" for a value
 *  that is no status. Static: never free it. Any thread. */
const char *cinematic_status_name(int status);

/** The JSON error envelope of the last failed call on this thread, or NULL when the last
 *  call succeeded. Borrowed: valid until the next cinematic_* call on this thread. */
const char *cinematic_last_error(void);

/** Frees a string the library returned through an out-pointer. NULL is a no-op. */
void cinematic_free(void *p);

/* ------------------------------------------------------------------------------------ */
/* Catalog index                                                                         */

/**
 * CATALOG INDEX. A catalog is searched through its index: the films (for Discover and
 * Detail) and the search section (vocabulary, postings in popularity order, each title's
 * words, the rows a result shows), laid out to be searched where it lies, so opening builds
 * nothing and a keystroke does no SQL. The index is one read-only file: a SQLite database
 * with application_id "CIDX" and user_version = the index format version (2), whose "meta"
 * table stamps the format, the data it was built from (CRC-32 and length of the movie file)
 * and the library version that built it, followed by the search section and a 16-byte
 * trailer (docs/catalog-index.md has the layout). The embedded index is read in place from
 * the library's own read-only data; runtimes of one process share one copy of an index.
 *
 * The embedded catalog's index is built by `make lib` (build/bin/cinematic-index
 * --embedded) and compiled into libcinematic.so itself, so it travels with every artifact
 * (build tree, `make install` prefix, wheel, jar) with nothing to find at run time, and
 * a library can never meet an index built for another version or another data file: it is
 * used only when its stamp is this library's own (otherwise cinematic_runtime_open fails
 * with CINEMATIC_ERR_IO). A library built without one (`swift build`, the Swift tests)
 * builds the embedded catalog in memory on the catalog's thread when a runtime opens:
 * cinematic_runtime_open still returns at once, searches wait (their state "loading")
 * until it is ready, cinematic_runtime_catalog_state reports the progress, and nothing is
 * ever written to disk.
 *
 * Why inside the library: one file travels with every artifact (auditwheel and JNA carry
 * the library alone), nothing has to be found beside it at run time, and it was built by
 * the very library that uses it. docs/catalog-index.md has the format and the reasons.
 *
 * Figures (make bench, this 2-core machine, one run): index build 1.76 s and 10.9 MB for the
 * 58,788 shipped films (51.4 s and 162.3 MB in format 1 for a synthetic 1,000,000); the
 * embedded catalog is read in place (cinematic_runtime_open to the first search result
 * 3.2-3.8 ms, a C host's RSS 15.7 MiB), a file read once per process (RSS 1.05x the index
 * at 1,000,000 films); a keystroke's search p50 40.5 us, p99 625 us
 * (231 us and 5.03 ms at 1,000,000); process start to the first search result 103 ms cold,
 * 91 ms warm.
 */

/**
 * Builds a catalog index at index_path (borrowed) from the movie file at movie_path
 * (borrowed; NULL: the catalog compiled into the library). The movie file is the shipped
 * TSV's format (docs/catalog-index.md): a header line with the 19 columns id, title, year,
 * length, budget, rating, votes, r1..r10, mpaa, genres, then one film per line,
 * tab-separated, UTF-8, optionally gzip-compressed (every member of a gzip file is read).
 * Open the index with {"catalog": {"path": index_path}}.
 *
 * Paths are bytes, passed to the system exactly as given and never re-encoded: a path that
 * is not valid UTF-8 is CINEMATIC_ERR_INVALID (nothing is read or written; the JSON config
 * could not name such an index either), as is an empty one.
 *
 * The movie file is hostile until proven ours. Every bound it can reach, each refused with
 * CINEMATIC_ERR_IO and a message naming the bound (and, for a line, its number and column):
 *   - Only a regular file is read: a FIFO, a device, a socket or a directory is refused at
 *     once, without blocking and without reading it.
 *   - The file holds at most 256 MiB (checked from its size, before a byte is read), and a
 *     gzip file inflates to at most 256 MiB of text: inflating is counted first through a
 *     small buffer, so a gzip bomb costs CPU up to the bound (under a second), never memory.
 *     256 MiB is about 2.8 million films; building takes about 14 times the text in memory
 *     (77 MB for the shipped 5.5 MB), so at most about 3.5 GB.
 *   - Each line: valid UTF-8, exactly 19 columns, no field over 4096 bytes; the title 1 to
 *     1024 characters and at most 4096 UTF-8 bytes (queries are bounded at 256 / 1024; the
 *     longest shipped title has 121 characters), so the work per title is bounded, and
 *     linear in its length; mpaa at most 32 bytes; genres at most 32 names of at most 64
 *     bytes each.
 *   - Numbers: integers in range (id 0...4294967295, unique in the file; year 0...9999;
 *     length 0...65535; budget 0...9223372036854775807, or empty or NA; votes
 *     0...4294967295) and finite decimals in range (rating 0...10; r1..r10 0...100):
 *     nan, inf and 1e999 are refused, never stored.
 *   - At most 65,535 distinct genre lists and 65,535 distinct mpaa values in a file.
 *
 * Files are ours or untouched, at the moment of writing. index_path is checked before the
 * movie file is read: it may hold nothing, an empty file or a catalog index; anything else
 * (another program's file, a favorites database, a symbolic link, a directory) is
 * CINEMATIC_ERR_IO and left unchanged. The index is written to a temporary file created new
 * beside index_path (.NAME.tmp-PID-RANDOM, held locked with flock(2) while it is built),
 * flushed (fsync), then put in place atomically, only if index_path still holds what was
 * checked: where nothing was, with link(2), which never replaces (a file that appeared there
 * meanwhile is kept and the build fails); where an index was, with renameat2(2)
 * RENAME_EXCHANGE, keeping the swap only if the file swapped out is the very one checked and
 * still an index (otherwise it is swapped straight back, unchanged, and the build fails).
 * index_path thus holds a whole index or what it held before; a file system without
 * RENAME_EXCHANGE refuses to replace an index (remove it first). A failed build leaves no
 * temporary file, and a build killed midway leaves one that the next build of the same
 * index_path removes: only files with that name that nobody holds locked (their writer is
 * dead) and that are empty or an index; anything else is left alone.
 *
 * Blocks for the build (about 2 s per 60,000 films); call it from a thread of yours that may
 * wait. Any thread; builds of different index paths may run at once (of the same one, the
 * first to finish wins and the others fail, leaving it as it is).
 * Returns CINEMATIC_OK; CINEMATIC_ERR_IO when the movie file cannot be read, is not a
 * regular file, passes a bound above or is malformed (the message names the line and what
 * is wrong with it), or the index cannot be written or index_path changed during the build;
 * CINEMATIC_ERR_MISUSE when index_path is NULL; CINEMATIC_ERR_INVALID when a path is empty
 * or not valid UTF-8 (the envelope's "path" names "index_path" or "movie_path").
 */
int cinematic_catalog_build_index(const char *movie_path, const char *index_path);

/**
 * Where the runtime's catalog is in its loading, in the loading phases of states
 * (schema/cinematic.schema.json, "catalogState"): {"phase":"loading","progress":0.42} while
 * it loads on the catalog's own thread (searches, Discover and Detail wait there, their
 * states "loading"); {"phase":"loaded"}; or {"phase":"failed","error":{"code":"storage",
 * "message":"..."}} (every query then fails with that error). The embedded catalog loads in
 * about 30 ms; a library built without an index (`swift build`) builds it in memory first,
 * reporting progress; a {"path": ...} index loads in about 1 s per million films. A "host"
 * catalog is always loaded. Never waits. Any thread.
 * On success *out_json (required) receives the JSON, owned by the caller (cinematic_free).
 * Returns CINEMATIC_OK; CINEMATIC_ERR_MISUSE (bad handle, NULL out_json); CINEMATIC_ERR_CLOSED.
 */
int cinematic_runtime_catalog_state(cinematic_runtime *runtime, char **out_json);

/* ------------------------------------------------------------------------------------ */
/* Runtime                                                                               */

/**
 * Opens a runtime. config_json (borrowed; NULL for all defaults) is an object with any of:
 *   "catalog":   "embedded" (default: the built-in 58,788-film catalog; its index is
 *                built by `make lib` and compiled into the library, so opening it builds
 *                nothing and writes nothing anywhere; see CATALOG INDEX above)
 *                | {"path": "/dir/movies.idx"} (an index built by cinematic-index or
 *                cinematic_catalog_build_index from a movie file of your own; a file that
 *                is not a cinematic index, or of another format version, is
 *                CINEMATIC_ERR_IO and left untouched)
 *                | "host" (the host answers catalog requests; see cinematic_runtime_set_provider)
 *                | {"host": "<source>"} (the same, declaring the catalog's source: the
 *                provider's base URL or a name, 1 to 1024 UTF-8 bytes). The offline cache
 *                keeps each source's answers apart: only the source that stored an answer
 *                is ever shown it. Plain "host" is an anonymous source: it gets no default
 *                offline cache, and the rows it stores in an explicit cache are its own.
 *   "favorites": ":memory:" (default), a file path (its directory must exist; created with
 *                WAL journaling; refused with CINEMATIC_ERR_IO, unchanged, when it is
 *                another program's file), or {"path": "...", "readOnly": true} (an existing
 *                favorites file, opened read-only, never written, no file created: listing
 *                works and follows other runtimes' changes, every change fails with a
 *                "storage" error)
 *   "clock":     "system" (default) or "manual" (time moves only with
 *                cinematic_runtime_advance_clock; for tests)
 *   "delivery":  "immediate" (default) or "queued" (see DELIVERY above)
 *   "search":    {"debounceMs": 250}  (0...60000)
 *   "history":   N (0...100000, default 0 = off): debug history entries each store keeps
 *                (see cinematic_store_history). Off costs nothing; on, a store holds at most
 *                N entries (two states each; states share unchanged parts), the oldest
 *                dropped first.
 *   "record":    "/path/session.jsonl": records the session to that file (created, or a
 *                recording of ours replaced: see "Files are ours or untouched";
 *                CINEMATIC_ERR_IO when it cannot be), one JSON object per line
 *                (docs/wire.md, "Recordings"): the config, every store opened and closed,
 *                every intent each store reduced (host and internal) and each state it
 *                produced, time-travel steps, clock advances, and every catalog and
 *                favorites request the stores made with its answer, each with "t", the
 *                virtual time in ms. Replay it with cinematic_replay. Recording runs on
 *                the runtime's own recorder thread: it never blocks a send; the file is
 *                complete when cinematic_runtime_close returns (which reports a write that
 *                failed).
 * The environment variable CINEMATIC_LOG=stderr makes every runtime log to standard error
 * (see cinematic_runtime_set_logger). Unset or empty: no log. Any other value (the name is
 * exact: "STDERR" is not it) is ignored and reported once per process, when the first
 * runtime opens, by one line on standard error:
 *   cinematic: CINEMATIC_LOG="<value>" is not understood (the only value is "stderr"); not logging
 *   "offlineCache": (a "host" catalog only; checked and unused otherwise) where successful
 *                answers are stored, to be shown with "source":"cache" when the provider
 *                fails with "network" or "timeout"; per source (see "catalog": an answer
 *                stored for one source is never shown for another, or for plain "host").
 *                Default: on for {"host": "<source>"}, at
 *                $XDG_CACHE_HOME/cinematic/offline-cache.sqlite (or ~/.cache/...), skipped
 *                when it cannot be opened there (the runtime works without it); off for
 *                plain "host" (no shared default without a source). false: off.
 *                {"path": "..." (":memory:" allowed), "maxBytes": N (default 64 MiB, >= 1;
 *                least recently used answers evicted first), "ttlSeconds": N (default
 *                604800, >= 1)}, each optional. An explicit path that cannot be opened or
 *                read, or a file that is not ours or is ours from a newer schema (left
 *                unchanged), is CINEMATIC_ERR_IO. A cache another process keeps locked is
 *                not an error: the runtime opens without it. An empty file is adopted in
 *                place; our own damaged cache is replaced by an empty one. A store or
 *                lookup that fails later is a miss; the cache keeps working.
 *   "requestDeadlineMs": (a "host" catalog) 10000 (1...3600000): a provider request not
 *                answered in that time, on the runtime's clock, fails with "timeout" and the
 *                provider receives {"op":"cancel"} for it.
 *   With a "manual" clock the cache's "now" (cachedAt, the time to live) is the real time
 *   at open plus the time advanced.
 * On success *out (required) receives a runtime to close with cinematic_runtime_close.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_JSON / _TOO_LARGE for bad JSON; CINEMATIC_ERR_INVALID
 * for an unknown key or bad value (path named); CINEMATIC_ERR_IO when the catalog, the
 * favorites or an explicitly configured offline cache cannot be built or opened (or is not
 * ours) or the event fd cannot be made; CINEMATIC_ERR_MISUSE when out is NULL.
 */
int cinematic_runtime_open(const char *config_json, cinematic_runtime **out);

/**
 * Closes the runtime and every store it still has: effects stop, outstanding provider
 * requests are abandoned (no cancel callbacks), a favorites write already queued completes
 * (one waiting for another process's lock gives up), the runtime's threads end and its files
 * are closed when this returns, and no callback of this runtime runs after this returns
 * (when called from inside a callback, that callback is the last, and a callback running on
 * another thread may still be finishing; see THREADS). The handle and its stores' handles
 * answer CINEMATIC_ERR_CLOSED afterwards. Blocks for as long as that takes (file closes and
 * a running callback of this runtime on another thread).
 * Returns CINEMATIC_OK; CINEMATIC_ERR_IO when the runtime's recording failed to write (the
 * runtime is closed all the same; the message names the error, and the file holds every
 * line up to the last complete one); CINEMATIC_ERR_MISUSE (NULL or not a runtime),
 * CINEMATIC_ERR_CLOSED.
 */
int cinematic_runtime_close(cinematic_runtime *rt);

/**
 * With "queued" delivery, stores in *out_fd a file descriptor that is readable while
 * callbacks wait; add it to your poll/select/event loop and call cinematic_runtime_dispatch
 * when it is readable. The descriptor belongs to the runtime: do not read, write or close it;
 * it is closed by cinematic_runtime_close.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_MISUSE for NULL arguments or "immediate" delivery;
 * CINEMATIC_ERR_CLOSED.
 */
int cinematic_runtime_fd(cinematic_runtime *rt, int *out_fd);

/**
 * Runs every waiting callback on the calling thread, in order, and stores how many ran in
 * *out_count (optional, may be NULL). Returns at once with 0 when another thread is
 * dispatching. With "immediate" delivery nothing waits and the count is 0.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_MISUSE (bad handle, or called from inside a
 * callback); CINEMATIC_ERR_CLOSED.
 */
int cinematic_runtime_dispatch(cinematic_runtime *rt, int *out_count);

/**
 * Moves a "manual" clock forward by milliseconds (>= 0) and wakes the effects whose sleep
 * (e.g. a search debounce) has elapsed. Returns once those effects have reached their next
 * suspension, with what they produced delivered on the calling thread ("immediate"
 * delivery, unless another thread is delivering at that moment) or queued: a debounced
 * query's provider request has been made when it returns, so tests need no polling. Work
 * that waits on a library thread (an embedded-catalog search, a favorites write) finishes
 * later: use cinematic_store_settle. The clock saturates at about 73 billion years instead
 * of overflowing; once there, time stops and new sleeps end at once.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_INVALID for a negative value; CINEMATIC_ERR_MISUSE
 * (bad handle, or the runtime uses the system clock); CINEMATIC_ERR_CLOSED.
 */
int cinematic_runtime_advance_clock(cinematic_runtime *rt, int64_t milliseconds);

/**
 * A catalog provider: receives request_json (borrowed for the call) for request_id; see
 * WIRE FORMAT above and docs/wire.md. It runs under the DELIVERY rules and must not block: answer
 * later (from any thread) with cinematic_runtime_respond, or at once from inside it.
 */
typedef void (*cinematic_request_fn)(void *userdata, uint64_t request_id, const char *request_json);

/**
 * Registers the provider of a "host" catalog (fn NULL removes it). userdata is passed back
 * untouched; the host keeps it valid until the provider is replaced or the runtime closed:
 * when this returns, the previous provider is not running on another thread and is never
 * called again. Requests still waiting for delivery go to the new provider.
 * Register it before opening stores: requests made while none is registered fail.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_MISUSE (bad handle, or the catalog is not "host");
 * CINEMATIC_ERR_CLOSED.
 */
int cinematic_runtime_set_provider(cinematic_runtime *rt, cinematic_request_fn fn, void *userdata);

/**
 * Answers provider request request_id with response_json (borrowed): {"movies":[...]},
 * {"movie":{...}} or {"error":{"code":...,"message":...}}. Any thread, any time, including
 * from inside the provider callback. Like cinematic_runtime_advance_clock, it returns once
 * the effect it woke reached its next suspension, with the resulting state delivered on the
 * calling thread ("immediate" delivery; from inside a callback, right after it). An answer
 * to a request that was cancelled, expired or already answered is accepted and dropped. An
 * answer that cannot be decoded fails the request with "invalidResponse" (so nothing waits
 * forever) and returns the decoding status. With the offline cache, a "network" or
 * "timeout" error is looked up in the cache on the cache's own thread (never the calling
 * one): the resulting state (the copy or the error) follows shortly after this returns, and
 * cinematic_store_settle waits for it.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_JSON / _TOO_LARGE / _INVALID for a bad answer or a
 * request id that was never issued; CINEMATIC_ERR_MISUSE (bad handle, NULL json, or the
 * catalog is not "host"); CINEMATIC_ERR_CLOSED.
 */
int cinematic_runtime_respond(cinematic_runtime *rt, uint64_t request_id, const char *response_json);

/* ------------------------------------------------------------------------------------ */
/* Stores                                                                                */

/**
 * Opens a store of feature ("search", "discover", "favorites", "detail", "app"; see
 * docs/wire.md) with args_json (borrowed; NULL when the feature takes none). *out (required)
 * receives a store to close with cinematic_store_close (or implicitly with its runtime). Any
 * feature also takes {"snapshot": {...}}: opens from that snapshot (see cinematic_store_restore).
 *
 * THE APP. "app" is the whole movie app in one store: the four features composed (each
 * behaving exactly as its own store), plus what lies between them: the tab shown, a stack
 * of open Details, the person's place in each list, the favorites undo, the query fitted to
 * a search's bounds (any text is taken), and the notice a person reads; docs/wire.md, "app".
 * A host renders its state and turns keys and clicks into its intents. Its args may name a
 * state file, {"stateFile": path} (borrowed; {"fresh": true} ignores what it holds): the app
 * resumes from it and saves to it by itself, so no host decides when to save or how to
 * resume. cinematic_store_open reads the file then (a bounded read: a regular file of at
 * most 1 MiB, not a symbolic link, opened without blocking; a FIFO or a device is refused at
 * once), starting {"cinematicAppState":, of a format this library reads, and the app opens
 * from its snapshot (a recording shows it opened with {"snapshot": ...}, so a replay
 * restores it the same way and never touches the file). A missing file is a fresh start,
 * anything else a fresh start with a notice (kind "stateFile") saying why, and that file is
 * then left untouched for the session (nothing is saved over it). Saving happens
 * once the app has been quiet for 1 s on the runtime's clock (a manual clock: when advanced)
 * and when the store closes; it follows "Files are ours or untouched" (a new temporary file
 * beside the path, fsync, rename over nothing or over a state file of ours; never through a
 * symbolic link), mode 0600 (it holds what the person searched); a failed save is a notice. Closing an app store with a state file blocks
 * until its last save is written.
 * A runtime keeps at most 256 stores open (as many as a runtime snapshot carries, so every
 * runtime snapshot restores); close one to open another.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_UNKNOWN_FEATURE; CINEMATIC_ERR_JSON / _TOO_LARGE /
 * _INVALID for bad args; CINEMATIC_ERR_MISUSE (bad runtime, NULL feature or out, or the
 * runtime already has 256 stores open); CINEMATIC_ERR_CLOSED (the runtime is closed).
 */
int cinematic_store_open(cinematic_runtime *rt, const char *feature, const char *args_json, cinematic_store **out);

/**
 * Opens a child handle of store (an "app" store; or a child's parent) showing one part of its
 * state: scope (borrowed) "search", "discover", "favorites" (each exactly as its own store's
 * state) or "detail" (the shown Detail, the last of "details"; null when none is open).
 * *out (required) receives a store handle that works like any store's:
 *   - cinematic_store_state and the observers give the part (whole states, or patches whose
 *     paths are relative to the part), delivered like the parent's (same runtime queue,
 *     same order); a part that did not change delivers nothing.
 *   - cinematic_store_send takes the child feature's intents as its own store would
 *     ({"type":"queryChanged","query":"dune"} for "search"; a query of any length, fitted
 *     by the app) and sends them through the parent: the parent's history, recording and
 *     replay see them as the parent's ({"type":"search","intent":{...}}).
 *   - cinematic_store_settle, _pending_effects, _history, _revert and _snapshot act on the
 *     parent (a child has no effects, history or snapshot of its own).
 * Lifetime: close it with cinematic_store_close (only its callback stops); closing the
 * parent (or its runtime) closes it too, after which its handle answers CINEMATIC_ERR_CLOSED.
 * Threads: any thread, like the parent's calls; it never waits.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_INVALID for a scope the store's feature does not have
 * (the message lists its scopes) or a child handle given as store; CINEMATIC_ERR_MISUSE
 * (bad handle, NULL scope or out); CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_scope(cinematic_store *store, const char *scope, cinematic_store **out);

/**
 * Closes the store: its effects are cancelled (late results are dropped) and no callback
 * for it runs after this returns. May be called from inside a callback (then a callback of
 * this store already running on another thread may still be finishing; see THREADS).
 * Provider cancellations it causes are delivered on the calling thread.
 * Returns CINEMATIC_OK, CINEMATIC_ERR_MISUSE, CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_close(cinematic_store *store);

/**
 * Sends an intent (borrowed, copied): reduces it, delivers the state it produced, starts
 * its effects and returns; never waits for I/O or for another thread (see THREADS).
 * Any thread, including from inside a callback.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_JSON / _TOO_LARGE for bad JSON; CINEMATIC_ERR_INVALID
 * for an unknown or internal intent type, a missing or mistyped member, or an unknown
 * member (path named); CINEMATIC_ERR_MISUSE (bad handle, NULL intent); CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_send(cinematic_store *store, const char *intent_json);

/**
 * Stores in *out_json a snapshot of the current state as JSON, owned by the caller: free it
 * with cinematic_free.
 * Returns CINEMATIC_OK, CINEMATIC_ERR_MISUSE (bad handle or NULL out_json),
 * CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_state(cinematic_store *store, char **out_json);

/**
 * A state callback: state_json is borrowed for the call; store is the store's handle.
 */
typedef void (*cinematic_state_fn)(void *userdata, cinematic_store *store, const char *state_json);

/**
 * Registers the store's state callback (replacing any previous one; fn NULL removes it).
 * The callback first receives the current state, then every distinct state in order, under
 * the DELIVERY rules. States queued for a replaced callback are dropped. userdata is passed
 * back untouched; the host keeps it valid until the callback is replaced or the store
 * closed.
 * Returns CINEMATIC_OK, CINEMATIC_ERR_MISUSE, CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_observe(cinematic_store *store, cinematic_state_fn fn, void *userdata);

/**
 * Registers the store's state callback in patch mode: like cinematic_store_observe
 * (replacing any previous callback of either kind; fn NULL removes it; the same DELIVERY
 * rules and userdata contract), but each delivery is an envelope saying what changed:
 *   {"seq": 1, "state": {...}}                 the first: the whole current state
 *   {"seq": 2, "patch": [{"op": "replace", "path": "/query", "value": "dune"}, ...]}
 * Each patch is an RFC 6902 JSON Patch ("add", "remove", "replace"; paths are RFC 6901 JSON
 * Pointers) that turns the state of the previous delivery into this one; applying every
 * patch in order to the first state gives, at each delivery, exactly what
 * cinematic_store_state returns for that state. seq counts deliveries of this registration
 * from 1 with no gaps; a host that missed one (or wants the whole state again) calls this
 * function again, which starts over at {"seq": 1, "state": ...}.
 * Patches come from what changed, not from comparing encodings: a page appended to a list
 * is one "add" at ".../-" per new film, a removed favorite one "remove", a heart tap a
 * "replace" of "/isFavorite". Shapes: "patchedDelivery" in schema/cinematic.schema.json.
 * Returns CINEMATIC_OK, CINEMATIC_ERR_MISUSE, CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_observe_patches(cinematic_store *store, cinematic_state_fn fn, void *userdata);

/**
 * Blocks until the store has no effect in flight (including effects started by the results
 * of effects) or timeout_ms passes (negative: no limit). Cancelled effects do not count:
 * their late results are dropped whenever they arrive. With "immediate" delivery it also
 * waits until the resulting states have been delivered (not provider callbacks such as a
 * {"op":"cancel"}, which belong to the runtime). With a "manual" clock a pending
 * debounce waits for cinematic_runtime_advance_clock; with a "host" catalog a request waits
 * for its answer (and with "queued" delivery for a dispatch on another thread).
 * Returns CINEMATIC_OK; CINEMATIC_ERR_TIMEOUT; CINEMATIC_ERR_MISUSE (bad handle, or called
 * from inside a callback); CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_settle(cinematic_store *store, int64_t timeout_ms);

/**
 * Stores in *out_count how many effects are in flight (0 when quiescent), e.g. to check
 * that a repeated intent started no duplicate work.
 * Returns CINEMATIC_OK, CINEMATIC_ERR_MISUSE (bad handle or NULL out_count),
 * CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_pending_effects(cinematic_store *store, int *out_count);

/* ------------------------------------------------------------------------------------ */
/* Snapshots: pick up where the person left off                                          */

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

/* ------------------------------------------------------------------------------------ */
/* Debugging: history, time travel, the log, record and replay                           */

/**
 * Stores in *out_json, owned by the caller (free with cinematic_free), the store's debug
 * history as a JSON array, oldest first, of at most the runtime's "history" entries:
 *   {"seq": 12, "intent": {"type": "resultsLoaded", ...}, "state": {...}, "changed": ["results"]}
 * seq numbers every intent the store reduced (1 for its first; numbers keep counting as old
 * entries drop out); intent is any intent, internal ones (effect results) included; state
 * is the whole state after it; changed names the top-level state members that intent
 * changed ([] when none). "[]" when the runtime keeps no history.
 * Returns CINEMATIC_OK, CINEMATIC_ERR_MISUSE (bad handle or NULL out_json),
 * CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_history(cinematic_store *store, char **out_json);

/**
 * Time travel: sets the store's state to the state after history entry seq and delivers it
 * to the state callback like any other state. Effects in flight keep running (their results
 * are reduced on the reverted state); the history itself is unchanged.
 * Returns CINEMATIC_OK; CINEMATIC_ERR_INVALID for a seq not in the history, or when the
 * runtime keeps none; CINEMATIC_ERR_MISUSE (bad handle); CINEMATIC_ERR_CLOSED.
 */
int cinematic_store_revert(cinematic_store *store, uint64_t seq);

/**
 * A log callback: line (borrowed for the call, no newline) is one readable event, e.g.
 *   [250 ms] search#2 intent #3 searchNow {"type":"searchNow"} changed: results
 *   [250 ms] search#2 effect started "search" (#7)
 *   [262 ms] search#2 effect finished "search" (#7)
 *   [300 ms] search#2 revert to #2 changed: query, results
 * with the virtual time since the runtime opened, the store's feature and handle number,
 * and per intent the fields of the state it changed ("no change" when none). Long intents
 * are cut at 200 characters (the history and recordings keep them whole).
 */
typedef void (*cinematic_log_fn)(void *userdata, const char *line);

/**
 * Registers the runtime's logger (fn NULL removes it): from now on it receives a line for
 * every intent any store of the runtime reduces, every time-travel step and every effect
 * started, cancelled and finished. Lines run under the DELIVERY rules, in order, like state
 * callbacks (never on an effect's thread). Off by default, and free when off: stores are
 * traced only while a logger (or a recording) is attached. userdata is passed back
 * untouched; when this returns the previous logger is not running on another thread and is
 * never called again.
 * Returns CINEMATIC_OK, CINEMATIC_ERR_MISUSE (bad handle), CINEMATIC_ERR_CLOSED.
 */
int cinematic_runtime_set_logger(cinematic_runtime *rt, cinematic_log_fn fn, void *userdata);

/**
 * Replays the recording at path (borrowed; see "record" above) in a fresh runtime with the
 * manual clock: stores are opened as recorded, receive the recorded host intents, clock
 * advances and time-travel steps, and every catalog request, favorites write and favorites
 * snapshot is answered from the recording at its recorded virtual time (no catalog, no
 * favorites file, no network). Every state the stores produce is compared with the recorded
 * one. *out_matched (optional) receives 1 when every state matched, else 0. *out_report
 * (optional, owned by the caller: free with cinematic_free) receives
 *   {"matched": true, "complete": true, "lines": 42, "stores": 3, "states": 17, "afterClose": 0}
 * or, at the first divergent state in file order,
 *   {"matched": false, "complete": true, "states": 5, "afterClose": 0, "divergence": {"line": 31, "store": 2,
 *    "feature": "search", "index": 5, "intent": {...}, "replayedIntent": {...},
 *    "expected": {...}, "actual": {...}}}
 * (intent: the recorded intent that produced the expected state; null members for a state
 * one side lacks; complete: the recording ends with its "end" line, i.e. its runtime was
 * closed and no write failed; cutLine: a last line cut short (its writer failed or was
 * killed), not replayed; a recording without "end" is replayed up to its last complete line
 * and states the replay makes past it are not a divergence; afterClose: states the replay
 * made from effect results that in the recorded session lost the race with their store's
 * close, which are not compared). Nothing is read after "end".
 * The recording is read as a stream: memory is bounded by its longest line (1 MiB), not its
 * size. Only a regular file is read (a FIFO, a device or a directory is CINEMATIC_ERR_IO at
 * once, without blocking), and only a possible sequence is replayed: one "session" line,
 * first; times that never go backwards; each store opened once (CINEMATIC_ERR_INVALID naming
 * the line otherwise). Inputs that raced each other in the recorded session (one
 * thread advancing the clock while another sends to the same runtime) are replayed in the
 * order the recording saw them, so only a session whose inputs come from one thread at a
 * time is sure to replay exactly. Blocks the calling thread until the replay ends.
 * Returns CINEMATIC_OK when the replay ran (whether or not it matched); CINEMATIC_ERR_IO
 * (cannot read path, or not a regular file); CINEMATIC_ERR_JSON / _INVALID for a malformed
 * or impossible recording (the message names the line); CINEMATIC_ERR_INVALID also for a path
 * that is not valid UTF-8 (paths are passed to the system byte for byte, never re-encoded;
 * nothing is read); CINEMATIC_ERR_TOO_LARGE (a line over 1 MiB); CINEMATIC_ERR_MISUSE (NULL
 * path, or called from inside a callback).
 */
int cinematic_replay(const char *path, int *out_matched, char **out_report);

#ifdef __cplusplus
}
#endif

#endif /* CINEMATIC_H */
