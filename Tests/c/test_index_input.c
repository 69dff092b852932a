/*
 * The index builder reads a hostile movie file (include/cinematic/catalog_index.h, the bounds of
 * cinematic_catalog_build_index): a FIFO, a device or a directory is a status at once (never
 * a hang), a file or gzip text past 256 MiB is refused naming the limit without the memory of
 * it (a gzip bomb), a title past 1024 characters / 4096 bytes is refused naming its line
 * (before any per-word work: the old quadratic word check took minutes for such a title), and
 * every number is finite and in range, its line and column named.
 * Each test runs under an alarm: a build that hangs or takes minutes fails, it never blocks
 * `make test-c`.
 */
#include "harness.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <zlib.h>

static char dir[64];

#define HEADER "id\ttitle\tyear\tlength\tbudget\trating\tvotes\tr1\tr2\tr3\tr4\tr5\tr6\tr7\tr8\tr9\tr10\tmpaa\tgenres\n"
static const char *columns[19] = {"id", "title", "year", "length", "budget", "rating", "votes", "r1", "r2", "r3",
                                  "r4", "r5", "r6", "r7", "r8", "r9", "r10", "mpaa", "genres"};
static const char *fine[19] = {"1", "Fine", "1999", "100", "", "7.5", "10", "4.5", "4.5", "4.5",
                               "4.5", "14.5", "14.5", "14.5", "14.5", "14.5", "14.5", "PG", "Drama"};

static void path_in(char *out, size_t size, const char *name) { snprintf(out, size, "%s/%s", dir, name); }

static void on_alarm(int signal) {
    (void)signal;
    static const char text[] = "FAIL: a build did not return within its alarm (a hang, or quadratic work)\n";
    (void)!write(2, text, sizeof text - 1);
    _exit(1);
}

/* A movie file of the header, one fine film, then a film whose `column` is `value`. */
static void write_movies(const char *path, int column, const char *value) {
    FILE *f = fopen(path, "wb");
    fputs(HEADER, f);
    for (int film = 0; film < 2; film++) {
        for (int c = 0; c < 19; c++) {
            const char *field = film == 1 && c == column ? value : (c == 0 && film == 1 ? "2" : fine[c]);
            fprintf(f, "%s%s", field, c == 18 ? "\n" : "\t");
        }
    }
    fclose(f);
}

/* Builds movies with `column` set to `value` on line 3; returns the status. */
static int build_with(int column, const char *value) {
    char movies[300], index[300];
    path_in(movies, sizeof movies, "field.tsv");
    path_in(index, sizeof index, "field.idx");
    write_movies(movies, column, value);
    alarm(60);
    int status = cinematic_catalog_build_index(movies, index);
    alarm(0);
    unlink(index);
    return status;
}

static void test_a_fifo_a_device_or_a_directory_is_a_status_at_once(void) {
    char fifo[300], index[300];
    path_in(fifo, sizeof fifo, "movies.fifo");
    path_in(index, sizeof index, "fifo.idx");
    CHECK(mkfifo(fifo, 0600) == 0);
    alarm(20);
    CHECK_STATUS(cinematic_catalog_build_index(fifo, index), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("is not a regular file (a FIFO)");
    CHECK_STATUS(cinematic_catalog_build_index("/dev/zero", index), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("(a character device)");
    CHECK_STATUS(cinematic_catalog_build_index(dir, index), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("(a directory)");
    alarm(0);
    CHECK(access(index, F_OK) != 0);
}

/* A sparse file past the bound is refused from its size, before a byte is read. */
static void test_a_movie_file_past_256_mib_is_refused_before_it_is_read(void) {
    char movies[300], index[300];
    path_in(movies, sizeof movies, "huge.tsv");
    path_in(index, sizeof index, "huge.idx");
    int fd = open(movies, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0 && write(fd, HEADER, strlen(HEADER)) > 0 && ftruncate(fd, (1LL << 28) + 1) == 0);
    close(fd);
    alarm(20);
    CHECK_STATUS(cinematic_catalog_build_index(movies, index), CINEMATIC_ERR_IO);
    alarm(0);
    CHECK_ENVELOPE_CONTAINS("is larger than 256 MiB");
    CHECK(access(index, F_OK) != 0);
    unlink(movies);
}

/* A gzip member that inflates to `mebibytes` MiB of zeros, about 1 KB per MiB: deflate
 * resets at each full flush, so every MiB compresses to the same bytes, written repeatedly. */
static void write_gzip_bomb(const char *path, unsigned mebibytes) {
    static unsigned char zeros[1 << 20], block[1 << 16];
    z_stream z = {0};
    CHECK(deflateInit2(&z, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) == Z_OK);
    z.next_in = zeros, z.avail_in = sizeof zeros, z.next_out = block, z.avail_out = sizeof block;
    CHECK(deflate(&z, Z_FULL_FLUSH) == Z_OK && z.avail_in == 0);
    size_t size = sizeof block - z.avail_out;
    deflateEnd(&z);
    uLong crc = crc32(0, Z_NULL, 0), crc_mib = crc32(0, zeros, sizeof zeros);
    FILE *f = fopen(path, "wb");
    fwrite("\x1f\x8b\x08\0\0\0\0\0\0\x03", 1, 10, f);
    for (unsigned i = 0; i < mebibytes; i++) {
        fwrite(block, 1, size, f);
        crc = crc32_combine(crc, crc_mib, sizeof zeros);
    }
    unsigned char trailer[10] = {0x03, 0x00};   /* an empty final block, then CRC-32 and size */
    for (int i = 0; i < 4; i++) trailer[2 + i] = (unsigned char)(crc >> (8 * i));
    uint32_t length = (uint32_t)((unsigned long long)mebibytes << 20);
    for (int i = 0; i < 4; i++) trailer[6 + i] = (unsigned char)(length >> (8 * i));
    fwrite(trailer, 1, sizeof trailer, f);
    fclose(f);
}

/* Appends `text` to f as one gzip member. */
static void write_gzip_member(FILE *f, const char *text) {
    unsigned char out[4096];
    z_stream z = {0};
    CHECK(deflateInit2(&z, 9, Z_DEFLATED, 31, 9, Z_DEFAULT_STRATEGY) == Z_OK);
    z.next_in = (unsigned char *)text, z.avail_in = (uInt)strlen(text), z.next_out = out, z.avail_out = sizeof out;
    CHECK(deflate(&z, Z_FINISH) == Z_STREAM_END);
    fwrite(out, 1, sizeof out - z.avail_out, f);
    deflateEnd(&z);
}

/* Builds in a child process (a fresh address space, so its peak memory is the build's own). */
static int build_in_child(const char *movies, const char *index, char *message, size_t size, long *max_rss_kb) {
    int out[2];
    CHECK(pipe(out) == 0);
    pid_t child = fork();
    if (child == 0) {
        close(out[0]);
        int status = cinematic_catalog_build_index(movies, index);
        dprintf(out[1], "%d %s", status, cinematic_last_error() ? cinematic_last_error() : "");
        _exit(0);
    }
    close(out[1]);
    size_t used = 0;
    ssize_t n;
    while (used + 1 < size && (n = read(out[0], message + used, size - used - 1)) > 0) used += (size_t)n;
    message[used] = 0;
    close(out[0]);
    int wait_status = 0;
    struct rusage usage;
    CHECK(wait4(child, &wait_status, 0, &usage) == child);
    CHECK_MSG(WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0, "the building child died (wait status %d)", wait_status);
    *max_rss_kb = usage.ru_maxrss;
    return atoi(message);
}

static void test_a_gzip_bomb_is_refused_past_256_mib_without_its_memory(void) {
    char movies[300], index[300], message[4096];
    path_in(movies, sizeof movies, "bomb.tsv.gz");
    path_in(index, sizeof index, "bomb.idx");
    write_gzip_bomb(movies, 257);   /* about 270 KB inflating to 256 MiB + 1 MiB */
    struct stat info;
    CHECK(stat(movies, &info) == 0 && info.st_size < (1 << 20));
    long max_rss_kb = 0;
    alarm(120);
    int status = build_in_child(movies, index, message, sizeof message, &max_rss_kb);
    alarm(0);
    CHECK_EQ_INT(status, CINEMATIC_ERR_IO);
    CHECK_STR_CONTAINS(message, "inflates to more than 256 MiB");
    CHECK_MSG(max_rss_kb < 64 * 1024, "the build of a 270 KB gzip bomb peaked at %ld KiB", max_rss_kb);
    CHECK(access(index, F_OK) != 0);
    /* Within the bound, a gzip file of several members (like `cat a.gz b.gz`) is read whole:
     * here a line starts in one member and ends in the next. */
    FILE *f = fopen(movies, "wb");
    write_gzip_member(f, HEADER "1\tFine\t1999\t100\t\t7.5\t10\t4.5\t4.5");
    write_gzip_member(f, "\t4.5\t4.5\t14.5\t14.5\t14.5\t14.5\t14.5\t14.5\tPG\tDrama\n");
    fclose(f);
    CHECK_STATUS(cinematic_catalog_build_index(movies, index), CINEMATIC_OK);
    unlink(movies);
    unlink(index);
}

/* A title of `bytes` bytes: words "w00000 w00001 ..." (distinct: the worst case of a word-by-word check). */
static char *distinct_words(size_t bytes) {
    char *title = malloc(bytes + 8);
    size_t used = 0;
    for (unsigned n = 0; used + 7 <= bytes; n++) used += (size_t)sprintf(title + used, "w%05u ", n % 100000);
    while (used < bytes) title[used++] = 'x';
    title[bytes] = 0;
    return title;
}

static void test_titles_are_bounded_and_a_long_one_is_refused_naming_its_line(void) {
    char *at_bound = distinct_words(1024);
    CHECK_STATUS(build_with(1, at_bound), CINEMATIC_OK);
    free(at_bound);
    char *one_more = distinct_words(1025);
    CHECK_STATUS(build_with(1, one_more), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("line 3: the title is 1025 characters long; at most 1024 characters and 4096 UTF-8 bytes");
    free(one_more);
    /* 1000 characters of 5 bytes each ("e" and two combining acutes). */
    char *wide = malloc(5001);
    for (int i = 0; i < 1000; i++) memcpy(wide + 5 * i, "e\xcc\x81\xcc\x81", 5);
    wide[5000] = 0;
    CHECK_STATUS(build_with(1, wide), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("line 3: the title is 5000 UTF-8 bytes long");
    free(wide);
    /* 1 MiB of distinct words: the former per-word check would take tens of minutes. */
    char *huge = distinct_words(1 << 20);
    CHECK_STATUS(build_with(1, huge), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("line 3: the title is 1048576 UTF-8 bytes long");
    free(huge);
    CHECK_STATUS(build_with(1, "caf\xe9"), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("line 3: the title is not valid UTF-8");
}

static void test_every_number_is_finite_and_in_range_naming_line_and_column(void) {
    static const char *not_finite[] = {"nan", "NaN", "inf", "-inf", "infinity", "1e999", "-1e999"};
    for (int column = 0; column < 17; column++) {
        if (column == 1) continue;   /* the title */
        for (size_t i = 0; i < sizeof not_finite / sizeof *not_finite; i++) {
            CHECK_STATUS(build_with(column, not_finite[i]), CINEMATIC_ERR_IO);
            char expected[64];
            snprintf(expected, sizeof expected, "line 3: %s \\\"%s\\\"", columns[column], not_finite[i]);
            CHECK_ENVELOPE_CONTAINS(expected);
        }
    }
    /* Out of range (the envelope is JSON: the value's quotes are escaped). */
    static const struct { int column; const char *value, *message; } ranges[] = {
        {0, "-1", "line 3: id \\\"-1\\\" is not an integer in 0...4294967295"},
        {0, "4294967296", "line 3: id"},
        {2, "10000", "line 3: year \\\"10000\\\""},
        {3, "65536", "line 3: length \\\"65536\\\""},
        {4, "-5", "line 3: budget \\\"-5\\\" is not an integer in 0...9223372036854775807"},
        {5, "10.5", "line 3: rating \\\"10.5\\\" is not a number in 0...10"},
        {5, "-0.5", "line 3: rating \\\"-0.5\\\" is not a number in 0...10"},
        {6, "4294967296", "line 3: votes \\\"4294967296\\\" is not an integer in 0...4294967295"},
        {7, "100.5", "line 3: r1 \\\"100.5\\\" is not a number in 0...100"},
        {16, "-1", "line 3: r10 \\\"-1\\\" is not a number in 0...100"},
        {12, "", "line 3: r6 \\\"\\\" is not a number in 0...100"},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++) {
        CHECK_STATUS(build_with(ranges[i].column, ranges[i].value), CINEMATIC_ERR_IO);
        CHECK_ENVELOPE_CONTAINS(ranges[i].message);
    }
    CHECK_STATUS(build_with(5, "10"), CINEMATIC_OK);
    CHECK_STATUS(build_with(4, "NA"), CINEMATIC_OK);
    CHECK_STATUS(build_with(16, "100"), CINEMATIC_OK);
}

static void test_text_fields_are_bounded(void) {
    char mpaa[40] = {0}, name[70] = {0}, genres[200] = {0};
    memset(mpaa, 'R', 33);
    CHECK_STATUS(build_with(17, mpaa), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("line 3: mpaa is 33 bytes long; at most 32");
    memset(name, 'g', 65);
    CHECK_STATUS(build_with(18, name), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("line 3: a genre is 65 bytes long; at most 64");
    for (int i = 0; i < 33; i++) strcat(genres, i ? ",G" : "G");
    CHECK_STATUS(build_with(18, genres), CINEMATIC_ERR_IO);
    CHECK_ENVELOPE_CONTAINS("line 3: 33 genres; at most 32");
    genres[strlen(genres) - 2] = 0;
    CHECK_STATUS(build_with(18, genres), CINEMATIC_OK);
}

int main(void) {
    signal(SIGALRM, on_alarm);
    make_tempdir(dir, sizeof dir);
    RUN_TEST(test_a_gzip_bomb_is_refused_past_256_mib_without_its_memory);
    RUN_TEST(test_a_fifo_a_device_or_a_directory_is_a_status_at_once);
    RUN_TEST(test_a_movie_file_past_256_mib_is_refused_before_it_is_read);
    RUN_TEST(test_titles_are_bounded_and_a_long_one_is_refused_naming_its_line);
    RUN_TEST(test_every_number_is_finite_and_in_range_naming_line_and_column);
    RUN_TEST(test_text_fields_are_bounded);
    remove_tempdir(dir);
    return TEST_SUMMARY();
}
