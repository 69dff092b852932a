/*
 * Every file we read is hostile until proven ours: the catalog index, the favorites and the
 * offline cache through the C API.
 *   - A FIFO (or a directory) at any of their paths is a status at once, never a hang.
 *   - An index is only read: one whose header says WAL gets no -wal/-shm beside it, and a
 *     foreign -shm there is left byte for byte.
 *   - An index rewritten or truncated under a running runtime changes nothing it serves
 *     (it is read whole into a private copy; nothing of it is mapped).
 *   - A crafted index (NaN in its ratings, an unsorted vocabulary, a "nan" distribution) is
 *     refused at open naming the field, or fails that one film's Detail; never a trap.
 */
#include "harness.h"
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64];

static void path_in(char *out, size_t size, const char *name) { snprintf(out, size, "%s/%s", dir, name); }

static void on_alarm(int signal) {
    (void)signal;
    static const char message[] = "FAIL: a call blocked (watchdog)\n";
    if (write(2, message, sizeof message - 1)) {}
    _exit(3);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    fputs(text, f);
    fclose(f);
}

#define HEADER "id\ttitle\tyear\tlength\tbudget\trating\tvotes\tr1\tr2\tr3\tr4\tr5\tr6\tr7\tr8\tr9\tr10\tmpaa\tgenres\n"
#define FILM(id, title, votes) id "\t" title "\t1999\t100\t\t7.5\t" votes "\t4.5\t4.5\t4.5\t4.5\t14.5\t14.5\t14.5\t14.5\t14.5\t14.5\tPG\tDrama\n"

/* A small index of ours at dir/name. */
static void build_index(const char *name, char *out, size_t size) {
    char movies[300];
    path_in(movies, sizeof movies, "films.tsv");
    write_file(movies, HEADER FILM("1", "Matrix, The", "1000") FILM("2", "Zardoz", "50") FILM("3", "Alien", "900")
                       FILM("4", "Aliens", "800") FILM("5", "Dune", "700"));
    path_in(out, size, name);
    CHECK_STATUS(cinematic_catalog_build_index(movies, out), CINEMATIC_OK);
}

static int open_catalog(const char *index, cinematic_runtime **rt) {
    char config[700];
    snprintf(config, sizeof config, "{\"catalog\":{\"path\":\"%s\"},\"favorites\":\":memory:\"}", index);
    return cinematic_runtime_open(config, rt);
}

/* The state of a store of feature after intent (owned by the caller): settled, or for a
 * Detail (whose favorites stream never settles) once its phase is loaded or failed. */
static char *settled_state(cinematic_runtime *rt, const char *feature, const char *args, const char *intent) {
    cinematic_store *store = NULL;
    CHECK_STATUS(cinematic_store_open(rt, feature, args, &store), CINEMATIC_OK);
    if (intent) CHECK_STATUS(cinematic_store_send(store, intent), CINEMATIC_OK);
    if (strcmp(feature, "search") == 0) CHECK_STATUS(cinematic_store_send(store, "{\"type\":\"submitted\"}"), CINEMATIC_OK);
    char *state = NULL;
    if (strcmp(feature, "detail") != 0) {
        CHECK_STATUS(cinematic_store_settle(store, 20000), CINEMATIC_OK);
        CHECK_STATUS(cinematic_store_state(store, &state), CINEMATIC_OK);
    } else {
        for (int i = 0; i < 4000; i++) {
            CHECK_STATUS(cinematic_store_state(store, &state), CINEMATIC_OK);
            if (!state || strstr(state, "\"detail\":{\"phase\":\"loaded\"") || strstr(state, "\"detail\":{\"phase\":\"failed\"")) break;
            cinematic_free(state);
            state = NULL;
            h_sleep_ms(5);
        }
        CHECK_MSG(state != NULL, "the detail never loaded nor failed");
    }
    CHECK_STATUS(cinematic_store_close(store), CINEMATIC_OK);
    return state;
}

/* The catalog's state once it stopped loading (owned by the caller). */
static char *loaded_catalog_state(cinematic_runtime *rt) {
    char *state = NULL;
    for (int i = 0; i < 2000; i++) {
        CHECK_STATUS(cinematic_runtime_catalog_state(rt, &state), CINEMATIC_OK);
        if (!state || !strstr(state, "\"loading\"")) return state;
        cinematic_free(state);
        state = NULL;
        h_sleep_ms(5);
    }
    return state;
}

static void test_a_fifo_or_directory_at_any_database_path_is_a_status_not_a_hang(void) {
    char fifo[300], folder[300], config[900];
    path_in(fifo, sizeof fifo, "fifo");
    CHECK(mkfifo(fifo, 0600) == 0);
    path_in(folder, sizeof folder, "folder");
    CHECK(mkdir(folder, 0700) == 0);
    signal(SIGALRM, on_alarm);
    alarm(20);
    const char *paths[] = {fifo, folder};
    for (int i = 0; i < 2; i++) {
        cinematic_runtime *rt = NULL;
        CHECK_STATUS(open_catalog(paths[i], &rt), CINEMATIC_ERR_IO);
        CHECK_ENVELOPE_CONTAINS("not a regular file");
        CHECK(rt == NULL);
        snprintf(config, sizeof config, "{\"catalog\":\"host\",\"favorites\":\"%s\"}", paths[i]);
        CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_ERR_IO);
        CHECK_ENVELOPE_CONTAINS("not a regular file");
        snprintf(config, sizeof config, "{\"catalog\":\"host\",\"favorites\":{\"path\":\"%s\",\"readOnly\":true}}", paths[i]);
        CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_ERR_IO);
        CHECK_ENVELOPE_CONTAINS("not a regular file");
        /* The offline cache: the runtime opens without it (the cache is disposable), at once. */
        snprintf(config, sizeof config, "{\"catalog\":\"host\",\"offlineCache\":{\"path\":\"%s\"}}", paths[i]);
        int status = cinematic_runtime_open(config, &rt);
        CHECK_MSG(status == CINEMATIC_OK || status == CINEMATIC_ERR_IO, "offline cache at a %s: status %d",
                  i == 0 ? "FIFO" : "directory", status);
        if (status == CINEMATIC_OK) CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    }
    alarm(0);
    struct stat info;
    CHECK(lstat(fifo, &info) == 0 && S_ISFIFO(info.st_mode));
}

static int exists(const char *path) { return access(path, F_OK) == 0; }

static void test_an_index_is_only_read_even_when_its_header_says_wal(void) {
    char index[300], wal[320], shm[320];
    build_index("wal.idx", index, sizeof index);
    sqlite3 *db = NULL;
    CHECK(sqlite3_open(index, &db) == SQLITE_OK);
    CHECK(sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL) == SQLITE_OK);
    sqlite3_close(db);
    snprintf(wal, sizeof wal, "%s-wal", index);
    snprintf(shm, sizeof shm, "%s-shm", index);
    CHECK(!exists(wal));
    write_file(shm, "a foreign file, not SQLite's shared memory");
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(open_catalog(index, &rt), CINEMATIC_OK);
    char *state = settled_state(rt, "search", NULL, "{\"type\":\"queryChanged\",\"query\":\"zardoz\"}");
    if (state) CHECK_STR_CONTAINS(state, "\"Zardoz\"");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    CHECK(!exists(wal));
    FILE *f = fopen(shm, "rb");
    char text[128] = {0};
    if (f) { CHECK(fread(text, 1, sizeof text - 1, f) > 0); fclose(f); }
    CHECK_STR_EQ(text, "a foreign file, not SQLite's shared memory");
}

static void test_an_index_rewritten_under_a_running_runtime_changes_nothing(void) {
    char index[300];
    build_index("live.idx", index, sizeof index);
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(open_catalog(index, &rt), CINEMATIC_OK);
    char *state = loaded_catalog_state(rt);
    if (state) CHECK_STR_EQ(state, "{\"phase\":\"loaded\"}");
    cinematic_free(state);
    /* `cp other.idx live.idx`: truncated in place, then written with other bytes. */
    int fd = open(index, O_WRONLY | O_TRUNC);
    CHECK(fd >= 0);
    if (fd >= 0) { CHECK(write(fd, "SQLite format 3", 15) == 15); close(fd); }
    state = settled_state(rt, "discover", NULL, "{\"type\":\"task\"}");
    if (state) CHECK_STR_CONTAINS(state, "\"The Matrix\"");
    cinematic_free(state);
    state = settled_state(rt, "detail", "{\"movieId\":5}", "{\"type\":\"task\"}");
    if (state) CHECK_STR_CONTAINS(state, "\"ratingDistribution\"");
    cinematic_free(state);
    state = settled_state(rt, "search", NULL, "{\"type\":\"queryChanged\",\"query\":\"alien\"}");
    if (state) CHECK_STR_CONTAINS(state, "\"Alien\"");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* Runs sql on a copy of a good index (at dir/name), with blob bound to ?1 when given. */
static void crafted_index(const char *name, const char *sql, const void *blob, int size, char *out, size_t out_size) {
    build_index(name, out, out_size);
    sqlite3 *db = NULL;
    CHECK(sqlite3_open(out, &db) == SQLITE_OK);
    sqlite3_stmt *statement = NULL;
    CHECK(sqlite3_prepare_v2(db, sql, -1, &statement, NULL) == SQLITE_OK);
    if (blob) sqlite3_bind_blob(statement, 1, blob, size, SQLITE_TRANSIENT);
    CHECK(sqlite3_step(statement) == SQLITE_DONE);
    CHECK(sqlite3_changes(db) == 1);
    sqlite3_finalize(statement);
    sqlite3_close(db);
}

/* A runtime on index refuses it while loading: its catalog state fails naming `field`, and
 * every store gets a failed phase, never a crash. */
static void check_refused(const char *index, const char *field) {
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(open_catalog(index, &rt), CINEMATIC_OK);
    char *state = loaded_catalog_state(rt);
    if (state) { CHECK_STR_CONTAINS(state, "\"failed\""); CHECK_STR_CONTAINS(state, field); }
    cinematic_free(state);
    state = settled_state(rt, "search", NULL, "{\"type\":\"queryChanged\",\"query\":\"alien\"}");
    if (state) CHECK_STR_CONTAINS(state, "\"failed\"");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_a_crafted_index_is_refused_naming_the_field(void) {
    char index[300];
    double ratings[5] = {7.5, 7.5, NAN, 7.5, 7.5};
    crafted_index("nan.idx", "UPDATE blobs SET data = ?1 WHERE name = 'ratings'", ratings, sizeof ratings, index, sizeof index);
    check_refused(index, "ratings");
    ratings[2] = INFINITY;
    crafted_index("inf.idx", "UPDATE blobs SET data = ?1 WHERE name = 'ratings'", ratings, sizeof ratings, index, sizeof index);
    check_refused(index, "ratings");
    /* The vocabulary, sorted at build, with its first two words swapped. */
    crafted_index("unsorted.idx",
                  "UPDATE blobs SET data = CAST(substr(CAST(data AS TEXT), instr(CAST(data AS TEXT), char(10)) + 1, "
                  "instr(substr(CAST(data AS TEXT), instr(CAST(data AS TEXT), char(10)) + 1), char(10))) || "
                  "substr(CAST(data AS TEXT), 1, instr(CAST(data AS TEXT), char(10))) || "
                  "substr(CAST(data AS TEXT), instr(CAST(data AS TEXT), char(10)) + 1 + "
                  "instr(substr(CAST(data AS TEXT), instr(CAST(data AS TEXT), char(10)) + 1), char(10))) AS BLOB) "
                  "WHERE name = 'words'", NULL, 0, index, sizeof index);
    check_refused(index, "words");
}

static void test_a_film_whose_distribution_is_not_numbers_fails_its_detail_only(void) {
    const char *values[] = {"nan,nan,nan,nan,nan,nan,nan,nan,nan,nan", "1e999,0,0,0,0,0,0,0,0,0", "1,2,3", "-5,0,0,0,0,0,0,0,0,0"};
    for (int i = 0; i < 4; i++) {
        char index[300], name[32], sql[200];
        snprintf(name, sizeof name, "distribution%d.idx", i);
        snprintf(sql, sizeof sql, "UPDATE movies SET distribution = '%s' WHERE rank = 4", values[i]);
        crafted_index(name, sql, NULL, 0, index, sizeof index);
        cinematic_runtime *rt = NULL;
        CHECK_STATUS(open_catalog(index, &rt), CINEMATIC_OK);
        char *state = settled_state(rt, "detail", "{\"movieId\":5}", "{\"type\":\"task\"}");
        if (state) { CHECK_STR_CONTAINS(state, "\"failed\""); CHECK_STR_CONTAINS(state, "distribution"); }
        cinematic_free(state);
        state = settled_state(rt, "detail", "{\"movieId\":2}", "{\"type\":\"task\"}");
        if (state) CHECK_STR_CONTAINS(state, "\"ratingDistribution\"");
        cinematic_free(state);
        CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    }
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/cinematic-index-reader-XXXXXX");
    if (!mkdtemp(dir)) return 2;
    RUN_TEST(test_a_fifo_or_directory_at_any_database_path_is_a_status_not_a_hang);
    RUN_TEST(test_an_index_is_only_read_even_when_its_header_says_wal);
    RUN_TEST(test_an_index_rewritten_under_a_running_runtime_changes_nothing);
    RUN_TEST(test_a_crafted_index_is_refused_naming_the_field);
    RUN_TEST(test_a_film_whose_distribution_is_not_numbers_fails_its_detail_only);
    char command[128];
    snprintf(command, sizeof command, "rm -rf %s", dir);
    if (system(command) != 0) return 2;
    return TEST_SUMMARY();
}
