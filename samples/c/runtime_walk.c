/* A headless walk on one runtime object: the main loop a game runs every frame.
 *
 *   runtime_walk WORLD [FRAMES]
 *
 * Opens WORLD (a directory or .rlpack), starts a runtime (regions, collision chunks and
 * clipmap levels), loads what the start needs (a loading screen), then walks diagonally
 * across the world for FRAMES frames of 1/60 s (default 600). Each frame: one
 * relief_runtime_update, then every event: LOADED regions are read in place, CHUNK_READY
 * chunks are read as an engine would build its shape, THINGS_READY chunks of placed things
 * are read as an engine would fill its instance buffers, LEVELS_DIRTY rectangles are
 * fetched for upload. Prints what happened; exits non-zero on any error. */
#if !defined(_WIN32)
#define _POSIX_C_SOURCE 199309L
#include <time.h>
#else
#include <windows.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relief.h"

/* The rest of a 60 Hz frame: relief's work happens on its own threads meanwhile. */
static void wait_frame(void) {
#if defined(_WIN32)
    Sleep(16);
#else
    struct timespec t = {0, 16666667L};
    nanosleep(&t, NULL);
#endif
}

static int fail(const char *what, relief_status status) {
    fprintf(stderr, "runtime_walk: %s failed with status %u: %s\n", what, (unsigned)status,
            relief_last_error_message());
    return 1;
}

#define CHECK(call)                                                                              \
    do {                                                                                         \
        relief_status s_ = (call);                                                               \
        if (s_ != RELIEF_STATUS_OK) {                                                            \
            code = fail(#call, s_);                                                              \
            goto done;                                                                           \
        }                                                                                        \
    } while (0)

int main(int argc, char **argv) {
    int code = 0;
    relief_world *world = NULL;
    relief_runtime *runtime = NULL;
    relief_terrain *terrain = NULL;
    relief_world_info info;
    relief_runtime_config config;
    relief_runtime_stats stats;
    relief_event events[64];
    relief_dirty_rect rects[512];
    unsigned long loaded = 0, unloaded = 0, failed = 0, chunks = 0, dropped = 0;
    unsigned long dirty_events = 0, uploaded = 0, views = 0, chunk_views = 0;
    unsigned long thing_chunks = 0, things_dropped = 0, things = 0, colliders = 0;
    unsigned long per_kind[256] = {0};
    uint32_t kinds = 0, k;
    int frames = argc > 2 ? atoi(argv[2]) : 600;
    int frame;

    if (argc < 2) {
        fprintf(stderr, "usage: runtime_walk WORLD [FRAMES]\n");
        return 2;
    }
    CHECK(relief_world_open(argv[1], &world));
    info.struct_size = sizeof info;
    CHECK(relief_world_get_info(world, &info));
    config.struct_size = sizeof config;
    CHECK(relief_runtime_config_default(&config));
    config.budget_bytes = 128u << 20;
    CHECK(relief_runtime_create(world, &config, &runtime));
    /* The runtime keeps the world alive. */
    relief_world_destroy(world);
    world = NULL;
    CHECK(relief_runtime_create_terrain(runtime, &terrain));

    {
        double extent = info.region_size * info.vertex_spacing;
        double x0 = info.region_min_x * extent, z0 = info.region_min_z * extent;
        double x1 = (info.region_max_x + 1) * extent, z1 = (info.region_max_z + 1) * extent;
        uint32_t settled;
        CHECK(relief_runtime_settle(runtime, x0 + (x1 - x0) * 0.1, 0.0, z0 + (z1 - z0) * 0.1,
                                    30000, &settled));
        printf("loading screen: %s\n", settled ? "regions, chunks and levels are ready"
                                                 : "timed out");
        /* A game would build what the loading screen loaded; here the walk counts from now.
         * (A LEVELS_DIRTY event's rectangles are the latest update's, so a game drains
         * events every frame.) */
        {
            size_t n;
            do CHECK(relief_runtime_poll_events(runtime, events, sizeof(relief_event), 64, &n));
            while (n == 64);
        }
        for (frame = 0; frame < frames; ++frame) {
            double t = (double)frame / (frames > 1 ? frames - 1 : 1);
            double x = x0 + (x1 - x0) * (0.1 + 0.8 * t), z = z0 + (z1 - z0) * (0.1 + 0.8 * t);
            float ground;
            size_t n, i;

            CHECK(relief_terrain_height(terrain, x, z, &ground, NULL));
            CHECK(relief_runtime_update(runtime, x, ground + 1.7, z));
            do {
                CHECK(relief_runtime_poll_events(runtime, events, sizeof(relief_event), 64, &n));
                for (i = 0; i < n; ++i) {
                    const relief_event *e = &events[i];
                    if (e->kind == RELIEF_EVENT_LOADED) {
                        relief_region *region;
                        relief_region_view view;
                        ++loaded;
                        /* Held until released, even if it unloads meanwhile. */
                        CHECK(relief_runtime_acquire_region(runtime, e->x, e->z, &region));
                        view.struct_size = sizeof view;
                        if (relief_region_get_view(region, &view) != RELIEF_STATUS_OK ||
                            !isfinite(view.height[view.size * view.size - 1]))
                            code = 1;
                        ++views;
                        relief_region_release(region);
                    } else if (e->kind == RELIEF_EVENT_CHUNK_READY) {
                        relief_chunk *chunk;
                        ++chunks;
                        /* Ready now; a later event in this batch may drop it again. */
                        if (relief_runtime_acquire_chunk(runtime, e->face, e->x, e->z, &chunk) ==
                            RELIEF_STATUS_OK) {
                            relief_chunk_view view;
                            view.struct_size = sizeof view;
                            if (relief_chunk_get_view(chunk, &view) != RELIEF_STATUS_OK ||
                                view.samples < 2 || view.min_height > view.max_height)
                                code = 1;
                            ++chunk_views;
                            relief_chunk_release(chunk);
                        }
                    } else if (e->kind == RELIEF_EVENT_THINGS_READY) {
                        relief_things *held;
                        ++thing_chunks;
                        if (relief_runtime_acquire_things(runtime, e->band, e->face, e->x, e->z,
                                                          &held) == RELIEF_STATUS_OK) {
                            relief_things_view view;
                            uint32_t r, c, j, sum = 0;
                            view.struct_size = sizeof view;
                            CHECK(relief_things_get_view(held, &view));
                            /* One instance buffer per run (kind): Godot's MultiMesh takes
                             * rows + 12 * start, 12 * count floats; Unity's
                             * RenderMeshInstanced the matrices at 16 * start. */
                            for (r = 0; r < view.run_count; ++r) {
                                const relief_thing_run *run = &view.runs[r];
                                if (run->kind < 256) per_kind[run->kind] += run->count;
                                sum += run->count;
                                for (j = run->start; j < run->start + run->count; ++j) {
                                    const float *row = view.rows + 12 * (size_t)j;
                                    const float *m = view.matrices + 16 * (size_t)j;
                                    /* The same transform: row r, column c of the 3 x 4 is
                                     * element 4c + r of the column-major 4 x 4. */
                                    for (c = 0; c < 4; ++c)
                                        if (row[c] != m[4 * c] || row[4 + c] != m[4 * c + 1] ||
                                            row[8 + c] != m[4 * c + 2])
                                            code = 1;
                                    if (m[15] != 1.0f) code = 1;
                                }
                            }
                            for (j = 0; j < view.collider_count; ++j)
                                if (view.colliders[j].thing >= view.count) code = 1;
                            if (sum != view.count) code = 1;
                            things += view.count;
                            colliders += view.collider_count;
                            relief_things_release(held);
                        }
                    } else if (e->kind == RELIEF_EVENT_THINGS_DROPPED) {
                        ++things_dropped;
                    } else if (e->kind == RELIEF_EVENT_LEVELS_DIRTY) {
                        size_t count;
                        ++dirty_events;
                        CHECK(relief_runtime_get_dirty(runtime, NULL, sizeof(relief_dirty_rect), 0, &count));
                        if (count != (size_t)e->x || count > 512) code = 1;
                        CHECK(relief_runtime_get_dirty(runtime, rects, sizeof(relief_dirty_rect), 512, &count));
                        uploaded += count;
                    } else if (e->kind == RELIEF_EVENT_UNLOADED) {
                        ++unloaded;
                    } else if (e->kind == RELIEF_EVENT_CHUNK_DROPPED) {
                        ++dropped;
                    } else {
                        ++failed;
                    }
                }
            } while (n == 64);
            wait_frame();
        }
    }

    stats.struct_size = sizeof stats;
    CHECK(relief_runtime_get_stats(runtime, &stats));
    printf("%d frames: %lu regions loaded (%lu views read), %lu unloaded, %lu failed\n", frames,
           loaded, views, unloaded, failed);
    printf("collision: %lu chunks built (%lu read), %lu dropped\n", chunks, chunk_views, dropped);
    printf("things: %lu chunks placed (%lu things, %lu colliders), %lu dropped\n",
           thing_chunks, things, colliders, things_dropped);
    CHECK(relief_runtime_thing_kind_count(runtime, &kinds));
    for (k = 0; k < kinds && k < 256; ++k) {
        relief_thing_kind kind;
        kind.struct_size = sizeof kind;
        CHECK(relief_runtime_get_thing_kind(runtime, k, &kind));
        printf("  %-10s %lu\n", kind.name, per_kind[k]);
    }
    printf("levels: %lu updates dirty, %lu rectangles uploaded, %llu cells\n", dirty_events,
           uploaded, (unsigned long long)stats.level_cells_total);
    printf("update p50 %u us, p99 %u us (regions %u us of the last)\n", stats.update_p50_us,
           stats.update_p99_us, stats.pieces_last_us);
    printf("at the end: %u of %u regions ready, %u of %u chunks\n", stats.pieces_ready,
           stats.pieces_wanted, stats.chunks_ready, stats.chunks_wanted);
    if (loaded == 0 || failed != 0 || chunks == 0 || dirty_events == 0 || things == 0 ||
        code != 0) {
        fprintf(stderr,
                "runtime_walk: expected regions, chunks, things and levels without failures\n");
        code = 1;
    }

done:
    relief_terrain_destroy(terrain);
    relief_runtime_destroy(runtime);
    relief_world_destroy(world);
    return code;
}
