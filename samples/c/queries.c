/* Every query, from C.
 *
 *   queries WORLD [X Z]
 *
 * Opens WORLD, loads the regions around (X, Z) (default: the world's centre), then asks the
 * height, normal, ground, biome, nearest river and lake there, and batch heights and normals
 * along a line. Exits non-zero on any error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relief.h"

#define POINTS 256

static const char *origin_name(relief_origin o) {
    switch (o) {
    case RELIEF_ORIGIN_REGION: return "region";
    case RELIEF_ORIGIN_OVERVIEW: return "overview";
    default: return "outside";
    }
}

#define CHECK(call)                                                                              \
    do {                                                                                         \
        relief_status s_ = (call);                                                               \
        if (s_ != RELIEF_STATUS_OK) {                                                            \
            fprintf(stderr, "queries: %s failed with status %u: %s\n", #call, (unsigned)s_,      \
                    relief_last_error_message());                                                \
            code = 1;                                                                            \
            goto done;                                                                           \
        }                                                                                        \
    } while (0)

int main(int argc, char **argv) {
    int code = 0;
    relief_world *world = NULL;
    relief_runtime *runtime = NULL;
    relief_terrain *terrain = NULL;
    relief_world_info info;
    double x, z, xz[2 * POINTS];
    float height, normal[3], heights[POINTS], normals[3 * POINTS];
    relief_origin origin;
    relief_ground ground;
    relief_river river;
    relief_lake lake;
    uint32_t found, biome, settled;
    size_t from_regions, i;

    if (argc < 2) {
        fprintf(stderr, "usage: queries WORLD [X Z]\n");
        return 2;
    }
    CHECK(relief_world_open(argv[1], &world));
    info.struct_size = sizeof info;
    CHECK(relief_world_get_info(world, &info));
    {
        double extent = info.region_size * info.vertex_spacing;
        x = argc > 3 ? atof(argv[2]) : (info.region_min_x + info.region_max_x + 1) * extent / 2;
        z = argc > 3 ? atof(argv[3]) : (info.region_min_z + info.region_max_z + 1) * extent / 2;
    }
    /* Queries need regions resident to answer at full precision: a runtime streams them. */
    CHECK(relief_runtime_create(world, NULL, &runtime));
    CHECK(relief_runtime_create_terrain(runtime, &terrain));

    /* Before anything loads, the overview answers. */
    CHECK(relief_terrain_height(terrain, x, z, &height, &origin));
    printf("at (%.1f, %.1f) before loading: %.2f m from the %s\n", x, z, height,
           origin_name(origin));
    CHECK(relief_runtime_settle(runtime, x, 0.0, z, 30000, &settled));
    CHECK(relief_terrain_height(terrain, x, z, &height, &origin));
    printf("after loading (settled: %u): %.2f m from the %s\n", settled, height,
           origin_name(origin));
    if (origin != RELIEF_ORIGIN_REGION) {
        fprintf(stderr, "queries: a resident region should answer\n");
        code = 1;
    }

    CHECK(relief_terrain_normal(terrain, x, z, normal, NULL));
    printf("normal: (%.3f, %.3f, %.3f)\n", normal[0], normal[1], normal[2]);
    /* Result structs say which version of themselves the caller has: set the size first. */
    ground.struct_size = sizeof ground;
    CHECK(relief_terrain_ground(terrain, x, z, &ground));
    printf("ground: found %u, control 0x%08x (base texture %u, overlay %u, blend %u, hole %u)\n",
           ground.found, ground.control, ground.base_texture, ground.overlay_texture,
           ground.blend, ground.hole);
    CHECK(relief_terrain_biome(terrain, x, z, &found, &biome));
    if (found) {
        size_t length;
        char *name;
        CHECK(relief_world_get_biome_name(world, biome, NULL, 0, &length)); /* size query */
        name = malloc(length + 1);
        if (name == NULL)
            goto done;
        if (relief_world_get_biome_name(world, biome, name, length + 1, &length) == RELIEF_STATUS_OK)
            printf("biome: %u, %s\n", biome, name);
        free(name);
    }
    river.struct_size = sizeof river;
    CHECK(relief_terrain_river(terrain, x, z, 5000.0, &river));
    if (river.found)
        printf("river: reach %u (%s), %.0f m away, %.1f m wide, bed %.1f m\n", river.reach,
               river.kind == RELIEF_REACH_RIVER ? "river" : "creek", river.distance_m,
               river.width_m, river.bed_m);
    else
        printf("river: none within 5 km\n");
    lake.struct_size = sizeof lake;
    CHECK(relief_terrain_lake(terrain, x, z, 5000.0, &lake));
    if (lake.found)
        printf("lake: %u, level %.2f m, %s %.0f m\n", lake.lake, lake.level_m,
               lake.inside ? "inside," : "shore at", lake.distance_m);
    else
        printf("lake: none within 5 km\n");

    /* Batch: a line of points through the loaded area, one lock for all of them. */
    for (i = 0; i < POINTS; ++i) {
        xz[2 * i] = x - 200.0 + 400.0 * (double)i / POINTS;
        xz[2 * i + 1] = z;
    }
    CHECK(relief_terrain_heights(terrain, xz, POINTS, heights, POINTS, &from_regions));
    CHECK(relief_terrain_normals(terrain, xz, POINTS, normals, 3 * POINTS));
    printf("batch: %zu of %d heights from regions; first %.2f m, last %.2f m\n", from_regions,
           POINTS, heights[0], heights[POINTS - 1]);
    for (i = 0; i < POINTS; ++i) {
        float single;
        CHECK(relief_terrain_height(terrain, xz[2 * i], xz[2 * i + 1], &single, NULL));
        if (single != heights[i] || !(normals[3 * i + 1] > 0.0f)) {
            fprintf(stderr, "queries: batch and single answers differ at point %zu\n", i);
            code = 1;
            break;
        }
    }

done:
    relief_terrain_destroy(terrain);
    relief_runtime_destroy(runtime);
    relief_world_destroy(world);
    return code;
}
