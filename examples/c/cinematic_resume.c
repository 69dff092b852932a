/*
 * cinematic-resume: save where you are, and pick up there in another process
 * (include/cinematic/snapshot.h, SNAPSHOTS).
 *
 *   cinematic-resume FILE star 3 15249   searches "star", loads 3 pages, opens the detail of
 *                                        movie 15249, then saves the runtime's snapshot to FILE
 *                                        (written atomically: a temporary file, fsync, rename)
 *   cinematic-resume FILE                a new process: reopens every store of FILE
 *                                        (cinematic_runtime_restore); they reload from the
 *                                        catalog
 *
 * Both print the same summary of what is open once it has loaded, e.g.
 *   search "star": 60 movies, 3 pages, first Star Wars (1977)
 *   detail 15249: Dune (1984)
 * so the two runs can be compared (make test-c does).
 *
 * Build: cc cinematic_resume.c $(pkg-config --cflags --libs cinematic jansson) -pthread
 */
#define _POSIX_C_SOURCE 200809L
#include <cinematic.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void fail(const char *what, int status) {
    fprintf(stderr, "cinematic-resume: %s failed: %s %s\n", what, cinematic_status_name(status),
            cinematic_last_error() ? cinematic_last_error() : "");
    exit(1);
}

#define CHECK(call, what) do { int status_ = (call); if (status_ != CINEMATIC_OK) fail(what, status_); } while (0)

/* A Detail store never settles (it observes the favorites): wait for its load with a
 * state callback and a condition variable, with a deadline. */
struct detail_wait {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int done;
};

static void on_detail(void *userdata, cinematic_store *store, const char *state_json) {
    (void)store;
    struct detail_wait *wait = userdata;
    json_t *state = json_loads(state_json, 0, NULL);
    const char *phase = json_string_value(json_object_get(json_object_get(state, "detail"), "phase"));
    pthread_mutex_lock(&wait->lock);
    if (phase && strcmp(phase, "loading") != 0) {
        wait->done = 1;
        pthread_cond_broadcast(&wait->changed);
    }
    pthread_mutex_unlock(&wait->lock);
    json_decref(state);
}

static void wait_for_detail(cinematic_store *detail) {
    struct detail_wait wait = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
    CHECK(cinematic_store_observe(detail, on_detail, &wait), "cinematic_store_observe");
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 10;
    pthread_mutex_lock(&wait.lock);
    while (!wait.done) {
        if (pthread_cond_timedwait(&wait.changed, &wait.lock, &deadline) == ETIMEDOUT) {
            fprintf(stderr, "cinematic-resume: the detail did not load within 10 s\n");
            exit(1);
        }
    }
    pthread_mutex_unlock(&wait.lock);
    /* No callback runs once another registration (NULL) has replaced it. */
    CHECK(cinematic_store_observe(detail, NULL, NULL), "cinematic_store_observe");
}

/* Prints one line for a store once it has loaded. */
static void summarize(cinematic_store *store) {
    char *snapshot = NULL;
    CHECK(cinematic_store_snapshot(store, &snapshot), "cinematic_store_snapshot");
    json_t *saved = json_loads(snapshot, 0, NULL);
    cinematic_free(snapshot);
    const char *feature = json_string_value(json_object_get(saved, "feature"));
    if (strcmp(feature, "detail") == 0)
        wait_for_detail(store);
    else
        CHECK(cinematic_store_settle(store, 10000), "cinematic_store_settle");
    char *text = NULL;
    CHECK(cinematic_store_state(store, &text), "cinematic_store_state");
    json_t *state = json_loads(text, 0, NULL);
    cinematic_free(text);
    if (strcmp(feature, "search") == 0) {
        json_t *movies = json_object_get(json_object_get(state, "results"), "value");
        json_t *first = json_array_get(movies, 0);
        printf("search \"%s\": %zu movies, %lld pages, first %s (%lld)\n",
               json_string_value(json_object_get(state, "query")), json_array_size(movies),
               json_integer_value(json_object_get(state, "pagesLoaded")),
               first ? json_string_value(json_object_get(first, "title")) : "none",
               first ? json_integer_value(json_object_get(first, "year")) : 0LL);
    } else if (strcmp(feature, "detail") == 0) {
        json_t *movie = json_object_get(json_object_get(state, "detail"), "value");
        printf("detail %lld: %s (%lld)\n", json_integer_value(json_object_get(state, "movieId")),
               movie ? json_string_value(json_object_get(movie, "title")) : "not found",
               movie ? json_integer_value(json_object_get(movie, "year")) : 0LL);
    } else {
        printf("%s\n", feature);
    }
    json_decref(state);
    json_decref(saved);
}

/* Writes text to path atomically: a new temporary file next to it, fsync, rename, fsync of
 * the directory. A reader (or the next run, after a kill) sees the old file or the new one. */
static void save(const char *path, const char *text) {
    char temporary[4096];
    snprintf(temporary, sizeof temporary, "%s.%ld.tmp", path, (long)getpid());
    int fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) { perror(temporary); exit(1); }
    size_t length = strlen(text), written = 0;
    while (written < length) {
        ssize_t n = write(fd, text + written, length - written);
        if (n < 0) { perror("write"); unlink(temporary); exit(1); }
        written += (size_t)n;
    }
    if (fsync(fd) != 0 || close(fd) != 0 || rename(temporary, path) != 0) {
        perror(path);
        unlink(temporary);
        exit(1);
    }
    char directory[4096];
    snprintf(directory, sizeof directory, "%s", path);
    char *slash = strrchr(directory, '/');
    if (slash) *slash = '\0'; else snprintf(directory, sizeof directory, ".");
    int dir = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) { fsync(dir); close(dir); }
}

static char *read_file(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(1); }
    static char buffer[1 << 20];
    size_t n = fread(buffer, 1, sizeof buffer - 1, file);
    fclose(file);
    buffer[n] = '\0';
    return buffer;
}

int main(int argc, char **argv) {
    if (argc != 2 && argc != 5) {
        fprintf(stderr, "usage: cinematic-resume FILE [QUERY PAGES MOVIE_ID]\n");
        return 2;
    }
    const char *path = argv[1];
    cinematic_runtime *rt = NULL;
    CHECK(cinematic_runtime_open(NULL, &rt), "cinematic_runtime_open");

    if (argc == 5) {   /* the first run: get somewhere, then save */
        cinematic_store *search = NULL, *detail = NULL;
        CHECK(cinematic_store_open(rt, "search", NULL, &search), "cinematic_store_open");
        json_t *intent = json_pack("{s:s, s:s}", "type", "queryChanged", "query", argv[2]);
        char *text = json_dumps(intent, JSON_COMPACT);
        CHECK(cinematic_store_send(search, text), "cinematic_store_send");
        free(text);
        json_decref(intent);
        CHECK(cinematic_store_send(search, "{\"type\":\"submitted\"}"), "cinematic_store_send");
        CHECK(cinematic_store_settle(search, 10000), "cinematic_store_settle");
        for (int page = 1; page < atoi(argv[3]); page++) {
            CHECK(cinematic_store_send(search, "{\"type\":\"loadMore\"}"), "cinematic_store_send");
            CHECK(cinematic_store_settle(search, 10000), "cinematic_store_settle");
        }
        char args[64];
        snprintf(args, sizeof args, "{\"movieId\":%d}", atoi(argv[4]));
        CHECK(cinematic_store_open(rt, "detail", args, &detail), "cinematic_store_open");
        CHECK(cinematic_store_send(detail, "{\"type\":\"task\"}"), "cinematic_store_send");
        summarize(search);
        summarize(detail);
        char *snapshot = NULL;
        CHECK(cinematic_runtime_snapshot(rt, &snapshot), "cinematic_runtime_snapshot");
        save(path, snapshot);
        cinematic_free(snapshot);
    } else {           /* a later run: reopen every store of the snapshot */
        cinematic_store **stores = NULL;
        int count = 0;
        CHECK(cinematic_runtime_restore(rt, read_file(path), &stores, &count), "cinematic_runtime_restore");
        for (int i = 0; i < count; i++)
            summarize(stores[i]);
        cinematic_free(stores);   /* the array; the stores close with the runtime */
    }
    CHECK(cinematic_runtime_close(rt), "cinematic_runtime_close");
    return 0;
}
