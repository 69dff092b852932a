/*
 * test_offline_cache_damage: our own offline cache, damaged while no runtime had it open
 * (one page overwritten, the header intact), is replaced by an empty one whenever the
 * damage is found: at open or later, when a search reads the damaged page. The runtime
 * opens, every search answers (from the provider), the replacement is logged, and the file
 * is ours and sound afterwards. A file that is not ours is never touched, damaged or not.
 * The cache holds many answers, some spilling onto overflow pages, and a freelist (the size
 * bound evicted some); the damaged page is, in turn, the first data page, each index's
 * root, a middle page, the last page in use and the freelist's trunk. The log is the
 * runtime's own (CINEMATIC_LOG=stderr, standard error sent to a file), so lines written
 * while the runtime opens are in it too. Every wait is on the manual clock or a settle.
 */
#include "harness.h"

#include <fcntl.h>
#include <sqlite3.h>

#define ANSWERS 200
#define MAX_BYTES 300000

static char dir[256], pristine[512], cache_path[512], log_path[512];
/* What the provider answers: NULL for films titled after the query, else this error. */
static const char *failure;

/* Answers every search at once: 12 films named after the query (every fifth answer 40, so
 * its body spills onto overflow pages), or `failure`. */
static void answer_searches(void *userdata, uint64_t id, const char *request) {
    char query[128] = "";
    if (!strstr(request, "\"search\"") || !json_get(request, "query", query, sizeof query)) return;
    static char answer[16384];
    size_t used = (size_t)snprintf(answer, sizeof answer, "{\"movies\":[");
    int films = strlen(query) % 5 == 0 ? 40 : 12;
    for (int i = 0; i < films && !failure; i++)
        used += (size_t)snprintf(answer + used, sizeof answer - used, "%s{\"id\":%d,\"title\":\"%s, part %d of a long saga told over many nights\",\"year\":1984}",
                                 i ? "," : "", i + 1, query, i + 1);
    snprintf(answer + used, sizeof answer - used, "]}");
    CHECK_STATUS(cinematic_runtime_respond(userdata, id, failure ? failure : answer), CINEMATIC_OK);
}

/* Searches query now, answered `live` or with a network failure; the settled state (owned). */
static char *search(cinematic_store *store, const char *query, int live) {
    failure = live ? NULL : "{\"error\":{\"code\":\"network\",\"message\":\"server down\"}}";
    CHECK_STATUS(send_query(store, query), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(store), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(store, 5000), CINEMATIC_OK);
    return state_of(store);
}

/* Opens a manual-clock runtime on the cache at path, with the provider and a search store. */
static int open_on(const char *path, cinematic_runtime **rt, cinematic_store **store) {
    char config[1024];
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":\"host\",\"offlineCache\":{\"path\":\"%s\",\"maxBytes\":%d}}",
             path, MAX_BYTES);
    int status = cinematic_runtime_open(config, rt);
    if (status != CINEMATIC_OK) return status;
    CHECK_STATUS(cinematic_runtime_set_provider(*rt, answer_searches, *rt), CINEMATIC_OK);
    *store = open_search(*rt);
    return status;
}

/* The file's bytes (owned; free), its size in *size. */
static unsigned char *contents(const char *path, long *size) {
    FILE *file = fopen(path, "rb");
    *size = 0;
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    *size = ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *bytes = malloc((size_t)*size + 1);
    if (fread(bytes, 1, (size_t)*size, file) != (size_t)*size) *size = -1;
    fclose(file);
    return bytes;
}

static unsigned be32(const unsigned char *p) { return (unsigned)p[0] << 24 | (unsigned)p[1] << 16 | (unsigned)p[2] << 8 | p[3]; }

/* Page geometry from the header: page size, page count, freelist trunk and length. */
typedef struct { unsigned size, count, trunk, free; } geometry;

static geometry geometry_of(const unsigned char *bytes) {
    unsigned size = (unsigned)bytes[16] << 8 | bytes[17];
    return (geometry){size == 1 ? 65536 : size, be32(bytes + 28), be32(bytes + 32), be32(bytes + 36)};
}

/* True when page (1-based) is a freelist leaf: its contents mean nothing, so its damage is none. */
static int free_leaf(const unsigned char *bytes, geometry g, unsigned page) {
    for (unsigned trunk = g.trunk, hops = 0; trunk && trunk <= g.count && hops < g.count; hops++) {
        const unsigned char *p = bytes + (size_t)(trunk - 1) * g.size;
        for (unsigned i = 0, n = be32(p + 4); i < n && 8 + 4 * i < g.size; i++) if (be32(p + 8 + 4 * i) == page) return 1;
        trunk = be32(p);
    }
    return 0;
}

/* The root page of table or index `name`, or 0. */
static unsigned root_of(const char *path, const char *name) {
    char uri[600];
    snprintf(uri, sizeof uri, "file:%s?immutable=1", path);
    sqlite3 *db = NULL;
    unsigned root = 0;
    sqlite3_stmt *statement = NULL;
    if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "SELECT rootpage FROM sqlite_master WHERE name = ?", -1, &statement, NULL) == SQLITE_OK) {
        sqlite3_bind_text(statement, 1, name, -1, SQLITE_STATIC);
        if (sqlite3_step(statement) == SQLITE_ROW) root = (unsigned)sqlite3_column_int(statement, 0);
    }
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return root;
}

/* "ok" when SQLite finds the file sound (read in place, nothing written). */
static void check_sound(const char *path) {
    char uri[600], result[64] = "(cannot open)";
    snprintf(uri, sizeof uri, "file:%s?immutable=1", path);
    sqlite3 *db = NULL;
    sqlite3_stmt *statement = NULL;
    if (sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &statement, NULL) == SQLITE_OK &&
        sqlite3_step(statement) == SQLITE_ROW)
        snprintf(result, sizeof result, "%s", (const char *)sqlite3_column_text(statement, 0));
    sqlite3_finalize(statement);
    sqlite3_close(db);
    CHECK_STR_EQ(result, "ok");
}

/* Copies pristine to cache_path, then writes 0xA5 over page (1-based) of it. */
static void damaged_copy(unsigned page, unsigned page_size) {
    long size = 0;
    unsigned char *bytes = contents(pristine, &size);
    if (page) memset(bytes + (size_t)(page - 1) * page_size, 0xA5, page_size);
    FILE *file = fopen(cache_path, "wb");
    CHECK(file && fwrite(bytes, 1, (size_t)size, file) == (size_t)size);
    if (file) fclose(file);
    free(bytes);
}

/* Builds the pristine cache: ANSWERS answers stored through a runtime, some evicted. */
static void build_pristine(void) {
    cinematic_runtime *rt = NULL;
    cinematic_store *store = NULL;
    CHECK_STATUS(open_on(pristine, &rt, &store), CINEMATIC_OK);
    for (int i = 0; i < ANSWERS; i++) {
        char query[64];
        snprintf(query, sizeof query, "film number %d", i);
        cinematic_free(search(store, query, 1));
    }
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* What a session on the damaged copy saw (checked once standard error is back). */
typedef struct {
    int opened;      /* cinematic_runtime_open's status */
    int live;        /* the search after the damage answered live, from the provider */
    int lookups;     /* searches whose failure showed a copy or the error */
    int kept;        /* an answer stored after the damage was served from the cache */
    char *log;       /* the runtime's log (owned) */
} session;

/* A runtime on the damaged copy, logging to log_path: it opens, searches (live), reads
 * every answer stored (each search failing, so the cache is asked), stores new answers
 * and asks for one of them back. */
static session session_on_damaged_copy(void) {
    session seen = {0};
    fflush(stderr);
    int saved = dup(2), log = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(log, 2);
    close(log);
    setenv("CINEMATIC_LOG", "stderr", 1);
    cinematic_runtime *rt = NULL;
    cinematic_store *store = NULL;
    seen.opened = open_on(cache_path, &rt, &store);
    if (seen.opened == CINEMATIC_OK) {
        char *state = search(store, "after the damage", 1);
        seen.live = strstr(state, "\"source\":\"live\"") && strstr(state, "\"title\":\"after the damage, part 1 ");
        cinematic_free(state);
        for (int i = 0; i < ANSWERS; i++) {
            char query[64];
            snprintf(query, sizeof query, "film number %d", i);
            state = search(store, query, 0);
            seen.lookups += strstr(state, "\"source\":\"cache\"") || strstr(state, "\"phase\":\"failed\"");
            cinematic_free(state);
        }
        cinematic_free(search(store, "a saga long enough to need new pages", 1));
        cinematic_free(search(store, "kept", 1));
        state = search(store, "kept", 0);
        seen.kept = strstr(state, "\"source\":\"cache\"") != NULL;
        cinematic_free(state);
        cinematic_runtime_close(rt);
    }
    unsetenv("CINEMATIC_LOG");
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    long size = 0;
    seen.log = (char *)contents(log_path, &size);
    if (seen.log) seen.log[size > 0 ? size : 0] = 0;
    return seen;
}

static void test_one_damaged_page_is_replaced_wherever_it_is(void) {
    build_pristine();
    long size = 0;
    unsigned char *bytes = contents(pristine, &size);
    geometry g = geometry_of(bytes);
    CHECK_MSG(g.free > 0, "the pristine cache has a freelist (%u pages)", g.free);
    CHECK_MSG(g.count > 100, "the pristine cache has many pages (%u)", g.count);
    unsigned middle = g.count / 2, last = g.count;
    while (free_leaf(bytes, g, middle)) middle++;
    while (free_leaf(bytes, g, last)) last--;
    struct { const char *what; unsigned page; } spots[] = {
        {"no damage", 0},
        {"the first data page", 2},
        {"the key index's root", root_of(pristine, "sqlite_autoindex_answers_1")},
        {"the use index's root", root_of(pristine, "answers_by_use")},
        {"a middle page", middle},
        {"the last page in use", last},
        {"the freelist's trunk", g.trunk},
    };
    for (size_t i = 0; i < sizeof spots / sizeof spots[0]; i++) {
        printf("  damaged: %s (page %u of %u)\n", spots[i].what, spots[i].page, g.count);
        fflush(stdout);
        CHECK(spots[i].what[0] == 'n' || (spots[i].page > 1 && spots[i].page <= g.count));
        damaged_copy(spots[i].page, g.size);
        session seen = session_on_damaged_copy();
        CHECK_EQ_INT(seen.opened, CINEMATIC_OK);
        CHECK(seen.live);
        CHECK_EQ_INT(seen.lookups, ANSWERS);
        CHECK(seen.kept);
        const char *log = seen.log ? seen.log : "";
        if (spots[i].page) {
            CHECK_STR_CONTAINS(log, "was damaged");
            CHECK_STR_CONTAINS(log, "replaced by an empty one");
        } else {
            CHECK_STR_LACKS(log, "damaged");
        }
        free(seen.log);
        unsigned char *now = contents(cache_path, &size);
        CHECK(now && size >= 100 && memcmp(now + 68, "CNOC", 4) == 0);   /* ours (application_id) */
        free(now);
        check_sound(cache_path);
    }
    free(bytes);
}

/* Another program's SQLite file, damaged the same way, is refused and left byte for byte. */
static void test_a_damaged_file_not_ours_is_never_touched(void) {
    char foreign[600], config[1024];
    snprintf(foreign, sizeof foreign, "%s/theirs.sqlite", dir);
    sqlite3 *db = NULL;
    CHECK(sqlite3_open(foreign, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "PRAGMA application_id = 1234; CREATE TABLE t(x); "
                           "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200) "
                           "INSERT INTO t SELECT randomblob(3000) FROM n;", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    long size = 0;
    unsigned char *bytes = contents(foreign, &size);
    geometry g = geometry_of(bytes);
    memset(bytes + (size_t)(g.count / 2 - 1) * g.size, 0xA5, g.size);
    FILE *file = fopen(foreign, "wb");
    CHECK(file && fwrite(bytes, 1, (size_t)size, file) == (size_t)size);
    if (file) fclose(file);
    snprintf(config, sizeof config, "{\"catalog\":\"host\",\"offlineCache\":{\"path\":\"%s\"}}", foreign);
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("belongs to another program");
    long after_size = 0;
    unsigned char *after = contents(foreign, &after_size);
    CHECK(after_size == size && memcmp(after, bytes, (size_t)size) == 0);
    const char *suffixes[] = {"-wal", "-shm", "-journal"};
    for (int i = 0; i < 3; i++) {
        char side[700];
        snprintf(side, sizeof side, "%s%s", foreign, suffixes[i]);
        CHECK_MSG(access(side, F_OK) != 0, "%s was created", side);
    }
    free(after);
    free(bytes);
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/cinematic-damage-XXXXXX");
    if (!mkdtemp(dir)) return 1;
    snprintf(pristine, sizeof pristine, "%s/pristine.sqlite", dir);
    snprintf(cache_path, sizeof cache_path, "%s/cache.sqlite", dir);
    snprintf(log_path, sizeof log_path, "%s/log.txt", dir);
    RUN_TEST(test_one_damaged_page_is_replaced_wherever_it_is);
    RUN_TEST(test_a_damaged_file_not_ours_is_never_touched);
    remove_tempdir(dir);
    return TEST_SUMMARY();
}
