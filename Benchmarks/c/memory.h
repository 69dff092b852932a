/*
 * A benchmark host's memory, read from /proc (catalog-host and fts5-host print the same keys).
 *
 * Resident memory (VmRSS) counts pages of files a process maps as well as what it allocates:
 * on kernels that cache a file in large folios (Linux 6.x), touching one page of a library's
 * code maps its whole folio (up to 2 MiB), so a library's RSS says as much about the page
 * cache as about the library (a file just written, as `make lib` writes the library, sits in
 * large folios; read back from disk, in small ones: 2.7 MiB apart for the same host, so
 * `cinematic-bench catalog` drops the library from the page cache before it weighs hosts).
 * print_memory() splits it: anon_kib is what the process
 * allocated (heap, stacks, written pages: its own), file_kib the mapped files' pages
 * (code, read-only data: shared with every process mapping the same file).
 */
#ifndef CINEMATIC_BENCH_MEMORY_H
#define CINEMATIC_BENCH_MEMORY_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value in KiB of `key` ("VmRSS:", "Anonymous:", ...) in the /proc file `path`; -1 when absent. */
static long proc_kib(const char *path, const char *key) {
    FILE *f = fopen(path, "r");
    char line[256];
    long value = -1;
    size_t length = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, length) == 0) value = strtol(line + length, NULL, 10);
    if (f) fclose(f);
    return value;
}

/* The process's resident memory in KiB (VmRSS). */
static long rss_kib(void) { return proc_kib("/proc/self/status", "VmRSS:"); }

/* Prints <prefix>rss_kib, <prefix>anon_kib and <prefix>file_kib, one "key value" line each. */
static void print_memory_as(const char *prefix) {
    long rss = proc_kib("/proc/self/smaps_rollup", "Rss:");
    long anon = proc_kib("/proc/self/smaps_rollup", "Anonymous:");
    printf("%srss_kib %ld\n%sanon_kib %ld\n%sfile_kib %ld\n", prefix, rss_kib(), prefix, anon, prefix,
           rss >= 0 && anon >= 0 ? rss - anon : -1);
}

/* Prints rss_kib, anon_kib and file_kib, one "key value" line each. */
static void print_memory(void) { print_memory_as(""); }
#endif
