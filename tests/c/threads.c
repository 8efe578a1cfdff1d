/* Threads through the C ABI, as an engine uses it: three query threads hammer a runtime's
 * terrain, region views, chunk views and stats while the main thread updates along a route
 * and polls events; then the runtime is destroyed while the terrain made from it is still
 * queried. Built by .ci/tsan under ThreadSanitizer (and by tests/c_abi.rs under ASan/UBSan):
 * any data race in relief's locks, loader threads or handles fails the run.
 *
 * usage: threads WORLD_DIR */
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "relief.h"

#define CHECK(call)                                                                    \
    do {                                                                               \
        relief_status s_ = (call);                                                     \
        if (s_ != RELIEF_STATUS_OK) {                                                  \
            fprintf(stderr, "%s:%d: %s -> %u: %s\n", __FILE__, __LINE__, #call, s_,    \
                    relief_last_error_message());                                      \
            return 1;                                                                  \
        }                                                                              \
    } while (0)

static relief_runtime *runtime;
static relief_terrain *terrain;
static atomic_int stop, runtime_gone, in_runtime, failures;
static atomic_long answered;

static void *query(void *arg) {
    double k = (double)(size_t)arg;
    while (!atomic_load(&stop)) {
        double x = -1800.0 + fmod(k * 7.3, 3600.0), z = -600.0 + fmod(k * 3.1, 1200.0);
        float h;
        relief_origin origin;
        relief_river river;
        k += 1.0;
        if (relief_terrain_height(terrain, x, z, &h, &origin) != RELIEF_STATUS_OK)
            atomic_fetch_add(&failures, 1);
        river.struct_size = sizeof river;
        if (relief_terrain_river(terrain, x, z, 200.0, &river) != RELIEF_STATUS_OK)
            atomic_fetch_add(&failures, 1);
        /* The runtime lives until `runtime_gone` is set and no thread is inside a call. */
        atomic_fetch_add(&in_runtime, 1);
        if (!atomic_load(&runtime_gone)) {
            relief_region *region;
            relief_chunk *chunk;
            relief_runtime_stats stats;
            if (relief_runtime_acquire_region(runtime, (int32_t)floor(x / 512.0),
                                              (int32_t)floor(z / 512.0), &region) ==
                RELIEF_STATUS_OK) {
                relief_region_view view;
                view.struct_size = sizeof view;
                if (relief_region_get_view(region, &view) == RELIEF_STATUS_OK) {
                    volatile float first = view.height[0];
                    (void)first;
                } else {
                    atomic_fetch_add(&failures, 1);
                }
                relief_region_release(region);
            }
            if (relief_runtime_acquire_chunk(runtime, 0, (int32_t)floor(x / 64.0),
                                             (int32_t)floor(z / 64.0), &chunk) == RELIEF_STATUS_OK)
                relief_chunk_release(chunk);
            stats.struct_size = sizeof stats;
            if (relief_runtime_get_stats(runtime, &stats) != RELIEF_STATUS_OK)
                atomic_fetch_add(&failures, 1);
        }
        atomic_fetch_sub(&in_runtime, 1);
        atomic_fetch_add(&answered, 1);
    }
    return NULL;
}

int main(int argc, char **argv) {
    relief_world *world = NULL;
    relief_runtime_config config;
    relief_event events[64];
    pthread_t threads[3];
    long seen;
    size_t t, n;
    int step;

    if (argc < 2) {
        fprintf(stderr, "usage: threads WORLD_DIR\n");
        return 2;
    }
    CHECK(relief_world_open(argv[1], &world));
    config.struct_size = sizeof config;
    CHECK(relief_runtime_config_default(&config));
    config.load_radius = 400.0;
    config.drop_radius = 500.0;
    CHECK(relief_runtime_create(world, &config, &runtime));
    relief_world_destroy(world);
    CHECK(relief_runtime_create_terrain(runtime, &terrain));
    for (t = 0; t < 3; t++)
        pthread_create(&threads[t], NULL, query, (void *)t);
    for (step = 0; step < 400; step++) {
        CHECK(relief_runtime_update(runtime, -1800.0 + step * 9.0, 0.0, 0.0));
        do CHECK(relief_runtime_poll_events(runtime, events, sizeof(relief_event), 64, &n));
        while (n == 64);
    }
    /* Destroy the runtime while the terrain queries go on. */
    atomic_store(&runtime_gone, 1);
    while (atomic_load(&in_runtime) != 0)
        sched_yield();
    seen = atomic_load(&answered);
    relief_runtime_destroy(runtime);
    while (atomic_load(&answered) < seen + 30)
        sched_yield();
    atomic_store(&stop, 1);
    for (t = 0; t < 3; t++)
        pthread_join(threads[t], NULL);
    relief_terrain_destroy(terrain);
    if (atomic_load(&failures) != 0 || atomic_load(&answered) < 100) {
        fprintf(stderr, "threads: %d failed calls, %ld answers\n", atomic_load(&failures),
                atomic_load(&answered));
        return 1;
    }
    printf("threads: %ld queries from 3 threads, 400 updates, runtime destroyed mid-query: clean\n",
           atomic_load(&answered));
    return 0;
}
