/* A headless streaming walk: the main loop a game runs every frame.
 *
 *   stream_walk WORLD [FRAMES]
 *
 * Opens WORLD (a directory or .rlpack), loads what the start point needs (a loading screen),
 * then walks the player diagonally across it for FRAMES frames of 1/60 s (default 600: ten
 * seconds, at about 450 m/s on the default world), and each frame:
 * updates the region streamer (focus: camera), the collision streamer (focus: player) and
 * the clipmap; drains events; refreshes the clipmap where regions load; and reads the
 * collision chunk under the player. Prints what happened; exits non-zero on any error. */
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
    fprintf(stderr, "stream_walk: %s failed with status %u: %s\n", what, (unsigned)status,
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
    relief_streamer *streamer = NULL;
    relief_collision *collision = NULL;
    relief_terrain *terrain = NULL;
    relief_clipmap *clipmap = NULL;
    relief_world_info info;
    relief_stream_config config;
    relief_event events[64];
    relief_stream_stats stats, chunk_stats;
    unsigned long loaded = 0, unloaded = 0, failed = 0, chunks = 0, rects = 0;
    unsigned long chunk_frames = 0, views = 0;
    int frames = argc > 2 ? atoi(argv[2]) : 600;
    int frame;

    if (argc < 2) {
        fprintf(stderr, "usage: stream_walk WORLD [FRAMES]\n");
        return 2;
    }
    printf("relief %s (header %s)\n", relief_version(), RELIEF_VERSION_STRING);
    CHECK(relief_world_open(argv[1], &world));
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    CHECK(relief_world_get_info(world, &info));
    printf("world: %u regions of %u samples at %.1f m, heights %.1f to %.1f m\n",
           info.region_count, info.region_size, info.vertex_spacing, info.height_min,
           info.height_max);

    CHECK(relief_stream_config_default(RELIEF_STREAM_KIND_REGIONS, &config));
    config.budget_bytes = 128u << 20;
    CHECK(relief_streamer_create(world, &config, &streamer));
    /* The streamer keeps the world alive: the handle can go now. */
    relief_world_destroy(world);
    world = NULL;
    CHECK(relief_collision_create(streamer, NULL, 0.0, &collision));
    CHECK(relief_terrain_create(streamer, &terrain));
    CHECK(relief_clipmap_create(terrain, NULL, &clipmap));

    {
        double extent = info.region_size * info.vertex_spacing;
        double x0 = info.region_min_x * extent, z0 = info.region_min_z * extent;
        double x1 = (info.region_max_x + 1) * extent, z1 = (info.region_max_z + 1) * extent;
        uint32_t settled;
        CHECK(relief_streamer_settle(streamer, x0 + (x1 - x0) * 0.1, 0.0, z0 + (z1 - z0) * 0.1,
                                     30000, &settled));
        printf("loading screen: %s\n", settled ? "everything near the start is loaded"
                                                 : "timed out");
        for (frame = 0; frame < frames; ++frame) {
            double t = (double)frame / (frames > 1 ? frames - 1 : 1);
            double x = x0 + (x1 - x0) * (0.1 + 0.8 * t), z = z0 + (z1 - z0) * (0.1 + 0.8 * t);
            float ground;
            size_t n, i, dirty;
            int32_t cx, cz;
            uint32_t cface;
            double at[3];
            relief_chunk_view chunk;

            CHECK(relief_terrain_height(terrain, x, z, &ground, NULL));
            CHECK(relief_streamer_update(streamer, x, ground + 1.7, z));
            CHECK(relief_collision_update(collision, x, ground + 1.7, z));
            CHECK(relief_clipmap_update(clipmap, x, ground + 1.7, z, &dirty));
            rects += dirty;
            do {
                CHECK(relief_streamer_poll_events(streamer, events, sizeof(relief_event), 64, &n));
                for (i = 0; i < n; ++i) {
                    if (events[i].kind == RELIEF_EVENT_LOADED) {
                        relief_region_view view;
                        ++loaded;
                        CHECK(relief_clipmap_refresh_region(clipmap, events[i].x, events[i].z,
                                                            &dirty));
                        rects += dirty;
                        /* What an engine does on LOADED: read the maps in place. */
                        memset(&view, 0, sizeof view);
                        view.struct_size = sizeof view;
                        CHECK(relief_region_acquire(streamer, events[i].x, events[i].z, &view));
                        if (view.height == NULL || !isfinite(view.height[view.size * view.size - 1])) {
                            fprintf(stderr, "stream_walk: region view without heights\n");
                            code = 1;
                        }
                        ++views;
                        relief_region_release(&view);
                    } else if (events[i].kind == RELIEF_EVENT_UNLOADED) {
                        ++unloaded;
                    } else {
                        ++failed;
                    }
                }
            } while (n == 64);
            do {
                CHECK(relief_collision_poll_events(collision, events, sizeof(relief_event), 64, &n));
                for (i = 0; i < n; ++i)
                    chunks += events[i].kind == RELIEF_EVENT_LOADED;
            } while (n == 64);

            at[0] = x;
            at[1] = ground;
            at[2] = z;
            CHECK(relief_collision_chunk_at(collision, at, &cface, &cx, &cz));
            memset(&chunk, 0, sizeof chunk);
            chunk.struct_size = sizeof chunk;
            if (relief_collision_acquire(collision, cface, cx, cz, &chunk) == RELIEF_STATUS_OK) {
                ++chunk_frames;
                if (chunk.samples < 2 || chunk.min_height > chunk.max_height) {
                    fprintf(stderr, "stream_walk: a malformed chunk\n");
                    code = 1;
                }
                relief_collision_release(&chunk);
            }
            wait_frame();
        }
    }

    memset(&stats, 0, sizeof stats);
    stats.struct_size = sizeof stats;
    CHECK(relief_streamer_get_stats(streamer, &stats));
    chunk_stats = stats;
    CHECK(relief_collision_get_stats(collision, &chunk_stats));
    printf("%d frames: %lu regions loaded (%lu views read), %lu unloaded, %lu failed\n", frames,
           loaded, views, unloaded, failed);
    printf("resident: %u regions, %.1f MB of a %.0f MB budget; update p50 %u us, p99 %u us\n",
           stats.ready, stats.ready_bytes / 1e6, stats.budget_bytes / 1e6, stats.update_p50_us,
           stats.update_p99_us);
    printf("collision: %lu chunks built; the player stood on a built chunk in %lu of %d frames\n",
           chunks, chunk_frames, frames);
    printf("clipmap: %lu dirty rectangles uploaded\n", rects);
    if (loaded == 0 || failed != 0 || chunks == 0) {
        fprintf(stderr, "stream_walk: expected regions and chunks to load without failures\n");
        code = 1;
    }

done:
    relief_clipmap_destroy(clipmap);
    relief_terrain_destroy(terrain);
    relief_collision_destroy(collision);
    relief_streamer_destroy(streamer);
    relief_world_destroy(world);
    return code;
}
