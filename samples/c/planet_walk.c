/* A headless walk on a PLNT planet, and every planet query.
 *
 *   planet_walk PLANET.plnt [FRAMES]
 *
 * Opens the planet (header and tables only), loads the tiles around a point on its equator
 * (a loading screen), then flies east along the equator for FRAMES frames of 1/60 s
 * (default 240), and each frame: updates the runtime (tiles, collision chunks and LOD rings);
 * drains events, reading each new tile in place; and reads the collision chunk under the
 * player in its own tangent frame. Then asks every
 * query. Prints what happened; exits non-zero on any error. */
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

static void wait_frame(void) {
#if defined(_WIN32)
    Sleep(16);
#else
    struct timespec t = {0, 16666667L};
    nanosleep(&t, NULL);
#endif
}

#define CHECK(call)                                                                              \
    do {                                                                                         \
        relief_status s_ = (call);                                                               \
        if (s_ != RELIEF_STATUS_OK) {                                                            \
            fprintf(stderr, "planet_walk: %s failed with status %u: %s\n", #call, (unsigned)s_, \
                    relief_last_error_message());                                                \
            code = 1;                                                                            \
            goto done;                                                                           \
        }                                                                                        \
    } while (0)

int main(int argc, char **argv) {
    int code = 0;
    relief_planet *planet = NULL;
    relief_runtime *runtime = NULL;
    relief_planet_terrain *terrain = NULL;
    relief_planet_info info;
    relief_event events[64];
    unsigned long loaded = 0, failed = 0, tiles_read = 0, chunks = 0, on_chunk = 0, rects = 0;
    int frames = argc > 2 ? atoi(argv[2]) : 240;
    int frame;
    double pos[3];
    uint32_t settled;

    if (argc < 2) {
        fprintf(stderr, "usage: planet_walk PLANET.plnt [FRAMES]\n");
        return 2;
    }
    CHECK(relief_planet_open(argv[1], &planet));
    info.struct_size = sizeof info;
    CHECK(relief_planet_get_info(planet, &info));
    printf("planet: radius %.1f km, 6 faces of %u² in tiles of %u², %.1f m cells, PLNT v%u%s\n",
           info.radius / 1000.0, info.face_resolution, info.tile_size, info.spacing, info.version,
           info.has_v7_fields ? " (sediment and precipitation)" : "");
    CHECK(relief_planet_runtime_create(planet, NULL, &runtime));
    CHECK(relief_runtime_create_planet_terrain(runtime, &terrain));

    CHECK(relief_planet_terrain_position_at(terrain, 0.0, 0.0, pos));
    CHECK(relief_runtime_settle(runtime, pos[0], pos[1], pos[2], 30000, &settled));
    printf("loading screen: %s\n",
           settled ? "the tiles, chunks and rings around the start are ready" : "timed out");

    for (frame = 0; frame < frames; ++frame) {
        /* 600 m/s east along the equator. */
        double lon = (frame * 600.0 / 60.0) / info.radius * 180.0 / 3.14159265358979;
        size_t n, i;
        uint32_t cface;
        int32_t cx, cz;
        relief_chunk *chunk;

        CHECK(relief_planet_terrain_position_at(terrain, 0.0, lon, pos));
        CHECK(relief_runtime_update(runtime, pos[0], pos[1], pos[2]));
        do {
            CHECK(relief_runtime_poll_events(runtime, events, sizeof(relief_event), 64, &n));
            for (i = 0; i < n; ++i) {
                if (events[i].kind == RELIEF_EVENT_LOADED) {
                    relief_tile *tile;
                    relief_tile_view view;
                    ++loaded;
                    CHECK(relief_runtime_acquire_tile(runtime, events[i].face, (uint32_t)events[i].x,
                                                      (uint32_t)events[i].z, &tile));
                    view.struct_size = sizeof view;
                    if (relief_tile_get_view(tile, &view) != RELIEF_STATUS_OK ||
                        !isfinite(view.height[view.size * view.size - 1]) ||
                        (info.has_v7_fields && view.sediment == NULL)) {
                        fprintf(stderr, "planet_walk: a malformed tile view\n");
                        code = 1;
                    }
                    ++tiles_read;
                    relief_tile_release(tile);
                } else if (events[i].kind == RELIEF_EVENT_FAILED) {
                    ++failed;
                } else if (events[i].kind == RELIEF_EVENT_CHUNK_READY) {
                    ++chunks;
                } else if (events[i].kind == RELIEF_EVENT_LEVELS_DIRTY) {
                    rects += (unsigned long)events[i].x;
                }
            }
        } while (n == 64);
        CHECK(relief_runtime_chunk_at(runtime, pos, &cface, &cx, &cz));
        if (relief_runtime_acquire_chunk(runtime, cface, cx, cz, &chunk) == RELIEF_STATUS_OK) {
            relief_chunk_view view;
            double dot;
            view.struct_size = sizeof view;
            CHECK(relief_chunk_get_view(chunk, &view));
            dot = view.up[0] * pos[0] + view.up[1] * pos[1] + view.up[2] * pos[2];
            ++on_chunk;
            if (view.samples < 2 || dot <= 0.0) {
                fprintf(stderr, "planet_walk: a chunk whose frame does not face the player\n");
                code = 1;
            }
            relief_chunk_release(chunk);
        }
        wait_frame();
    }
    printf("%d frames: %lu tiles loaded (%lu read in place), %lu failed; %lu chunks built, the "
           "player on a built chunk in %lu frames; %lu ring rectangles\n",
           frames, loaded, tiles_read, failed, chunks, on_chunk, rects);

    {
        float height, normal[3];
        relief_origin origin;
        uint32_t found;
        double value;
        relief_planet_river river;
        relief_lake lake;
        double line[3 * 64];
        float heights[64];
        size_t from_tiles, k;
        CHECK(relief_planet_terrain_height(terrain, pos, &height, &origin));
        CHECK(relief_planet_terrain_normal(terrain, pos, normal, NULL));
        printf("at the end: height %.1f m (%s), normal (%.3f, %.3f, %.3f)\n", height,
               origin == RELIEF_ORIGIN_REGION ? "tile" : "overview", normal[0], normal[1], normal[2]);
        CHECK(relief_planet_terrain_sample(terrain, pos, RELIEF_PLANET_FIELD_BIOME, &found, &value));
        if (found) {
            char name[64];
            size_t len;
            CHECK(relief_planet_get_biome_name(planet, (uint32_t)value, name, sizeof name, &len));
            printf("biome: %s\n", name);
        }
        CHECK(relief_planet_terrain_sample(terrain, pos, RELIEF_PLANET_FIELD_SEDIMENT, &found, &value));
        printf("sediment: %s %.2f m\n", found ? "" : "(none)", value);
        CHECK(relief_planet_terrain_sample(terrain, pos, RELIEF_PLANET_FIELD_PRECIPITATION, &found, &value));
        printf("precipitation: %s %.0f mm/yr\n", found ? "" : "(none)", value);
        river.struct_size = sizeof river;
        CHECK(relief_planet_terrain_river(terrain, pos, 20000.0, &river));
        printf("river: %s reach %u, %.0f m away, %.1f m wide\n", river.found ? "" : "(none)",
               river.reach, river.distance_m, river.width_m);
        lake.struct_size = sizeof lake;
        CHECK(relief_planet_terrain_lake(terrain, pos, 50000.0, &lake));
        printf("lake: %s %u at %.1f m, %.0f m away\n", lake.found ? "" : "(none)", lake.lake,
               lake.level_m, lake.distance_m);
        for (k = 0; k < 64; ++k)
            CHECK(relief_planet_terrain_position_at(terrain, 0.0, (double)k * 0.01, &line[3 * k]));
        CHECK(relief_planet_terrain_heights(terrain, line, 64, heights, 64, &from_tiles));
        printf("batch: %zu of 64 heights from tiles\n", from_tiles);
        if (!isfinite(height) || normal[0] * pos[0] + normal[1] * pos[1] + normal[2] * pos[2] <= 0.0) {
            fprintf(stderr, "planet_walk: a height or normal that makes no sense\n");
            code = 1;
        }
    }
    if (loaded == 0 || failed != 0 || chunks == 0 || tiles_read == 0) {
        fprintf(stderr, "planet_walk: expected tiles and chunks to load without failures\n");
        code = 1;
    }

done:
    relief_planet_terrain_destroy(terrain);
    relief_runtime_destroy(runtime);
    relief_planet_destroy(planet);
    return code;
}
