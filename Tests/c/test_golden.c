/*
 * The golden files every suite reads (schema/golden/, written once): each host intent with
 * the status it must get, and each feature's initial state, byte for byte. The Python and
 * Kotlin suites read the same files. Each recorded release's golden intents (release/<v>/golden/)
 * must still get the statuses that release documented (`make wire-check` compares the files).
 */
#include "harness.h"
#include <jansson.h>

#define GOLDEN_INTENTS "schema/golden/intents.jsonl"
#define GOLDEN_STATES "schema/golden/initial-states.json"

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
        /* A refusal names the member it is about: the envelope's path is the line's. */
        char expected_path[128], got_path[128] = "(none)";
        if (json_get(line, "path", expected_path, sizeof expected_path)) {
            const char *envelope = cinematic_last_error();
            if (envelope) json_get(envelope, "path", got_path, sizeof got_path);
            CHECK_MSG(rc != CINEMATIC_OK && strcmp(got_path, expected_path) == 0, "%s: %s %s: refused at %s, expected at %s",
                      path, feature, intent, got_path, expected_path);
        }
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

/* A host built for a recorded release sends that release's golden intents: each still gets
 * the status the release documented (every release recorded in release/, with its count of
 * lines, so a file cut short fails too). */
static void test_the_releases_golden_intents_get_their_status(void) {
    static const struct { const char *path; int lines; } released[] = {
        {"release/0.2.0/golden/intents.jsonl", 33},
        {"release/0.3.0/golden/intents.jsonl", 58},
    };
    for (size_t i = 0; i < sizeof released / sizeof *released; i++) {
        char seen[seen_size] = ",";
        int sent = send_golden_intents(released[i].path, seen);
        CHECK_MSG(sent == released[i].lines, "%s: %d golden intents sent, expected %d", released[i].path, sent, released[i].lines);
    }
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

/* Sends `intent` with the integer at `path` (a JSONPath, its json_t `slot`) written as
 * `literal`: a well-formed document, but not a valid intent. */
static int out_of_range_checked(cinematic_store *store, json_t *intent, json_t *slot, const char *path, const char *literal) {
    json_int_t kept = json_integer_value(slot);
    json_integer_set(slot, 7777777777777); /* a marker, replaced in the text */
    char *text = json_dumps(intent, JSON_COMPACT), *mark = strstr(text, "7777777777777");
    char sent[1200];
    snprintf(sent, sizeof sent, "%.*s%s%s", (int)(mark - text), text, literal, mark + 13);
    json_integer_set(slot, kept);
    free(text);
    int rc = cinematic_store_send(store, sent);
    const char *error = cinematic_last_error();
    char where[128] = "";
    json_get(error ? error : "{}", "path", where, sizeof where);
    return CHECK_MSG(rc == CINEMATIC_ERR_INVALID && strcmp(where, path) == 0, "%s: got %s at \"%s\", expected invalid at %s (%s)", sent,
                     cinematic_status_name(rc), where, path, error ? error : "");
}

/* Every integer member of every golden intent (nested ones too) that does not fit 64 bits is
 * `invalid` with its path, as the header says of a well-formed document that is not a valid
 * intent: never `json`. */
static int integers_out_of_range(cinematic_store *store, json_t *intent, json_t *value, const char *path) {
    int checked = 0;
    const char *key;
    json_t *member;
    if (json_is_integer(value)) {
        out_of_range_checked(store, intent, value, path, "9223372036854775808");
        out_of_range_checked(store, intent, value, path, "-9223372036854775809");
        return 1;
    }
    json_object_foreach(value, key, member) {
        char inner[128];
        snprintf(inner, sizeof inner, "%s.%s", path, key);
        checked += integers_out_of_range(store, intent, member, inner);
    }
    return checked;
}

static void test_every_integer_member_out_of_range_is_invalid(void) {
    char *text = read_text(GOLDEN_INTENTS);
    if (!text) return;
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\",\"catalog\":\"host\"}");
    int members = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        json_t *golden = json_loads(line, 0, NULL), *intent = json_object_get(golden, "intent");
        const char *feature = json_string_value(json_object_get(golden, "feature"));
        if (strcmp(json_string_value(json_object_get(golden, "status")), "ok") == 0) {
            cinematic_store *store = open_feature(rt, feature, args_for(feature));
            members += integers_out_of_range(store, intent, intent, "$");
            CHECK_STATUS(cinematic_store_close(store), CINEMATIC_OK);
        }
        json_decref(golden);
    }
    CHECK_MSG(members >= 6, "only %d integer members in the golden intents", members);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    free(text);
}

int main(void) {
    RUN_TEST(test_every_integer_member_out_of_range_is_invalid);
    RUN_TEST(test_golden_intents_get_their_status);
    RUN_TEST(test_the_releases_golden_intents_get_their_status);
    RUN_TEST(test_golden_initial_states);
    return TEST_SUMMARY();
}
