/*
 * Scenario 3 of the runtime issue: a slow host callback stalls only its own runtime.
 *
 * More runtimes than this machine has cores each get a search result whose state callback
 * blocks (on a gate this program opens only at the end). Their callbacks run on library
 * threads, because effects produced those states. A further, unrelated runtime must still
 * complete a debounced search while all of them are blocked. In 0.1.0 effects and their
 * deliveries shared Swift's cooperative pool (one thread per core), so the blocked callbacks
 * starved every other runtime and its search never finished (here: settle times out).
 */
#include "stress.h"

static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_changed = PTHREAD_COND_INITIALIZER;
static int gate_open;
static int blocked;

static void blocking_callback(void *userdata, cinematic_store *store, const char *state_json) {
    (void)userdata;
    (void)store;
    if (!strstr(state_json, "\"phase\":\"loaded\"")) return;
    pthread_mutex_lock(&gate_lock);
    blocked++;
    pthread_cond_broadcast(&gate_changed);
    struct timespec limit = h_deadline(60000);
    while (!gate_open && pthread_cond_timedwait(&gate_changed, &gate_lock, &limit) == 0) {}
    pthread_mutex_unlock(&gate_lock);
}

static int wait_blocked(int n, int timeout_ms) {
    struct timespec limit = h_deadline(timeout_ms);
    pthread_mutex_lock(&gate_lock);
    while (blocked < n && pthread_cond_timedwait(&gate_changed, &gate_lock, &limit) == 0) {}
    int reached = blocked >= n;
    pthread_mutex_unlock(&gate_lock);
    return reached;
}

static void test_blocked_callbacks_do_not_stall_other_runtimes(void) {
    int slow = (int)sysconf(_SC_NPROCESSORS_ONLN) + 1;
    if (slow > 12) slow = 12;
    cinematic_runtime *runtimes[12];
    const char *config = "{\"search\":{\"debounceMs\":0}}";
    for (int i = 0; i < slow; i++) {
        runtimes[i] = open_runtime(config);
        cinematic_store *store = open_search(runtimes[i]);
        CHECK_STATUS(cinematic_store_observe(store, blocking_callback, NULL), CINEMATIC_OK);
        CHECK_STATUS(send_query(store, "dune"), CINEMATIC_OK);
    }
    CHECK_MSG(wait_blocked(slow, 10000), "only %d of %d slow callbacks started", blocked, slow);

    const char *names[] = {"rounds of an unrelated runtime's debounced search"};
    stress_begin(1, names);
    cinematic_runtime *other = open_runtime("{\"search\":{\"debounceMs\":10}}");
    cinematic_store *search = open_search(other);
    const char *queries[] = {"alien", "star wars", "casablanca", "godfather"};
    long long worst = 0;
    do {
        long long started = h_now_ms();
        CHECK_STATUS(send_query(search, queries[stress_rounds(0) % 4]), CINEMATIC_OK);
        CHECK_STATUS(cinematic_store_settle(search, 4000), CINEMATIC_OK);
        char *state = state_of(search);
        CHECK_JSON_EQ(state, "results.phase", "loaded");
        cinematic_free(state);
        long long took = h_now_ms() - started;
        if (took > worst) worst = took;
        stress_tick(0);
    } while (stress_running());
    stress_finish(0);
    printf("     %d runtimes blocked in callbacks; another runtime made %ld debounced searches (slowest %lld ms)\n",
           slow, stress_rounds(0), worst);
    CHECK_STATUS(cinematic_runtime_close(other), CINEMATIC_OK);
    stress_end();

    pthread_mutex_lock(&gate_lock);
    gate_open = 1;
    pthread_cond_broadcast(&gate_changed);
    pthread_mutex_unlock(&gate_lock);
    for (int i = 0; i < slow; i++) CHECK_STATUS(cinematic_runtime_close(runtimes[i]), CINEMATIC_OK);
}

int main(void) {
    RUN_TEST(test_blocked_callbacks_do_not_stall_other_runtimes);
    return TEST_SUMMARY();
}
