/*
 * test_surfaces: the rules hold on recordings, a surface added after 0.2's favorites: files
 * are ours or untouched, one writer per recording, and errors are never silent (a failed
 * recording is reported and stays replayable). Replay: test_surfaces_replay.c; the stderr
 * log: test_surfaces_log.c.
 */
#include "harness.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int open_recording(const char *path, const char *extra, cinematic_runtime **out) {
    char config[512];
    snprintf(config, sizeof config, "{\"clock\":\"manual\",\"catalog\":\"host\",\"offlineCache\":false,\"record\":\"%s\"%s}", path, extra);
    *out = NULL;
    return cinematic_runtime_open(config, out);
}

/* A short session: a store, one query; closed. */
static void record_short_session(const char *path) {
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(open_recording(path, "", &rt), CINEMATIC_OK);
    if (!rt) return;
    cinematic_store *search = open_search(rt);
    CHECK_STATUS(send_query(search, "du"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

/* Replays path: it must run and match, and say whether it is complete. */
static void check_replays(const char *path, const char *complete) {
    int matched = 0;
    char *report = NULL;
    CHECK_STATUS(cinematic_replay(path, &matched, &report), CINEMATIC_OK);
    CHECK_EQ_INT(matched, 1);
    CHECK_JSON_EQ(report, "complete", complete);
    h_wire_log("replay", NULL, report);
    cinematic_free(report);
}

/* Refused record paths are left byte for byte: a symlink (and its target), another
 * program's file, the runtime's own favorites database, a directory, a device. */
static void test_a_recording_never_writes_over_what_is_not_ours(void) {
    char dir[64], target[128], link_path[128], foreign[128], favorites[128], extra[256], text[256];
    make_tempdir(dir, sizeof dir);
    snprintf(target, sizeof target, "%s/someone-elses.txt", dir);
    snprintf(link_path, sizeof link_path, "%s/session.jsonl", dir);
    CHECK(write_file(target, "precious\n"));
    CHECK(symlink(target, link_path) == 0);
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(open_recording(link_path, "", &rt), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("symbolic link");
    char *content = read_file(target, NULL);
    CHECK(content && strcmp(content, "precious\n") == 0);
    free(content);

    snprintf(foreign, sizeof foreign, "%s/notes.jsonl", dir);
    CHECK(write_file(foreign, "{\"event\":\"mine\"}\n"));
    CHECK_STATUS(open_recording(foreign, "", &rt), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("not a recording of ours");
    content = read_file(foreign, NULL);
    CHECK(content && strcmp(content, "{\"event\":\"mine\"}\n") == 0);
    free(content);

    /* The favorites file of the same runtime (it exists once the runtime opens it). */
    snprintf(favorites, sizeof favorites, "%s/favorites.sqlite", dir);
    snprintf(extra, sizeof extra, ",\"favorites\":\"%s\"", favorites);
    CHECK_STATUS(open_recording(favorites, extra, &rt), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("a database of the same runtime");
    snprintf(text, sizeof text, "%s-wal", favorites);
    CHECK_STATUS(open_recording(text, extra, &rt), CINEMATIC_ERR_IO);
    /* ... which stays a working favorites database. */
    char config[512];
    snprintf(config, sizeof config, "{\"favorites\":\"%s\",\"catalog\":\"host\",\"offlineCache\":false}", favorites);
    CHECK_STATUS(cinematic_runtime_open(config, &rt), CINEMATIC_OK);
    if (rt) cinematic_runtime_close(rt);

    CHECK_STATUS(open_recording(dir, "", &rt), CINEMATIC_ERR_IO);
    CHECK_STATUS(open_recording("/dev/full", "", &rt), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("not a regular file");
    remove_tempdir(dir);
}

/* A recording of ours is replaced (by a new file: a reader of the old one keeps it whole);
 * an empty file is adopted; a new file appears already complete for each line. */
static void test_a_recording_replaces_only_a_recording_of_ours(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/session.jsonl", dir);
    record_short_session(path);
    int old = open(path, O_RDONLY);
    CHECK(old >= 0);
    struct stat before, after;
    CHECK(fstat(old, &before) == 0);
    record_short_session(path);                       /* ours: replaced */
    CHECK(stat(path, &after) == 0);
    CHECK(before.st_ino != after.st_ino);
    char head[32] = {0};
    CHECK(read(old, head, 18) == 18);                 /* the old one is still whole */
    CHECK(strncmp(head, "{\"event\":\"session\"", 18) == 0);
    close(old);
    char *text = read_file(path, NULL);
    CHECK(text && text[0]);
    CHECK_STR_CONTAINS(text, "\"event\":\"end\"");
    free(text);

    CHECK(write_file(path, ""));                      /* empty: adopted */
    record_short_session(path);
    text = read_file(path, NULL);
    CHECK(text && text[0]);
    CHECK(text && strncmp(text, "{\"event\":\"session\"", 18) == 0);
    free(text);

    check_replays(path, "true");
    /* No temporary file is left beside it. */
    char command[256];
    snprintf(command, sizeof command, "test $(ls -A %s | wc -l) -eq 1", dir);
    CHECK_MSG(system(command) == 0, "files other than the recording were left in %s", dir);
    remove_tempdir(dir);
}

/* One writer per recording: a second runtime on the same path is refused, and the first
 * one's recording is complete and replays. */
static void test_one_writer_per_recording(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/session.jsonl", dir);
    cinematic_runtime *first = NULL, *second = NULL;
    CHECK_STATUS(open_recording(path, "", &first), CINEMATIC_OK);
    CHECK_STATUS(open_recording(path, "", &second), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("being written by another runtime");
    CHECK(second == NULL);
    cinematic_store *search = open_search(first);
    CHECK_STATUS(send_query(search, "dune"), CINEMATIC_OK);
    CHECK_STATUS(cinematic_runtime_close(first), CINEMATIC_OK);
    check_replays(path, "true");
    /* Closed: the path is free again. */
    CHECK_STATUS(open_recording(path, "", &second), CINEMATIC_OK);
    if (second) cinematic_runtime_close(second);
    remove_tempdir(dir);
}

/* A recording whose writes fail (the file size limit: EFBIG) is reported by close, and what
 * it wrote is cut at its last complete line, so it replays, reported incomplete. Runs in a
 * child process (the limit is per process). */
static void test_a_failed_recording_is_reported_and_stays_replayable(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/session.jsonl", dir);
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        execl("/proc/self/exe", "test_surfaces", "efbig-child", path, (char *)NULL);
        _exit(20);
    }
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child exited %d", WEXITSTATUS(status));
    struct stat info;
    CHECK(stat(path, &info) == 0 && info.st_size > 0 && info.st_size <= 20000);
    /* Ends with a complete line. */
    long size = 0;
    char *text = read_file(path, &size);
    CHECK(text && size > 0 && text[size - 1] == '\n');
    free(text);
    check_replays(path, "false");
    remove_tempdir(dir);
}


/* The child of the EFBIG test: records under a 20,000-byte file size limit. */
static int efbig_child(const char *path) {
    signal(SIGXFSZ, SIG_IGN);
    struct rlimit limit = {.rlim_cur = 20000, .rlim_max = 20000};
    setrlimit(RLIMIT_FSIZE, &limit);
    cinematic_runtime *rt = NULL;
    if (open_recording(path, "", &rt) != CINEMATIC_OK) return 10;
    cinematic_store *search = NULL;
    if (cinematic_store_open(rt, "search", NULL, &search) != CINEMATIC_OK) return 11;
    char query[64];
    for (int i = 0; i < 2000; i++) {
        snprintf(query, sizeof query, "query number %d", i);
        if (send_query(search, query) != CINEMATIC_OK) return 12;   /* the session goes on */
        if (i % 100 == 0) h_sleep_ms(15);                           /* several writes, not one */
    }
    int rc = cinematic_runtime_close(rt);
    if (rc != CINEMATIC_ERR_IO) return 13;
    const char *envelope = cinematic_last_error();
    if (!envelope || !strstr(envelope, "recording is incomplete") || !strstr(envelope, "too large")) return 14;
    return 0;
}


int main(int argc, char **argv) {
    if (argc > 2 && strcmp(argv[1], "efbig-child") == 0) return efbig_child(argv[2]);
    RUN_TEST(test_a_recording_never_writes_over_what_is_not_ours);
    RUN_TEST(test_a_recording_replaces_only_a_recording_of_ours);
    RUN_TEST(test_one_writer_per_recording);
    RUN_TEST(test_a_failed_recording_is_reported_and_stays_replayable);
    return TEST_SUMMARY();
}
