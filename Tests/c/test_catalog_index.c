/*
 * The catalog index through the C API: cinematic_catalog_build_index builds an index from a
 * movie file (or the embedded catalog), a runtime opens it with {"catalog": {"path": ...}},
 * a malformed movie file is refused with its line and nothing is written at the index path,
 * and a file that is not an index of this format is refused with CINEMATIC_ERR_IO, byte for
 * byte untouched.
 */
#include "index_files.h"
#include <sys/stat.h>
#include <unistd.h>

/* The first result's title in the state of a search for query, settled. */
static void first_result(cinematic_runtime *rt, const char *query, const char *expected) {
    cinematic_store *search = NULL;
    CHECK_STATUS(cinematic_store_open(rt, "search", NULL, &search), CINEMATIC_OK);
    char intent[256];
    snprintf(intent, sizeof intent, "{\"type\":\"queryChanged\",\"query\":\"%s\"}", query);
    CHECK_STATUS(cinematic_store_send(search, intent), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_send(search, "{\"type\":\"submitted\"}"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(search, 20000), CINEMATIC_OK);
    char *state = NULL;
    CHECK_STATUS(cinematic_store_state(search, &state), CINEMATIC_OK);
    if (state) {
        const char *title = strstr(state, "\"title\":");
        CHECK_MSG(title && strncmp(title + 9, expected, strlen(expected)) == 0, "first title for %s: %s", query, state);
    }
    cinematic_free(state);
    CHECK_STATUS(cinematic_store_close(search), CINEMATIC_OK);
}

static void test_build_and_open_an_index_of_your_own(void) {
    char movies[300], index[300], config[700];
    path_in(movies, sizeof movies, "movies.tsv");
    path_in(index, sizeof index, "movies.idx");
    write_file(movies, HEADER FILM("1", "Matrix, The", "1000") FILM("2", "Zardoz", "50"));
    CHECK_STATUS(cinematic_catalog_build_index(movies, index), CINEMATIC_OK);
    snprintf(config, sizeof config, "{\"catalog\":{\"path\":\"%s\"}}", index);
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_OK);
    first_result(rt, "the matrix", "The Matrix");
    first_result(rt, "zardos", "Zardoz");
    char *state = NULL;
    CHECK_STATUS(cinematic_runtime_catalog_state(rt, &state), CINEMATIC_OK);
    if (state) CHECK_STR_EQ(state, "{\"phase\":\"loaded\"}");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_catalog_state(rt, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_catalog_state(rt, &state), CINEMATIC_ERR_CLOSED);
}

static void test_the_embedded_catalog_as_a_file(void) {
    char index[300], config[700];
    path_in(index, sizeof index, "embedded.idx");
    CHECK_STATUS(cinematic_catalog_build_index(NULL, index), CINEMATIC_OK);
    snprintf(config, sizeof config, "{\"catalog\":{\"path\":\"%s\"}}", index);
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_OK);
    first_result(rt, "dune", "Dune");
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_a_malformed_line_is_named_and_nothing_is_written(void) {
    char movies[300], index[300];
    path_in(movies, sizeof movies, "bad.tsv");
    path_in(index, sizeof index, "bad.idx");
    write_file(movies, HEADER FILM("1", "Fine", "3") "2\tBroken\tnineteen ninety\n");
    CHECK_STATUS(cinematic_catalog_build_index(movies, index), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("line 3");
    CHECK(access(index, F_OK) != 0);
    write_file(movies, HEADER FILM("1", "Fine", "3") FILM("1", "Again", "3"));
    CHECK_STATUS(cinematic_catalog_build_index(movies, index), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("line 3: id 1 is already the film of line 2");
    CHECK(access(index, F_OK) != 0);
    path_in(movies, sizeof movies, "missing.tsv");
    CHECK_STATUS(cinematic_catalog_build_index(movies, index), CINEMATIC_ERR_IO);
    CHECK_STATUS(cinematic_catalog_build_index(movies, NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_catalog_build_index(movies, ""), CINEMATIC_ERR_INVALID);
}

static void test_a_file_that_is_not_an_index_is_refused_untouched(void) {
    char path[300], config[700];
    path_in(path, sizeof path, "notes.txt");
    write_file(path, "my notes, not an index\n");
    struct stat before, after;
    stat(path, &before);
    snprintf(config, sizeof config, "{\"catalog\":{\"path\":\"%s\"}}", path);
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("is not a cinematic catalog index");
    CHECK(rt == NULL);
    stat(path, &after);
    char *text = read_file(path, NULL);
    CHECK_STR_EQ(text, "my notes, not an index\n");
    free(text);
    CHECK(before.st_mtime == after.st_mtime && before.st_size == after.st_size);
}

/* The index writer follows the files rule: it replaces nothing but an index (or an empty
 * file), never through a symbolic link, and leaves no temporary file. */
static void test_building_never_replaces_what_is_not_an_index(void) {
    char movies[300], target[300], link_path[300], index[300];
    path_in(movies, sizeof movies, "own.tsv");
    write_file(movies, HEADER FILM("1", "Fine", "3"));
    path_in(target, sizeof target, "precious.txt");
    write_file(target, "precious\n");
    CHECK_STATUS(cinematic_catalog_build_index(movies, target), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("left unchanged");
    char *text = read_file(target, NULL);
    CHECK_STR_EQ(text, "precious\n");
    free(text);
    path_in(link_path, sizeof link_path, "link.idx");
    CHECK(symlink(target, link_path) == 0);
    CHECK_STATUS(cinematic_catalog_build_index(movies, link_path), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("symbolic link");
    text = read_file(target, NULL);
    CHECK_STR_EQ(text, "precious\n");
    free(text);
    /* A favorites database (SQLite, but not an index) is refused too. */
    char favorites[300], config[700];
    path_in(favorites, sizeof favorites, "favorites.sqlite");
    snprintf(config, sizeof config, "{\"favorites\":\"%s\",\"catalog\":\"host\",\"offlineCache\":false}", favorites);
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_OK);
    if (rt) cinematic_runtime_close(rt);
    CHECK_STATUS(cinematic_catalog_build_index(movies, favorites), CINEMATIC_ERR_IO);
    CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_OK);
    if (rt) cinematic_runtime_close(rt);
    /* An index is replaced by a new one. */
    path_in(index, sizeof index, "replaced.idx");
    CHECK_STATUS(cinematic_catalog_build_index(movies, index), CINEMATIC_OK);
    CHECK_STATUS(cinematic_catalog_build_index(movies, index), CINEMATIC_OK);
    char command[400];
    snprintf(command, sizeof command, "! ls -A %s | grep -q tmp-", dir);
    CHECK_MSG(system(command) == 0, "a temporary file was left in %s", dir);
}

int main(void) {
    make_tempdir(dir, sizeof dir);
    RUN_TEST(test_build_and_open_an_index_of_your_own);
    RUN_TEST(test_the_embedded_catalog_as_a_file);
    RUN_TEST(test_a_malformed_line_is_named_and_nothing_is_written);
    RUN_TEST(test_a_file_that_is_not_an_index_is_refused_untouched);
    RUN_TEST(test_building_never_replaces_what_is_not_an_index);
    remove_tempdir(dir);
    return TEST_SUMMARY();
}
