/*
 * fts5-host: the same films in a prebuilt SQLite FTS5 table, the baseline `make bench` puts
 * beside catalog-host (Benchmarks/cinematic-bench, CatalogCost.swift). Two modes:
 *
 *   fts5-host build MOVIES.TSV[.GZ] DB one FTS5 table (title; year, votes unindexed) of every
 *                                      film, in one transaction; prints build_us and
 *                                      peak_rss_kib (ru_maxrss). Also what `cinematic-bench
 *                                      build` times our index builder against.
 *   fts5-host DB QUERY                 from sqlite3_open_v2 to the first row of the query's
 *                                      words as prefixes, best rank first; prints
 *                                      first_result_us, first_title and the process's memory
 *                                      then, as catalog-host does (memory.h)
 *
 * The query is the same work our search does for a typed query: every word a prefix
 * ("dun" finds Dune), ranked; each word is quoted, so user text is never FTS5 syntax.
 */
#define _POSIX_C_SOURCE 200809L
#include "memory.h"
#include "spawn_clock.h"
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <zlib.h>

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void check(sqlite3 *db, int status, const char *what) {
    if (status == SQLITE_OK || status == SQLITE_DONE || status == SQLITE_ROW) return;
    fprintf(stderr, "fts5-host: %s: %s\n", what, db ? sqlite3_errmsg(db) : sqlite3_errstr(status));
    exit(1);
}

/* Cuts `line` in place at its tabs and line ending: up to `most` fields into `fields`;
   returns how many there are. */
static int split(char *line, char **fields, int most) {
    int count = 0;
    line[strcspn(line, "\r\n")] = 0;
    for (char *start = line; start && count < most; count++) {
        fields[count] = start;
        start = strchr(start, '\t');
        if (start) *start++ = 0;
    }
    return count;
}

static int build(const char *movies, const char *path) {
    double started = now_us();
    remove(path);
    sqlite3 *db = NULL;
    check(db, sqlite3_open(path, &db), "opening the database");
    check(db, sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN; CREATE VIRTUAL TABLE films USING "
                               "fts5(title, year UNINDEXED, votes UNINDEXED)", NULL, NULL, NULL), "creating the table");
    sqlite3_stmt *insert = NULL;
    check(db, sqlite3_prepare_v2(db, "INSERT INTO films VALUES (?, ?, ?)", -1, &insert, NULL), "preparing");
    gzFile in = gzopen(movies, "rb");   /* reads a plain file as it is */
    if (!in) { fprintf(stderr, "fts5-host: cannot read %s\n", movies); return 1; }
    static char line[1 << 16];
    char *fields[7];
    long films = 0;
    for (int header = 1; gzgets(in, line, sizeof line); header = 0) {
        if (header || split(line, fields, 7) < 7) continue;   /* id, title, year, ..., votes */
        sqlite3_bind_text(insert, 1, fields[1], -1, SQLITE_STATIC);
        sqlite3_bind_int(insert, 2, atoi(fields[2]));
        sqlite3_bind_int(insert, 3, atoi(fields[6]));
        check(db, sqlite3_step(insert), "inserting");
        sqlite3_reset(insert);
        films++;
    }
    gzclose(in);
    sqlite3_finalize(insert);
    check(db, sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), "committing");
    check(db, sqlite3_close(db), "closing");
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    printf("films %ld\nbuild_us %.0f\npeak_rss_kib %ld\n", films, now_us() - started, usage.ru_maxrss);
    return 0;
}

/* `query` as FTS5 text: each word quoted (a quote doubled) and made a prefix. */
static void match_text(const char *query, char *out, size_t size) {
    size_t used = 0;
    out[0] = 0;
    for (const char *p = query; *p && used + 8 < size;) {
        while (*p == ' ') p++;
        if (!*p) break;
        out[used++] = '"';
        for (; *p && *p != ' ' && used + 6 < size; p++) {
            if (*p == '"') out[used++] = '"';
            out[used++] = *p;
        }
        used += (size_t)snprintf(out + used, size - used, "\"* ");
    }
    out[used] = 0;
}

static int query(const char *path, const char *text) {
    double started = now_us();
    sqlite3 *db = NULL;
    check(db, sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), "opening the database");
    sqlite3_stmt *select = NULL;
    check(db, sqlite3_prepare_v2(db, "SELECT title, year FROM films WHERE films MATCH ? ORDER BY rank LIMIT 20",
                                 -1, &select, NULL), "preparing");
    char match[2048];
    match_text(text, match, sizeof match);
    sqlite3_bind_text(select, 1, match, -1, SQLITE_STATIC);
    int status = sqlite3_step(select);
    check(db, status, "searching");
    char first[200] = "none";
    if (status == SQLITE_ROW) snprintf(first, sizeof first, "%s", (const char *)sqlite3_column_text(select, 0));
    double took = now_us() - started;
    printf("first_result_us %.0f\nfirst_title %s\n", took, first);
    print_since_spawn();
    print_memory();
    sqlite3_finalize(select);
    sqlite3_close(db);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "build") == 0) return build(argv[2], argv[3]);
    if (argc == 3) return query(argv[1], argv[2]);
    fprintf(stderr, "usage: %s build MOVIES.TSV.GZ DB | %s DB QUERY\n", argv[0], argv[0]);
    return 2;
}
