/*
 * test_surfaces: the rules hold on the surfaces added after 0.2's favorites (recordings,
 * replay, the stderr log): files are ours or untouched, errors are never silent, no host
 * thread waits on I/O, memory is bounded by the longest line.
 */
#include "harness.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void write_text(const char *path, const char *text) {
    FILE *file = fopen(path, "w");
    CHECK(file != NULL);
    if (!file) return;
    fputs(text, file);
    fclose(file);
}

static int read_text(const char *path, char *buf, size_t size) {
    FILE *file = fopen(path, "r");
    if (!file) return -1;
    size_t n = fread(buf, 1, size - 1, file);
    buf[n] = 0;
    fclose(file);
    return (int)n;
}

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
    write_text(target, "precious\n");
    CHECK(symlink(target, link_path) == 0);
    cinematic_runtime *rt = NULL;
    CHECK_STATUS(open_recording(link_path, "", &rt), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("symbolic link");
    CHECK(read_text(target, text, sizeof text) > 0 && strcmp(text, "precious\n") == 0);

    snprintf(foreign, sizeof foreign, "%s/notes.jsonl", dir);
    write_text(foreign, "{\"event\":\"mine\"}\n");
    CHECK_STATUS(open_recording(foreign, "", &rt), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("not a recording of ours");
    CHECK(read_text(foreign, text, sizeof text) > 0 && strcmp(text, "{\"event\":\"mine\"}\n") == 0);

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
    char dir[64], path[128], text[4096];
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
    CHECK(read_text(path, text, sizeof text) > 0);
    CHECK_STR_CONTAINS(text, "\"event\":\"end\"");

    write_text(path, "");                             /* empty: adopted */
    record_short_session(path);
    CHECK(read_text(path, text, sizeof text) > 0);
    CHECK(strncmp(text, "{\"event\":\"session\"", 18) == 0);

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
    char text[20001];
    int size = read_text(path, text, sizeof text);
    CHECK(size > 0 && text[size - 1] == '\n');
    check_replays(path, "false");
    remove_tempdir(dir);
}

static void on_alarm(int signal) {
    (void)signal;
    static const char message[] = "FAIL: a call blocked (watchdog)\n";
    if (write(2, message, sizeof message - 1)) {}
    _exit(3);
}

/* Replay opens nothing that can block (a FIFO with no writer), and refuses impossible
 * sequences naming the line; a last line cut short is replayed up to it. */
static void test_replay_refuses_hostile_files_without_blocking(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/fifo", dir);
    CHECK(mkfifo(path, 0600) == 0);
    signal(SIGALRM, on_alarm);
    alarm(20);
    int matched = 7;
    char *report = NULL;
    CHECK_STATUS(cinematic_replay(path, &matched, &report), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("not a regular file");
    alarm(0);

    snprintf(path, sizeof path, "%s/session.jsonl", dir);
    static const char *session = "{\"event\":\"session\",\"t\":0,\"config\":{\"clock\":\"manual\",\"catalog\":\"host\"}}\n";
    char text[1024];
    snprintf(text, sizeof text, "%s%s", session, "{\"event\":\"session\",\"t\":1,\"config\":{}}\n");
    write_text(path, text);
    CHECK_STATUS(cinematic_replay(path, &matched, NULL), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("recording line 2: a second \\\"session\\\"");
    snprintf(text, sizeof text, "%s%s", session, "{\"event\":\"advance\",\"t\":50}\n{\"event\":\"advance\",\"t\":20}\n");
    write_text(path, text);
    CHECK_STATUS(cinematic_replay(path, &matched, NULL), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("recording line 3: time goes backwards");
    snprintf(text, sizeof text, "%s%s", session,
             "{\"event\":\"open\",\"t\":0,\"store\":1,\"feature\":\"search\",\"args\":null}\n"
             "{\"event\":\"open\",\"t\":0,\"store\":1,\"feature\":\"search\",\"args\":null}\n");
    write_text(path, text);
    CHECK_STATUS(cinematic_replay(path, &matched, NULL), CINEMATIC_ERR_INVALID);
    CHECK_ENVELOPE_CONTAINS("recording line 3: store 1 is opened a second time");

    /* Cut short: replayed up to the last complete line, reported incomplete. */
    snprintf(text, sizeof text, "%s%s", session,
             "{\"event\":\"open\",\"t\":0,\"store\":1,\"feature\":\"search\",\"args\":null}\n{\"event\":\"int");
    write_text(path, text);
    CHECK_STATUS(cinematic_replay(path, &matched, &report), CINEMATIC_OK);
    CHECK_EQ_INT(matched, 1);
    CHECK_JSON_EQ(report, "complete", "false");
    CHECK_JSON_EQ(report, "cutLine", "3");
    h_wire_log("replay", NULL, report);
    cinematic_free(report);

    /* A line over 1 MiB in a regular file: too_large, before the rest is read. */
    FILE *file = fopen(path, "w");
    fputs(session, file);
    for (int i = 0; i < (1 << 20) + 10; i++) fputc('x', file);
    fclose(file);
    CHECK_STATUS(cinematic_replay(path, &matched, NULL), CINEMATIC_ERR_TOO_LARGE);
    CHECK_ENVELOPE_CONTAINS("recording line 2 is larger than");
    remove_tempdir(dir);
}

static long peak_kib(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

/* Replay reads a recording as a stream: a 64 MB recording (lines of 256 KB the replay
 * reads and skips) costs memory of a few lines, not of the file (0.2.0 held every line
 * parsed: ~20x the file). */
static void test_replay_memory_is_bounded_by_the_longest_line(void) {
    char dir[64], path[128];
    make_tempdir(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/big.jsonl", dir);
    FILE *file = fopen(path, "w");
    fputs("{\"event\":\"session\",\"t\":0,\"config\":{\"clock\":\"manual\",\"catalog\":\"host\"}}\n", file);
    static char filler[256 * 1024];
    memset(filler, 'a', sizeof filler - 1);
    for (int i = 0; i < 256; i++) fprintf(file, "{\"event\":\"providerRequest\",\"t\":%d,\"requestId\":%d,\"request\":{\"pad\":\"%s\"}}\n", i, i, filler);
    fputs("{\"event\":\"end\",\"t\":300}\n", file);
    fclose(file);
    long before = peak_kib();
    int matched = 0;
    char *report = NULL;
    CHECK_STATUS(cinematic_replay(path, &matched, &report), CINEMATIC_OK);
    CHECK_EQ_INT(matched, 1);
    cinematic_free(report);
    long grown = peak_kib() - before;
#ifdef __SANITIZE_ADDRESS__ /* AddressSanitizer's quarantine keeps freed memory: no RSS bound there */
    grown = 0;
#endif
    printf("  replaying a %d MB recording raised peak memory by %ld KiB\n", 64, grown);
    CHECK_MSG(grown < 24 * 1024, "replaying a 64 MB recording raised peak memory by %ld KiB", grown);
    remove_tempdir(dir);
}

/* CINEMATIC_LOG=stderr with a stderr nobody drains: sends never wait for it (the library's
 * own thread writes, and drops past its bound). Runs in a child (it replaces stderr). */
static void test_a_stderr_log_nobody_reads_never_blocks_the_host(void) {
    fflush(stdout);
    int pipes[2];
    CHECK(pipe(pipes) == 0);
    pid_t child = fork();
    if (child == 0) {                                   /* a fresh process: exec ourselves */
        close(pipes[0]);
        dup2(pipes[1], 2);                              /* a pipe nobody reads: fills at 64 KB */
        setenv("CINEMATIC_LOG", "stderr", 1);
        execl("/proc/self/exe", "test_surfaces", "stderr-child", (char *)NULL);
        _exit(20);
    }
    close(pipes[1]);
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child);
    CHECK_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "the host blocked on a stderr nobody reads (%s %d)", WIFSIGNALED(status) ? "signal" : "exit",
              WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    close(pipes[0]);
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

/* The child of the stderr test, in its own process: stderr is a pipe nobody reads. */
static int stderr_child(void) {
    alarm(30);                                          /* blocked: killed by the alarm */
    cinematic_runtime *rt = NULL;
    if (cinematic_runtime_open("{\"clock\":\"manual\",\"catalog\":\"host\",\"offlineCache\":false}", &rt) != CINEMATIC_OK) return 10;
    cinematic_store *search = NULL;
    if (cinematic_store_open(rt, "search", NULL, &search) != CINEMATIC_OK) return 11;
    char query[64];
    for (int i = 0; i < 20000; i++) {                  /* ~2 MB of log lines */
        snprintf(query, sizeof query, "a query for the log %d", i);
        if (send_query(search, query) != CINEMATIC_OK) return 12;
    }
    if (cinematic_runtime_close(rt) != CINEMATIC_OK) return 13;
    _exit(0);                                           /* the stderr thread may still be blocked: fine */
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "stderr-child") == 0) return stderr_child();
    if (argc > 2 && strcmp(argv[1], "efbig-child") == 0) return efbig_child(argv[2]);
    RUN_TEST(test_a_recording_never_writes_over_what_is_not_ours);
    RUN_TEST(test_a_recording_replaces_only_a_recording_of_ours);
    RUN_TEST(test_one_writer_per_recording);
    RUN_TEST(test_a_failed_recording_is_reported_and_stays_replayable);
    RUN_TEST(test_replay_refuses_hostile_files_without_blocking);
    RUN_TEST(test_replay_memory_is_bounded_by_the_longest_line);
    RUN_TEST(test_a_stderr_log_nobody_reads_never_blocks_the_host);
    return TEST_SUMMARY();
}
