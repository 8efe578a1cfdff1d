/* A caller built against relief 0.2.0's header (tests/abi/relief-0.2.0.h, checked in as it
 * was released), linked against this relief, whose structs have grown since: it must stream,
 * query and read stats correctly, and relief must never write past the smaller structs it
 * was given. Every struct relief fills is a heap block of exactly the old size, so
 * AddressSanitizer (tests/c_abi.rs) reports any byte written past it.
 *
 *   old_caller WORLD_DIR */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relief-0.2.0.h"

static int failures;
#define EXPECT(cond)                                                                           \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            ++failures;                                                                        \
            printf("FAILED (line %d): %s -- last error: %s\n", __LINE__, #cond,               \
                   relief_last_error_message());                                               \
        }                                                                                      \
    } while (0)

int main(int argc, char **argv) {
    relief_world *world = NULL;
    relief_runtime *runtime = NULL;
    relief_terrain *terrain = NULL;
    relief_world_info *info = malloc(sizeof *info);
    relief_runtime_config *config = malloc(sizeof *config);
    relief_runtime_stats *stats = malloc(sizeof *stats);
    relief_stream_stats *pieces = malloc(sizeof *pieces);
    relief_region_view *view = malloc(sizeof *view);
    relief_event *events = malloc(64 * sizeof *events);
    uint32_t settled = 0;
    size_t n, i, loaded = 0, read = 0;
    double x, z, xz[4];
    float h, hs[2];

    if (argc < 2 || !info || !config || !stats || !pieces || !view || !events) {
        fprintf(stderr, "usage: old_caller WORLD_DIR\n");
        return 2;
    }
    /* Growing structs keeps the ABI: the old header's version is this library's. */
    EXPECT(relief_abi_version() == RELIEF_ABI_VERSION);
    printf("built against %s, running on %s\n", RELIEF_VERSION_STRING, relief_version());

    EXPECT(relief_world_open(argv[1], &world) == RELIEF_STATUS_OK);
    info->struct_size = sizeof *info;
    EXPECT(relief_world_get_info(world, info) == RELIEF_STATUS_OK);
    config->struct_size = sizeof *config;
    EXPECT(relief_runtime_config_default(config) == RELIEF_STATUS_OK);
    EXPECT(config->struct_size == sizeof *config && config->load_radius == 512.0);
    config->budget_bytes = 96u << 20;
    EXPECT(relief_runtime_create(world, config, &runtime) == RELIEF_STATUS_OK);
    relief_world_destroy(world);
    if (runtime == NULL)
        return 1;
    EXPECT(relief_runtime_create_terrain(runtime, &terrain) == RELIEF_STATUS_OK);

    {
        double extent = info->region_size * info->vertex_spacing;
        x = (info->region_min_x + 1.5) * extent;
        z = (info->region_min_z + 1.5) * extent;
    }
    EXPECT(relief_runtime_settle(runtime, x, 0, z, 60000, &settled) == RELIEF_STATUS_OK);
    EXPECT(settled == 1);
    do {
        EXPECT(relief_runtime_poll_events(runtime, events, sizeof *events, 64, &n) ==
               RELIEF_STATUS_OK);
        for (i = 0; i < n; ++i) {
            relief_region *region = NULL;
            if (events[i].kind != RELIEF_EVENT_LOADED)
                continue;
            ++loaded;
            if (relief_runtime_acquire_region(runtime, events[i].x, events[i].z, &region) !=
                RELIEF_STATUS_OK)
                continue;
            view->struct_size = sizeof *view;
            EXPECT(relief_region_get_view(region, view) == RELIEF_STATUS_OK);
            EXPECT(view->size == info->region_size && isfinite(view->height[0]));
            ++read;
            relief_region_release(region);
        }
    } while (n == 64);
    EXPECT(loaded > 0 && read == loaded);

    /* Queries: one and a batch agree. */
    EXPECT(relief_terrain_height(terrain, x, z, &h, NULL) == RELIEF_STATUS_OK);
    xz[0] = x;
    xz[1] = z;
    xz[2] = x + 3.0;
    xz[3] = z - 2.0;
    EXPECT(relief_terrain_heights(terrain, xz, 2, hs, 2, NULL) == RELIEF_STATUS_OK);
    EXPECT(hs[0] == h && isfinite(hs[1]));

    /* Stats: relief_runtime_stats has grown since 0.2.0; this caller's smaller struct is
     * filled as far as it reaches, and its size is left as it said. Its update figures count
     * game frames (relief_runtime_update), never settle's updates: one frame first. */
    EXPECT(relief_runtime_update(runtime, x, 0, z) == RELIEF_STATUS_OK);
    stats->struct_size = sizeof *stats;
    EXPECT(relief_runtime_get_stats(runtime, stats) == RELIEF_STATUS_OK);
    EXPECT(stats->struct_size == sizeof *stats);
    EXPECT(stats->flags == 0 && stats->update_p50_us > 0 && stats->level_cells_total > 0);
    pieces->struct_size = sizeof *pieces;
    EXPECT(relief_runtime_get_stream_stats(runtime, RELIEF_STREAM_PIECES, pieces) ==
           RELIEF_STATUS_OK);
    EXPECT(pieces->ready > 0 && pieces->ready == pieces->wanted &&
           pieces->budget_bytes == (96u << 20) && pieces->loads >= loaded);

    relief_terrain_destroy(terrain);
    relief_runtime_destroy(runtime);
    free(info);
    free(config);
    free(stats);
    free(pieces);
    free(view);
    free(events);
    printf("old caller: %zu regions loaded and read, %zu-byte stats filled: %s\n", loaded,
           sizeof(relief_runtime_stats), failures ? "FAILED" : "clean");
    return failures != 0;
}
