/*
 * Scenario 8 of the runtime issue: files are ours or untouched.
 *
 * A favorites path that points at another program's file is refused with CINEMATIC_ERR_IO
 * and left unchanged byte for byte, with no side file created (0.1.0 added a table, set
 * user_version and switched the journal to WAL even when it then refused the file).
 * read_only creates nothing (0.1.0 left -wal/-shm files behind). cinematic_runtime_close
 * returns after the favorites and catalog files are closed (0.1.0: up to 18 ms later).
 */
#include "stress.h"
#include <sqlite3.h>
#include <sys/stat.h>

#define DUNE 15249

static int exists(const char *path) { return access(path, F_OK) == 0; }

static int side_files(const char *path) {
    const char *suffixes[] = {"-wal", "-shm", "-journal"};
    int found = 0;
    for (int i = 0; i < 3; i++) {
        char side[512];
        snprintf(side, sizeof side, "%s%s", path, suffixes[i]);
        found += exists(side);
    }
    return found;
}

static void make_sqlite(const char *path, const char *sql) {
    sqlite3 *db = NULL;
    CHECK_EQ_INT(sqlite3_open(path, &db), SQLITE_OK);
    char *error = NULL;
    CHECK_MSG(sqlite3_exec(db, sql, NULL, NULL, &error) == SQLITE_OK, "%s: %s", sql, error ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
}

static void check_refused_unchanged(const char *path) {
    long before_size = 0, after_size = 0;
    char *before = read_file(path, &before_size);
    struct stat info_before, info_after;
    stat(path, &info_before);
    int sides = side_files(path);
    char config[512];
    snprintf(config, sizeof config, "{\"favorites\":\"%s\"}", path);
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("left unchanged");
    snprintf(config, sizeof config, "{\"favorites\":{\"path\":\"%s\",\"readOnly\":true}}", path);
    CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_ERR_IO);
    char *after = read_file(path, &after_size);
    stat(path, &info_after);
    CHECK_EQ_INT(after_size, before_size);
    CHECK(before && after && memcmp(before, after, (size_t)before_size) == 0);
    CHECK(info_after.st_mtim.tv_sec == info_before.st_mtim.tv_sec && info_after.st_mtim.tv_nsec == info_before.st_mtim.tv_nsec);
    CHECK_EQ_INT(side_files(path), sides);
    free(before);
    free(after);
}

static void test_other_programs_files_are_left_unchanged(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    /* Another program's database, rollback journal. */
    snprintf(path, sizeof path, "%s/notes.sqlite", dir);
    make_sqlite(path, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me'); PRAGMA user_version = 7;");
    check_refused_unchanged(path);
    /* Another program's database in WAL mode with user_version 1 (our old schema number). */
    snprintf(path, sizeof path, "%s/wal.sqlite", dir);
    make_sqlite(path, "PRAGMA journal_mode = WAL; CREATE TABLE favorites (id INTEGER, note TEXT); PRAGMA user_version = 1;");
    check_refused_unchanged(path);
    /* An empty SQLite database someone else made. */
    snprintf(path, sizeof path, "%s/empty.sqlite", dir);
    make_sqlite(path, "PRAGMA user_version = 3;");
    check_refused_unchanged(path);
    /* Not SQLite at all. */
    snprintf(path, sizeof path, "%s/notes.txt", dir);
    FILE *text = fopen(path, "w");
    fputs("a shopping list, not a database\n", text);
    fclose(text);
    check_refused_unchanged(path);
    remove_tempdir(dir);
}

static void test_read_only_creates_nothing(void) {
    char dir[64], path[128], config[256];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/favorites.sqlite", dir);
    cinematic_runtime *writer = open_on_favorites_file(path, "system");
    cinematic_store *detail = open_detail(writer, DUNE);
    CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_OK);
    char *state = wait_json_eq(detail, "isSaving", "false", H_WAIT_MS);
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(writer), CINEMATIC_OK);
    CHECK_EQ_INT(side_files(path), 0);   /* the last connection checkpointed and removed them */

    /* No file of ours at all: refused, nothing created. */
    char missing[160];
    snprintf(missing, sizeof missing, "{\"favorites\":{\"path\":\"%s/missing.sqlite\",\"readOnly\":true}}", dir);
    CHECK_STATUS(cinematic_runtime_open(missing, &(cinematic_runtime *){NULL}), CINEMATIC_ERR_IO);
    snprintf(missing, sizeof missing, "%s/missing.sqlite", dir);
    CHECK(!exists(missing));

    snprintf(config, sizeof config, "{\"favorites\":{\"path\":\"%s\",\"readOnly\":true}}", path);
    cinematic_runtime *reader = open_runtime(config);
    cinematic_store *favorites = open_feature(reader, "favorites", NULL);
    CHECK_STATUS(cinematic_store_send(favorites, "{\"type\":\"task\"}"), CINEMATIC_OK);
    state = wait_json_eq(favorites, "favorites.phase", "loaded", H_WAIT_MS);
    CHECK_EQ_INT(json_int(state, "favorites.value[0].id", -1), DUNE);
    cinematic_free(state);
    CHECK_EQ_INT(side_files(path), 0);

    /* A writer appears: the reader follows its change, still creating nothing itself. */
    snprintf(config, sizeof config, "{\"favorites\":\"%s\"}", path);
    writer = open_runtime(config);
    detail = open_detail(writer, DUNE);
    /* A toggle turns over what the Detail knows: wait until it knows Dune is a favorite (sent
     * before, on a loaded machine, it added Dune again instead of removing it). */
    cinematic_free(wait_json_eq(detail, "isFavorite", "true", 10000));
    CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_OK);
    state = wait_json_eq(favorites, "favorites.value", "[]", 10000);
    CHECK_JSON_EQ(state, "favorites.value", "[]");
    cinematic_free(state);
    /* The -wal/-shm are the writer's: it removes them when it closes last. */
    CHECK_STATUS(cinematic_runtime_close(reader), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_close(writer), CINEMATIC_OK);
    CHECK_EQ_INT(side_files(path), 0);
    remove_tempdir(dir);
}

/* How many of this process's file descriptors point at a path starting with prefix. */
static int open_descriptors(const char *prefix) {
    DIR *fds = opendir("/proc/self/fd");
    if (!fds) return -1;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(fds)) != NULL) {
        char link[300], target[512];
        snprintf(link, sizeof link, "/proc/self/fd/%s", entry->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n <= 0) continue;
        target[n] = '\0';
        if (strncmp(target, prefix, strlen(prefix)) == 0) count++;
    }
    closedir(fds);
    return count;
}

static void test_close_returns_after_the_files_are_closed(void) {
    char dir[64], path[128], index[128], config[384];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/favorites.sqlite", dir);
    snprintf(index, sizeof index, "%s/catalog.idx", dir);
    /* The catalog as an index file in the same directory, so its descriptor is counted too;
     * built before the watchdog starts (seconds, more under sanitizers). */
    CHECK_STATUS(cinematic_catalog_build_index(NULL, index), CINEMATIC_OK);
    snprintf(config, sizeof config, "{\"catalog\":{\"path\":\"%s\"},\"favorites\":\"%s\"}", index, path);
    const char *names[] = {"open, toggle, close, count descriptors"};
    stress_begin(1, names);
    int leaked = 0;
    do {
        cinematic_runtime *rt = open_runtime(config);
        cinematic_store *detail = open_detail(rt, DUNE);
        CHECK_STATUS(cinematic_store_send(detail, "{\"type\":\"favoriteToggled\"}"), CINEMATIC_OK);
        CHECK(open_descriptors(dir) > 0);
        CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
        if (open_descriptors(dir) != 0) leaked++;
        stress_tick(0);
    } while (stress_running());
    stress_finish(0);
    CHECK_EQ_INT(leaked, 0);
    printf("     %ld runtimes closed, none left a file open\n", stress_rounds(0));
    stress_end();
    remove_tempdir(dir);
}

int main(void) {
    RUN_TEST(test_other_programs_files_are_left_unchanged);
    RUN_TEST(test_read_only_creates_nothing);
    RUN_TEST(test_close_returns_after_the_files_are_closed);
    return TEST_SUMMARY();
}
