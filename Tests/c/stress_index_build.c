/*
 * Index builds read their rows on a thread of their own (RowPipeline.swift): builds from several
 * threads at once, each a few thousand films across several batches, give the same bytes every
 * time; a movie file whose last rows are malformed fails with CINEMATIC_ERR_IO naming the line;
 * and when a build returns, its reader thread has ended (the process holds no more threads than
 * before), whichever way it ended. Under the watchdog: a pipeline that waits forever is a stall.
 */
#include "stress.h"
#include <dirent.h>

#define BUILDERS 3
#define FILMS 5000

static char dir[256], good[512], bad[512], reference[512];

/* A movie file of FILMS films; with `broken`, its last film's year is not a number. */
static void write_movies(const char *path, int broken) {
    FILE *file = fopen(path, "w");
    if (!CHECK_MSG(file != NULL, "cannot write %s", path)) return;
    fputs("id\ttitle\tyear\tlength\tbudget\trating\tvotes\tr1\tr2\tr3\tr4\tr5\tr6\tr7\tr8\tr9\tr10\tmpaa\tgenres\n", file);
    for (int id = 1; id <= FILMS; id++) {
        const char *year = broken && id == FILMS ? "nineteen" : "1999";
        fprintf(file, "%d\tFilm %d of word%d and word%d\t%s\t90\t\t%d.5\t%d\t4.5\t4.5\t4.5\t4.5\t14.5\t14.5\t14.5\t14.5\t14.5\t14.5\tPG\tDrama\n",
                id, id, id % 97, id % 13, year, id % 10, 100000 - id);
    }
    fclose(file);
}

/* The threads this process runs now. */
static int thread_count(void) {
    DIR *tasks = opendir("/proc/self/task");
    int count = 0;
    struct dirent *entry;
    while (tasks && (entry = readdir(tasks)) != NULL) count += entry->d_name[0] != '.';
    if (tasks) closedir(tasks);
    return count;
}

static int same_bytes(const char *a, const char *b) {
    long size_a = 0, size_b = 0;
    char *x = read_file(a, &size_a), *y = read_file(b, &size_b);
    int same = x && y && size_a == size_b && memcmp(x, y, (size_t)size_a) == 0;
    free(x);
    free(y);
    return same;
}

static atomic_int differed, wrong_failures;

static void *builder(void *argument) {
    int index = (int)(intptr_t)argument;
    char path[600];
    snprintf(path, sizeof path, "%s/index-%d.idx", dir, index);
    do {
        unlink(path);
        if (stress_rounds(index) % 2 == 0) {
            if (cinematic_catalog_build_index(good, path) != CINEMATIC_OK || !same_bytes(path, reference)) atomic_fetch_add(&differed, 1);
        } else {
            const char *envelope = NULL;
            int status = cinematic_catalog_build_index(bad, path);
            envelope = cinematic_last_error();
            if (status != CINEMATIC_ERR_IO || !envelope || !strstr(envelope, "line")) atomic_fetch_add(&wrong_failures, 1);
        }
        stress_tick(index);
    } while (stress_running());
    stress_finish(index);
    return NULL;
}

static void test_builds_at_once_give_the_same_bytes_and_leave_no_thread(void) {
    make_tempdir(dir, sizeof dir);
    snprintf(good, sizeof good, "%s/movies.tsv", dir);
    snprintf(bad, sizeof bad, "%s/broken.tsv", dir);
    snprintf(reference, sizeof reference, "%s/reference.idx", dir);
    write_movies(good, 0);
    write_movies(bad, 1);
    CHECK_STATUS(cinematic_catalog_build_index(good, reference), CINEMATIC_OK);
    int before = thread_count();
    const char *names[BUILDERS] = {"builder 0", "builder 1", "builder 2"};
    stress_begin(BUILDERS, names);
    pthread_t threads[BUILDERS];
    for (int i = 0; i < BUILDERS; i++) pthread_create(&threads[i], NULL, builder, (void *)(intptr_t)i);
    for (int i = 0; i < BUILDERS; i++) pthread_join(threads[i], NULL);
    stress_end();
    for (int i = 0; i < BUILDERS; i++) CHECK_MSG(stress_rounds(i) >= 2, "builder %d made %ld rounds", i, stress_rounds(i));
    CHECK_EQ_INT(atomic_load(&differed), 0);
    CHECK_EQ_INT(atomic_load(&wrong_failures), 0);
    /* Every build's reader thread has ended (the builders themselves were joined). */
    CHECK_EQ_INT(thread_count(), before);
    remove_tempdir(dir);
}

int main(void) {
    RUN_TEST(test_builds_at_once_give_the_same_bytes_and_leave_no_thread);
    return TEST_SUMMARY();
}
