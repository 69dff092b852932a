/*
 * The golden files every suite reads (schema/golden/, written once): each host intent with
 * the status it must get, and each feature's initial state, byte for byte. The Python and
 * Kotlin suites read the same files. The last release's golden intents (release/0.2.0/golden/)
 * must still get the statuses that release documented (`make wire-check` compares the files).
 */
#include "harness.h"

#define GOLDEN_INTENTS "schema/golden/intents.jsonl"
#define GOLDEN_STATES "schema/golden/initial-states.json"
#define RELEASED_INTENTS "release/0.2.0/golden/intents.jsonl"

/* The features and their sample arguments, from the header's generated block: a feature added
 * to the schema is checked here without a change to this file. */
static const char *const feature_names[] = CINEMATIC_FEATURE_NAMES;
static const char *const feature_args[] = CINEMATIC_FEATURE_SAMPLE_ARGUMENTS;
enum { feature_count = CINEMATIC_FEATURE_COUNT };
_Static_assert(sizeof feature_names / sizeof *feature_names == CINEMATIC_FEATURE_COUNT, "CINEMATIC_FEATURE_COUNT");
_Static_assert(sizeof feature_args / sizeof *feature_args == CINEMATIC_FEATURE_COUNT, "CINEMATIC_FEATURE_SAMPLE_ARGUMENTS");

static char *read_text(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!CHECK_MSG(file != NULL, "cannot open %s (run from the repository root)", path)) return NULL;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *text = calloc(1, (size_t)size + 1);
    if (fread(text, 1, (size_t)size, file) != (size_t)size) size = 0;
    fclose(file);
    return text;
}

/* The sample arguments of `feature`; every golden line must name a feature of the list. */
static const char *args_for(const char *feature) {
    for (int i = 0; i < feature_count; i++)
        if (strcmp(feature, feature_names[i]) == 0) return feature_args[i];
    CHECK_MSG(0, "the golden files name \"%s\", which is not in CINEMATIC_FEATURE_NAMES", feature);
    return NULL;
}

/* Sends each line of the golden intents file `path` to a fresh store of its feature; returns
 * the number of lines and lists the features seen in `seen` (",search,discover,", seen_size
 * bytes). */
enum { seen_size = 4096 };
static int send_golden_intents(const char *path, char *seen) {
    char *text = read_text(path);
    if (!text) return 0;
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\",\"catalog\":\"host\"}");
    int lines = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char feature[32], status[32], intent[1024];
        const char *start, *end;
        CHECK(json_get(line, "feature", feature, sizeof feature));
        CHECK(json_get(line, "status", status, sizeof status));
        if (!CHECK(json_find(line, "intent", &start, &end) && (size_t)(end - start) < sizeof intent)) continue;
        snprintf(intent, sizeof intent, "%.*s", (int)(end - start), start);
        cinematic_store *store = open_feature(rt, feature, args_for(feature));
        char needle[64];
        snprintf(needle, sizeof needle, ",%s,", feature);
        if (!strstr(seen, needle) && strlen(seen) + strlen(feature) + 2 < seen_size) { strcat(seen, feature); strcat(seen, ","); }
        int rc = cinematic_store_send(store, intent);
        CHECK_MSG(strcmp(cinematic_status_name(rc), status) == 0, "%s: %s %s: got %s, expected %s (%s)", path, feature, intent,
                  cinematic_status_name(rc), status, cinematic_last_error() ? cinematic_last_error() : "");
        CHECK_STATUS(cinematic_store_close(store), CINEMATIC_OK);
        lines++;
    }
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    free(text);
    return lines;
}

static void test_golden_intents_get_their_status(void) {
    char seen[seen_size] = ",";
    CHECK(send_golden_intents(GOLDEN_INTENTS, seen) >= 30);
    for (int i = 0; i < feature_count; i++) {
        char needle[64];
        snprintf(needle, sizeof needle, ",%s,", feature_names[i]);
        CHECK_MSG(strstr(seen, needle) != NULL, "the golden intents have no line for feature \"%s\"", feature_names[i]);
    }
}

/* A host built for 0.2.0 sends 0.2.0's intents: each still gets the status 0.2.0 documented. */
static void test_the_last_releases_golden_intents_get_their_status(void) {
    char seen[seen_size] = ",";
    CHECK(send_golden_intents(RELEASED_INTENTS, seen) == 33);
}

static void test_golden_initial_states(void) {
    char *golden = read_text(GOLDEN_STATES);
    if (!golden) return;
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\",\"catalog\":\"host\"}");
    const char *const *features = feature_names;
    for (int i = 0; i < feature_count; i++) {
        const char *start, *end;
        if (!CHECK_MSG(json_find(golden, features[i], &start, &end), "no golden state for %s", features[i])) continue;
        cinematic_store *store = open_feature(rt, features[i], args_for(features[i]));
        char *state = state_of(store);
        CHECK_MSG(state && strlen(state) == (size_t)(end - start) && strncmp(state, start, (size_t)(end - start)) == 0,
                  "%s: initial state %s differs from the golden %.*s", features[i], state ? state : "NULL", (int)(end - start), start);
        cinematic_free(state);
    }
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    free(golden);
}

int main(void) {
    RUN_TEST(test_golden_intents_get_their_status);
    RUN_TEST(test_the_last_releases_golden_intents_get_their_status);
    RUN_TEST(test_golden_initial_states);
    return TEST_SUMMARY();
}
