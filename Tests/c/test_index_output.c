/*
 * Where the index builder writes (include/cinematic/catalog_index.h,
 * cinematic_catalog_build_index): paths
 * are bytes never re-encoded, so a path that is not UTF-8 is CINEMATIC_ERR_INVALID and nothing
 * is written anywhere (the same for cinematic_replay's path); the temporary file of a build
 * killed midway is removed by the next build of the same index, while a temporary file another
 * live build holds locked, and a file that only looks like one, are left alone.
 */
#include "harness.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>

static char dir[64];

#define HEADER "id\ttitle\tyear\tlength\tbudget\trating\tvotes\tr1\tr2\tr3\tr4\tr5\tr6\tr7\tr8\tr9\tr10\tmpaa\tgenres\n"
#define FIGURES "\t1999\t100\t\t7.5\t%u\t4.5\t4.5\t4.5\t4.5\t14.5\t14.5\t14.5\t14.5\t14.5\t14.5\tPG\tDrama\n"

static void path_in(char *out, size_t size, const char *name) { snprintf(out, size, "%s/%s", dir, name); }

/* A movie file of `films` films with distinct titles. */
static void write_movies(const char *path, unsigned films) {
    FILE *f = fopen(path, "wb");
    fputs(HEADER, f);
    for (unsigned id = 1; id <= films; id++) fprintf(f, "%u\tFilm %u of the Series %u" FIGURES, id, id, id % 977, id % 5000);
    fclose(f);
}

/* The names in dir that start with prefix, counted; the first one's size in *size. */
static int entries_starting(const char *prefix, char *first, size_t first_size, off_t *size) {
    DIR *d = opendir(dir);
    int count = 0;
    struct dirent *entry;
    while (d && (entry = readdir(d)) != NULL) {
        if (strncmp(entry->d_name, prefix, strlen(prefix)) != 0) continue;
        if (count++ == 0 && first) {
            snprintf(first, first_size, "%s/%s", dir, entry->d_name);
            struct stat info;
            *size = stat(first, &info) == 0 ? info.st_size : -1;
        }
    }
    if (d) closedir(d);
    return count;
}

static void test_the_temporary_file_of_a_killed_build_is_removed_by_the_next(void) {
    char movies[300], index[300], stale[600] = "";
    path_in(movies, sizeof movies, "many.tsv");
    path_in(index, sizeof index, "killed.idx");
    write_movies(movies, 30000);
    pid_t child = fork();
    if (child == 0) _exit(cinematic_catalog_build_index(movies, index));
    /* Kill it once its temporary file holds data (SQLite is writing it). */
    off_t size = 0;
    int seen = 0;
    for (int waited = 0; waited < 60000 && !seen; waited++) {
        if (entries_starting(".killed.idx.tmp-", stale, sizeof stale, &size) == 1 && size > 0) seen = 1;
        else h_sleep_ms(1);
    }
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    CHECK_MSG(seen && WIFSIGNALED(status), "the child build was not caught writing its temporary file");
    CHECK_MSG(access(stale, F_OK) == 0, "the killed build left no temporary file to clean up");
    CHECK(access(index, F_OK) != 0);
    /* Another build's temporary file, held locked (its writer is alive), and a file that
     * only has a temporary file's name (not ours: neither empty nor an index). */
    char live[300], foreign[300];
    path_in(live, sizeof live, ".killed.idx.tmp-1-live");
    path_in(foreign, sizeof foreign, ".killed.idx.tmp-2-foreign");
    int held = open(live, O_WRONLY | O_CREAT | O_EXCL, 0600);
    CHECK(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0);
    FILE *f = fopen(foreign, "wb");
    fputs("somebody else's notes\n", f);
    fclose(f);
    write_movies(movies, 3);
    CHECK_STATUS(cinematic_catalog_build_index(movies, index), CINEMATIC_OK);
    CHECK_MSG(access(stale, F_OK) != 0, "the killed build's temporary file %s is still there", stale);
    CHECK(access(live, F_OK) == 0);
    CHECK(access(foreign, F_OK) == 0);
    CHECK_EQ_INT(entries_starting(".killed.idx.tmp-", NULL, 0, NULL), 2);
    close(held);
    /* Once its writer is gone, the next build removes that one too. */
    CHECK_STATUS(cinematic_catalog_build_index(movies, index), CINEMATIC_OK);
    CHECK(access(live, F_OK) != 0);
    CHECK(access(foreign, F_OK) == 0);
    unlink(foreign);
    unlink(movies);
    unlink(index);
}

static void test_a_path_that_is_not_utf8_is_invalid_and_nothing_is_written(void) {
    char movies[300], index[300], bad_movies[300];
    path_in(movies, sizeof movies, "movies.tsv");
    write_movies(movies, 3);
    path_in(index, sizeof index, "caf\xe9.idx");
    CHECK_STATUS(cinematic_catalog_build_index(movies, index), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("index_path is not valid UTF-8");
    CHECK_ENVELOPE_CONTAINS("\"path\":\"index_path\"");
    CHECK_EQ_INT(entries_starting("caf", NULL, 0, NULL), 0);
    CHECK_EQ_INT(entries_starting(".caf", NULL, 0, NULL), 0);
    /* The movie path too, even when a file has that name. */
    path_in(bad_movies, sizeof bad_movies, "m\xff.tsv");
    write_movies(bad_movies, 3);
    path_in(index, sizeof index, "fine.idx");
    CHECK_STATUS(cinematic_catalog_build_index(bad_movies, index), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("movie_path is not valid UTF-8");
    CHECK(access(index, F_OK) != 0);
    unlink(bad_movies);
    CHECK_STATUS(cinematic_catalog_build_index("", index), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("empty movie_path");
    /* And a recording's path. */
    char recording[300];
    path_in(recording, sizeof recording, "session\xc3.jsonl");
    int matched = -1;
    CHECK_STATUS(cinematic_replay(recording, &matched, NULL), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("path is not valid UTF-8");
    CHECK_EQ_INT(matched, 0);
    /* A UTF-8 path is used byte for byte. */
    path_in(index, sizeof index, "caf\xc3\xa9 \xe2\x98\x85.idx");
    CHECK_STATUS(cinematic_catalog_build_index(movies, index), CINEMATIC_OK);
    CHECK(access(index, F_OK) == 0);
    unlink(index);
    unlink(movies);
}

int main(void) {
    make_tempdir(dir, sizeof dir);
    RUN_TEST(test_the_temporary_file_of_a_killed_build_is_removed_by_the_next);
    RUN_TEST(test_a_path_that_is_not_utf8_is_invalid_and_nothing_is_written);
    remove_tempdir(dir);
    return TEST_SUMMARY();
}
