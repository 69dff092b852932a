/*
 * Search says what the catalog is (issue 33): a query that looks like a person's name or names
 * a genre the catalog lacks carries a typed hint in the state (`hint`: kind and text), the
 * title matches still listed; an ordinary title has none. Through the C ABI, embedded catalog.
 */
#include "harness.h"

/* Searches query at once and waits for its results. */
static char *searched(cinematic_store *search, const char *query) {
    CHECK_STATUS(send_query(search, query), CINEMATIC_OK);
    CHECK_STATUS(send_submitted(search), CINEMATIC_OK);
    CHECK_STATUS(cinematic_store_settle(search, 20000), CINEMATIC_OK);
    char *state = state_of(search);
    CHECK_JSON_EQ(state, "results.phase", "loaded");
    CHECK_JSON_EQ(state, "results.query", query);
    return state;
}

static void test_a_person_is_no_title(void) {
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\"}");
    cinematic_store *search = open_search(rt);
    char *state = searched(search, "tom hanks");
    CHECK_JSON_EQ(state, "hint.kind", "person");
    CHECK_STR_CONTAINS(state, "\"text\":\"\xe2\x80\x9cTom Hanks\xe2\x80\x9d looks like a person: the catalog knows films by title");
    cinematic_free(state);
    /* A title of two words starting with a given name is a title. */
    state = searched(search, "annie hall");
    CHECK_JSON_EQ(state, "results.value[0].title", "Annie Hall");
    CHECK_JSON_EQ(state, "hint", "null");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

static void test_a_genre_the_catalog_lacks(void) {
    cinematic_runtime *rt = open_runtime("{\"clock\":\"manual\"}");
    cinematic_store *search = open_search(rt);
    char *state = searched(search, "80s horror");
    CHECK_JSON_EQ(state, "hint.kind", "genre");
    CHECK_STR_CONTAINS(state, "The catalog has no horror genre: its genres are Action, Animation, Comedy, Drama, "
                              "Documentary, Romance and Short.");
    CHECK(json_array_len(state, "results.value") >= 1); /* titles holding "horror", from the 1980s */
    cinematic_free(state);
    /* A genre the catalog has lists its films, with no hint. */
    state = searched(search, "90s comedy");
    CHECK_JSON_EQ(state, "hint", "null");
    CHECK_JSON_EQ(state, "results.value[0].title", "Forrest Gump");
    cinematic_free(state);
    CHECK_STATUS(cinematic_runtime_close(rt), CINEMATIC_OK);
}

int main(void) {
    RUN_TEST(test_a_person_is_no_title);
    RUN_TEST(test_a_genre_the_catalog_lacks);
    return TEST_SUMMARY();
}
