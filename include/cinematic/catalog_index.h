/*
 * cinematic/catalog_index.h: the catalog index (CATALOG INDEX): what a catalog is searched
 * through, building one from a movie file of your own (cinematic_catalog_build_index), and
 * where a runtime's catalog is in its loading (cinematic_runtime_catalog_state).
 *
 * Part of the C API of libcinematic: hosts include <cinematic.h>, which includes this header
 * and holds the conventions every function here follows (statuses, error detail, ownership,
 * handles, input, THREADS, files). Including this header alone includes <cinematic.h> too.
 */
#ifndef CINEMATIC_CATALOG_INDEX_H
#define CINEMATIC_CATALOG_INDEX_H

#include "../cinematic.h"

#ifdef __cplusplus
extern "C" {
#endif

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
 * with CINEMATIC_ERR_IO; `make lib` compiles the stamp it reads from the index in beside
 * it, so the check runs no SQL). A library built without one (`swift build`, the Swift tests)
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
 * The header may add a 20th column, alternate_titles: other names of the film separated by
 * "|" ("Seven Samurai|The Seven Samurai"), searched as forms of its title; the first is
 * shown beside the title ("Shichinin no samurai (Seven Samurai)") unless the field begins
 * with "|" (then each is only found: "|Dr. Strangelove"); at most 8 names of 1 to 200 UTF-8
 * bytes (the embedded catalog's come from data/alternate-titles.tsv).
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
 *     256 MiB is about 2.8 million films; a build holds the text and about twice as much
 *     again (peak RSS 39 MB for the shipped 5.5 MB, 300 MB for 1,000,000 films in 100 MB,
 *     1.6x their index), so at most about 1 GB.
 *   - Each line: valid UTF-8, exactly 19 columns (20 with alternate_titles), no field over 4096 bytes; the title 1 to
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
 * Blocks for the build (about 0.3 s per 60,000 films, 4.3 s per million); call it from a
 * thread of yours that may wait. The build reads the films' rows on one thread of its own
 * (parsed and stored in the database there, their title words read on the calling thread),
 * which has ended when the call returns, on success or failure. Any thread; builds of
 * different index paths may run at once (of the same one, the first to finish wins and the
 * others fail, leaving it as it is).
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

#ifdef __cplusplus
}
#endif

#endif /* CINEMATIC_CATALOG_INDEX_H */
