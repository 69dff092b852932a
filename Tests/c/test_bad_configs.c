/*
 * Bad runtime configs and bad store arguments get a status and an envelope naming the path,
 * never a crash: cinematic_runtime_open and cinematic_store_open with what they refuse.
 */
#include "bad_input.h"

static void test_bad_configs(void) {
    static const struct { const char *config, *path; } invalid[] = {
        {"{\"clok\":\"manual\"}", "$.clok"},
        {"{\"clock\":\"fast\"}", "$.clock"},
        {"{\"clock\":1}", "$.clock"},
        {"{\"clock\":null}", "$.clock"},
        {"{\"delivery\":\"later\"}", "$.delivery"},
        {"{\"delivery\":true}", "$.delivery"},
        {"{\"catalog\":\"remote\"}", "$.catalog"},
        {"{\"catalog\":\"Host\"}", "$.catalog"},
        {"{\"catalog\":5}", "$.catalog"},
        {"{\"catalog\":{}}", "$.catalog.path"},
        {"{\"catalog\":{\"path\":\"\"}}", "$.catalog.path"},
        {"{\"catalog\":{\"path\":7}}", "$.catalog.path"},
        {"{\"catalog\":{\"path\":\"/tmp/x.sqlite\",\"mode\":\"ro\"}}", "$.catalog.mode"},
        {"{\"favorites\":\"\"}", "$.favorites"},
        {"{\"favorites\":3}", "$.favorites"},
        {"{\"search\":{\"debounceMs\":-1}}", "$.search.debounceMs"},
        {"{\"search\":{\"debounceMs\":60001}}", "$.search.debounceMs"},
        {"{\"search\":{\"debounceMs\":\"250\"}}", "$.search.debounceMs"},
        {"{\"search\":{\"debounceMs\":2.5}}", "$.search.debounceMs"},
        {"{\"search\":{\"debounceMs\":null}}", "$.search.debounceMs"},
        {"{\"search\":{\"debounce\":100}}", "$.search.debounce"},
        {"{\"search\":[]}", "$.search"},
        {"{\"search\":250}", "$.search"},
        {"{\"clock\":\"manual\",\"catalog\":\"host\",\"extra\":{}}", "$.extra"},
        {"[]", "$"},
        {"[{\"catalog\":\"host\"}]", "$"},
    };
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        cinematic_runtime *rt = (cinematic_runtime *)&invalid; /* a sentinel: must become NULL */
        CHECK_STATUS(cinematic_runtime_open(invalid[i].config, &rt), CINEMATIC_ERR_INVALID);
        CHECK(rt == NULL);
        char path[64];
        CHECK_MSG(json_get(h_envelope, "path", path, sizeof path) && strcmp(path, invalid[i].path) == 0,
                  "%s: path %s, expected %s (%s)", invalid[i].config, path, invalid[i].path, h_envelope);
    }
    const char *malformed[] = {"", "{", "{\"clock\":\"manual\",\"clock\":\"system\"}", "{\"clock\":\"\xff\"}",
                               "{\"clock\":\"manual\"} {}"};
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
        cinematic_runtime *rt = (cinematic_runtime *)&invalid;
        CHECK_STATUS(cinematic_runtime_open(malformed[i], &rt), CINEMATIC_ERR_JSON);
        CHECK(rt == NULL);
        CHECK_ENVELOPE_CONTAINS("\"line\":");
    }
    /* The boundaries that are valid. */
    const char *valid[] = {
        "{}",
        "{\"catalog\":\"host\",\"search\":{\"debounceMs\":0}}",
        "{\"catalog\":\"host\",\"search\":{\"debounceMs\":60000}}",
        "{\"catalog\":\"host\",\"search\":{}}",
        "{\"catalog\":\"host\",\"clock\":\"system\",\"delivery\":\"immediate\",\"favorites\":\":memory:\"}",
        "{\"catalog\":\"host\",\"clock\":\"manual\",\"delivery\":\"queued\"}",
    };
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
        cinematic_runtime *rt = NULL;
        CHECK_STATUS(cinematic_runtime_open(valid[i], &rt), CINEMATIC_OK);
        CHECK(rt != NULL);
        if (rt) CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
    }
    /* A catalog that cannot be built is an I/O error. */
    cinematic_runtime *rt = (cinematic_runtime *)&invalid;
    CHECK_STATUS(cinematic_runtime_open("{\"catalog\":{\"path\":\"/proc/no-such-dir/catalog.sqlite\"}}", &rt),
                 CINEMATIC_ERR_IO);
    CHECK(rt == NULL);
    /* NULL out. */
    CHECK_STATUS(cinematic_runtime_open("{\"catalog\":\"host\"}", NULL), CINEMATIC_ERR_MISUSE);
    CHECK_STATUS(cinematic_runtime_open(NULL, NULL), CINEMATIC_ERR_MISUSE);
}

static void test_store_open_errors(void) {
    cinematic_runtime *rt = open_runtime(HOST_CONFIG);
    cinematic_store *store = (cinematic_store *)&store;
    CHECK_STATUS(cinematic_store_open(rt, "nosuchfeature", NULL, &store), CINEMATIC_ERR_UNKNOWN_FEATURE);
    CHECK(store == NULL);
    CHECK_ENVELOPE_CONTAINS("nosuchfeature");
    CHECK_ENVELOPE_CONTAINS("search"); /* names what exists */
    const char *unknown[] = {"", "Search", "SEARCH", "search ", "searc", "search\xff"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        store = (cinematic_store *)&store;
        CHECK_STATUS(cinematic_store_open(rt, unknown[i], NULL, &store), CINEMATIC_ERR_UNKNOWN_FEATURE);
        CHECK(store == NULL);
    }
    store = (cinematic_store *)&store;
    CHECK_STATUS(cinematic_store_open(rt, NULL, NULL, &store), CINEMATIC_ERR_MISUSE);
    CHECK(store == NULL);
    CHECK_STATUS(cinematic_store_open(rt, "search", NULL, NULL), CINEMATIC_ERR_MISUSE);
    /* Arguments: NULL or {} only. */
    static const struct { const char *args; int status; const char *path; } args[] = {
        {"{\"x\":1}", CINEMATIC_ERR_INVALID, "$.x"},
        {"{\"query\":\"dune\"}", CINEMATIC_ERR_INVALID, "$.query"},
        {"[]", CINEMATIC_ERR_INVALID, "$"},
        {"nope", CINEMATIC_ERR_JSON, NULL},
        {"", CINEMATIC_ERR_JSON, NULL},
        {"{\"a\":1,\"a\":2}", CINEMATIC_ERR_JSON, NULL},
    };
    for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
        store = (cinematic_store *)&store;
        CHECK_STATUS(cinematic_store_open(rt, "search", args[i].args, &store), args[i].status);
        CHECK(store == NULL);
        if (args[i].path) {
            char path[64];
            CHECK_MSG(json_get(h_envelope, "path", path, sizeof path) && strcmp(path, args[i].path) == 0,
                      "%s: path %s, expected %s", args[i].args, path, args[i].path);
        }
    }
    /* The runtime still opens stores. */
    store = NULL;
    CHECK_STATUS(cinematic_store_open(rt, "search", "{}", &store), CINEMATIC_OK);
    CHECK(store != NULL);
    CHECK_STORE_WORKS(store);
    cinematic_store *second = NULL;
    CHECK_STATUS(cinematic_store_open(rt, "search", " { } ", &second), CINEMATIC_OK);
    CHECK(second != NULL && second != store);
    CHECK_STORE_WORKS(second);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

int main(void) {
    RUN_TEST(test_bad_configs);
    RUN_TEST(test_store_open_errors);
    return TEST_SUMMARY();
}
