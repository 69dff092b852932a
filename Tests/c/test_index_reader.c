/*
 * Every file we read is hostile until proven ours: the catalog index, the favorites and the
 * offline cache through the C API.
 *   - A FIFO (or a directory) at any of their paths is a status at once, never a hang.
 *   - An index is only read: one whose header says WAL gets no -wal/-shm beside it, and a
 *     foreign -shm there is left byte for byte.
 *   - An index rewritten or truncated under a running runtime changes nothing it serves
 *     (it is read whole into a private copy; nothing of it is mapped).
 *   - A film whose distribution is not numbers ("nan") fails that one film's Detail; never a
 *     trap. (Damaged search sections: test_index_section.c.)
 */
#include "index_files.h"
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

static void on_alarm(int signal) {
    (void)signal;
    static const char message[] = "FAIL: a call blocked (watchdog)\n";
    if (write(2, message, sizeof message - 1)) {}
    _exit(3);
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
    RUN_TEST(test_a_film_whose_distribution_is_not_numbers_fails_its_detail_only);
    char command[128];
    snprintf(command, sizeof command, "rm -rf %s", dir);
    if (system(command) != 0) return 2;
    return TEST_SUMMARY();
}
