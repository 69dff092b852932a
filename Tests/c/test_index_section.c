/*
 * A catalog index's search section is hostile until proven ours (docs/catalog-index.md, "The
 * search section"), through the C API:
 *   - A crafted section (NaN or infinity in its ratings, an unsorted vocabulary) is refused
 *     when the runtime loads it, naming the field.
 *   - An index truncated anywhere (its trailer, its section, its table, its database), or with
 *     its section's frame damaged (a part placed or sized past the section, misaligned, a
 *     trailer pointing past the file, a wrong section length), is refused with a status;
 *     never a trap.
 */
#include "index_files.h"
#include <math.h>

static void test_a_crafted_index_is_refused_naming_the_field(void) {
    char index[300];
    double value = NAN;
    crafted_part("nan.idx", PART_RATINGS, 2 * 8, &value, sizeof value, index, sizeof index);
    check_refused(index, "ratings");
    value = INFINITY;
    crafted_part("inf.idx", PART_RATINGS, 2 * 8, &value, sizeof value, index, sizeof index);
    check_refused(index, "ratings");
    /* The vocabulary, sorted at build (one byte a scalar: the words are ASCII), with its first
     * word's first letters made the last. */
    uint32_t last = 0xFFFFFFFF;
    crafted_part("unsorted.idx", PART_SCALARS, 0, &last, sizeof last, index, sizeof index);
    check_refused(index, "words");
}

static void test_a_truncated_index_or_a_damaged_section_frame_is_refused(void) {
    char index[300], cut[300];
    build_index("whole.idx", index, sizeof index);
    long length = 0;
    unsigned char *bytes = read_whole(index, &length);
    if (!bytes) return;
    long section = section_of(bytes, length);
    path_in(cut, sizeof cut, "cut.idx");
    /* Cut inside the trailer, the section, its table, and the database. */
    long ends[] = {length - 1, length - 17, section + 200, section + 8, section, section / 2};
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        write_whole(cut, bytes, ends[i]);
        cinematic_runtime *rt = NULL;
        int status = open_catalog(cut, &rt);
        if (status == CINEMATIC_OK) {
            char *state = loaded_catalog_state(rt);
            if (state) CHECK_STR_CONTAINS(state, "\"failed\"");
            cinematic_free(state);
            CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
        } else {
            CHECK_STATUS(status, CINEMATIC_ERR_IO);
        }
    }
    /* A part placed past the section's end, a length past it, a trailer pointing past the file. */
    const struct { long at; uint64_t value; const char *field; } frames[] = {
        {section + SECTION_HEADER + 16 * PART_RATINGS, 1u << 30, "ratings"},
        {section + SECTION_HEADER + 16 * PART_RATINGS + 8, 1u << 30, "ratings"},
        {section + SECTION_HEADER + 16 * PART_RATINGS, 3, "ratings"},
        {length - 16, (uint64_t)length, "search section"},
        {section + 24, 12345, "search section"},
    };
    for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++) {
        unsigned char *copy = malloc((size_t)length);
        memcpy(copy, bytes, (size_t)length);
        memcpy(copy + frames[i].at, &frames[i].value, 8);
        write_whole(cut, copy, length);
        free(copy);
        check_refused(cut, frames[i].field);
    }
    free(bytes);
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/cinematic-index-section-XXXXXX");
    if (!mkdtemp(dir)) return 2;
    RUN_TEST(test_a_crafted_index_is_refused_naming_the_field);
    RUN_TEST(test_a_truncated_index_or_a_damaged_section_frame_is_refused);
    char command[128];
    snprintf(command, sizeof command, "rm -rf %s", dir);
    if (system(command) != 0) return 2;
    return TEST_SUMMARY();
}
