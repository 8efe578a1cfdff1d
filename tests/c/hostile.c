/* The C ABI against hostile input: every misuse gets its status, a message, and no effect.
 *
 *   hostile WORLD_DIR WORLD_PACK PLANET
 *
 * Prints one line per failed check and a closing "hostile: N checks, M failed" line; exits
 * with 1 if any failed. Run under AddressSanitizer/UBSan and valgrind by tests/c_abi.rs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relief.h"

static int checks, failures;

static void expect(int ok, const char *what, int line) {
    ++checks;
    if (!ok) {
        ++failures;
        printf("FAILED (line %d): %s -- last error: %s\n", line, what, relief_last_error_message());
    }
}
#define EXPECT(cond) expect((cond), #cond, __LINE__)
/* Leaves a known message as the thread's last error, so a check can tell that a later call
 * wrote its own (the message outlives the call that set it). */
static char known_message[256];
static void set_known_message(void) {
    relief_stream_config c;
    relief_stream_config_default(12345, &c);
    snprintf(known_message, sizeof known_message, "%s", relief_last_error_message());
}
/* A call that must fail with `status` and explain itself: a message of its own, not one an
 * earlier call left behind. */
#define REFUSED(call, status)                                                                    \
    do {                                                                                         \
        relief_status s_;                                                                        \
        set_known_message();                                                                     \
        s_ = (call);                                                                             \
        expect(s_ == (status), #call " -> " #status, __LINE__);                                  \
        expect(relief_last_error_message()[0] != '\0' &&                                        \
                   strcmp(relief_last_error_message(), known_message) != 0,                           \
               #call " explains itself", __LINE__);                                              \
    } while (0)
#define OK(call) expect((call) == RELIEF_STATUS_OK, #call " -> OK", __LINE__)

/* Reader callbacks over a buffer, counting releases. */
typedef struct {
    unsigned char *bytes;
    size_t length;
    int releases;
    int fail_reads;
} buffer_reader;

static int32_t read_at(void *user, uint64_t offset, uint64_t length, uint8_t *out) {
    buffer_reader *r = user;
    if (r->fail_reads || offset + length > r->length)
        return -5;
    memcpy(out, r->bytes + offset, (size_t)length);
    return 0;
}

static void release(void *user) { ((buffer_reader *)user)->releases += 1; }

static unsigned char *slurp(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    unsigned char *bytes;
    long n;
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    bytes = malloc((size_t)n);
    if (bytes != NULL && fread(bytes, 1, (size_t)n, f) != (size_t)n) {
        free(bytes);
        bytes = NULL;
    }
    fclose(f);
    *length = (size_t)n;
    return bytes;
}

int main(int argc, char **argv) {
    relief_world *world = NULL, *sentinel = (relief_world *)&checks, *w;
    relief_streamer *streamer = NULL;
    relief_terrain *terrain = NULL;
    relief_collision *collision = NULL, *csentinel = (relief_collision *)&checks;
    relief_clipmap *clipmap = NULL;
    relief_world_info info;
    relief_stream_config config;
    relief_stream_stats stats;
    relief_event events[8];
    relief_region_view view;
    relief_chunk_view chunk;
    relief_clipmap_config cconfig;
    relief_clipmap_level level;
    relief_dirty_rect rects[1];
    relief_reader reader;
    buffer_reader buffer;
    relief_river river;
    char name[4];
    double xz[6] = {0, 0, 1, 1, 2, 2};
    float out[9];
    size_t n, length;
    uint32_t settled;
    unsigned char *pack;

    if (argc < 4) {
        fprintf(stderr, "usage: hostile WORLD_DIR WORLD_PACK PLANET\n");
        return 2;
    }
    EXPECT(strcmp(relief_version(), RELIEF_VERSION_STRING) == 0);
    EXPECT(relief_abi_version() == RELIEF_ABI_VERSION);
    EXPECT(relief_last_error_message() != NULL);

    /* Opening: NULLs, a missing path, bad bytes; out-parameters untouched on failure. */
    w = sentinel;
    REFUSED(relief_world_open(NULL, &w), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_world_open(argv[1], NULL), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_world_open("/nonexistent/relief/world", &w), RELIEF_STATUS_NOT_FOUND);
    REFUSED(relief_world_open("\xff\xfe", &w), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_world_open_memory(NULL, 16, &w), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_world_open_memory(NULL, 0, &w), RELIEF_STATUS_CORRUPT); /* valid, but empty */
    {
        /* A pack header with an empty index and a wrong index checksum. */
        static const uint8_t bad_crc[20] = {'R', 'L', 'P', 'K', 1, 0, 0, 0, 0, 0,
                                            0,   0,   0,   0,   0, 0, 1, 2, 3, 4};
        REFUSED(relief_world_open_memory(bad_crc, sizeof bad_crc, &w), RELIEF_STATUS_CORRUPT);
    }
    REFUSED(relief_world_open_memory((const uint8_t *)"RLPK\x09\0\0\0garbagegarbage", 22, &w),
            RELIEF_STATUS_UNSUPPORTED_VERSION);
    EXPECT(w == sentinel);

    pack = slurp(argv[2], &length);
    EXPECT(pack != NULL);
    if (pack == NULL)
        return 1;
    OK(relief_world_open_memory(pack, length, &w));
    relief_world_destroy(w);
    w = sentinel;

    /* Reader callbacks: a bad struct calls nothing; a failed open releases once. */
    buffer.bytes = pack;
    buffer.length = length;
    buffer.releases = 0;
    buffer.fail_reads = 0;
    memset(&reader, 0, sizeof reader);
    reader.struct_size = sizeof reader + 8; /* a newer caller's struct */
    reader.length = length;
    reader.user = &buffer;
    reader.read_at = read_at;
    reader.release = release;
    REFUSED(relief_world_open_reader(NULL, &w), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_world_open_reader(&reader, &w), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(buffer.releases == 0);
    reader.struct_size = sizeof reader;
    reader.read_at = NULL;
    REFUSED(relief_world_open_reader(&reader, &w), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(buffer.releases == 0);
    reader.read_at = read_at;
    buffer.fail_reads = 1;
    REFUSED(relief_world_open_reader(&reader, &w), RELIEF_STATUS_IO);
    EXPECT(buffer.releases == 1);
    buffer.fail_reads = 0;
    reader.length = 10; /* shorter than the index claims */
    REFUSED(relief_world_open_reader(&reader, &w), RELIEF_STATUS_CORRUPT);
    EXPECT(buffer.releases == 2);
    REFUSED(relief_world_open_reader(&reader, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(buffer.releases == 3);
    reader.length = length;
    buffer.releases = 0;
    EXPECT(w == sentinel);
    OK(relief_world_open_reader(&reader, &world));
    EXPECT(buffer.releases == 0);

    /* Info: NULLs, and struct sizes this relief doesn't know (older or newer callers). */
    memset(&info, 0, sizeof info);
    REFUSED(relief_world_get_info(NULL, &info), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_world_get_info(world, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
    info.struct_size = 8;
    REFUSED(relief_world_get_info(world, &info), RELIEF_STATUS_INVALID_ARGUMENT);
    info.struct_size = sizeof info + 16;
    REFUSED(relief_world_get_info(world, &info), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(info.region_count == 0);
    info.struct_size = sizeof info;
    OK(relief_world_get_info(world, &info));
    EXPECT(info.region_count > 0);

    /* Biome names: out-of-range ids, undersized and NULL buffers, the size query. */
    REFUSED(relief_world_get_biome_name(world, info.biome_count, name, sizeof name, &n),
            RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_world_get_biome_name(world, 0, NULL, 8, &n), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_world_get_biome_name(world, 0, name, sizeof name, NULL),
            RELIEF_STATUS_INVALID_ARGUMENT);
    memcpy(name, "xyz", 4);
    REFUSED(relief_world_get_biome_name(world, 0, name, 2, &n), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(memcmp(name, "xyz", 4) == 0);
    n = 0;
    OK(relief_world_get_biome_name(world, 0, NULL, 0, &n));
    EXPECT(n > 0);

    /* Stream configs: out-of-range enums, newer struct sizes, impossible values. */
    REFUSED(relief_stream_config_default(7, &config), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_stream_config_default(RELIEF_STREAM_KIND_REGIONS, NULL),
            RELIEF_STATUS_INVALID_ARGUMENT);
    OK(relief_stream_config_default(RELIEF_STREAM_KIND_REGIONS, &config));
    EXPECT(config.struct_size == sizeof config && config.load_radius > 0);
    config.struct_size += 8;
    REFUSED(relief_streamer_create(world, &config, &streamer), RELIEF_STATUS_INVALID_ARGUMENT);
    config.struct_size = sizeof config;
    config.load_radius = NAN;
    REFUSED(relief_streamer_create(world, &config, &streamer), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(strstr(relief_last_error_message(), "load_radius") != NULL);
    config.load_radius = -1;
    REFUSED(relief_streamer_create(world, &config, &streamer), RELIEF_STATUS_INVALID_ARGUMENT);
    config.load_radius = 300;
    /* The message names the field as this struct spells it. */
    config.worker_threads = 1000;
    REFUSED(relief_streamer_create(world, &config, &streamer), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(strstr(relief_last_error_message(), "worker_threads") != NULL);
    config.worker_threads = 0;
    config.drop_radius = 200;
    REFUSED(relief_streamer_create(world, &config, &streamer), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(strstr(relief_last_error_message(), "drop_radius") != NULL);
    config.drop_radius = 704;
    config.budget_bytes = 0;
    REFUSED(relief_streamer_create(world, &config, &streamer), RELIEF_STATUS_INVALID_ARGUMENT);
    config.budget_bytes = 64u << 20;
    REFUSED(relief_streamer_create(NULL, &config, &streamer), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_streamer_create(world, &config, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(streamer == NULL);
    OK(relief_streamer_create(world, &config, &streamer));
    relief_world_destroy(world); /* the streamer keeps what it needs */
    world = NULL;

    /* Streamer calls: NULL handles, non-finite positions, NULL buffers with lengths. */
    REFUSED(relief_streamer_update(NULL, 0, 0, 0), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_streamer_update(streamer, NAN, 0, 0), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_streamer_update(streamer, 0, 0, INFINITY), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_streamer_poll_events(streamer, NULL, sizeof(relief_event), 5, &n), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_streamer_poll_events(streamer, events, sizeof(relief_event), 8, NULL),
            RELIEF_STATUS_INVALID_ARGUMENT);
    n = 99;
    OK(relief_streamer_poll_events(streamer, NULL, sizeof(relief_event), 0, &n));
    EXPECT(n == 0);
    /* Event arrays say how big their elements are: a size relief doesn't know is refused. */
    n = 99;
    REFUSED(relief_streamer_poll_events(streamer, events, sizeof(relief_event) + 8, 8, &n),
            RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_streamer_poll_events(streamer, NULL, 0, 0, &n), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(n == 99);
    memset(&stats, 0, sizeof stats);
    REFUSED(relief_streamer_get_stats(streamer, &stats), RELIEF_STATUS_INVALID_ARGUMENT);
    stats.struct_size = sizeof stats;
    REFUSED(relief_streamer_get_stats(NULL, &stats), RELIEF_STATUS_INVALID_ARGUMENT);
    OK(relief_streamer_get_stats(streamer, &stats));
    EXPECT(stats.budget_bytes == (64u << 20));
    REFUSED(relief_streamer_settle(streamer, 0, 0, 0, 10, NULL), RELIEF_STATUS_INVALID_ARGUMENT);

    /* Region views: not resident yet, NULL views, unknown sizes. */
    memset(&view, 0, sizeof view);
    view.struct_size = sizeof view;
    REFUSED(relief_region_acquire(streamer, info.region_min_x, info.region_min_z, &view),
            RELIEF_STATUS_NOT_FOUND);
    EXPECT(view.token == NULL && view.height == NULL);
    REFUSED(relief_region_acquire(streamer, 0, 0, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
    view.struct_size = 4;
    REFUSED(relief_region_acquire(streamer, 0, 0, &view), RELIEF_STATUS_INVALID_ARGUMENT);
    view.struct_size = sizeof view;
    {
        double extent = info.region_size * info.vertex_spacing;
        double x = (info.region_min_x + 0.5) * extent, z = (info.region_min_z + 0.5) * extent;
        OK(relief_streamer_settle(streamer, x, 0, z, 60000, &settled));
        EXPECT(settled == 1);
        OK(relief_region_acquire(streamer, info.region_min_x, info.region_min_z, &view));
        EXPECT(view.height != NULL && view.size == info.region_size);
        REFUSED(relief_region_acquire(streamer, info.region_min_x, info.region_min_z, &view),
                RELIEF_STATUS_INVALID_ARGUMENT); /* still holds one */
        /* The view outlives the region's residency: move away, then read it. */
        OK(relief_streamer_update(streamer, x + 1e6, 0, z + 1e6));
        EXPECT(isfinite(view.height[view.size * view.size - 1]));
        relief_region_release(&view);
        EXPECT(view.token == NULL && view.height == NULL);
        relief_region_release(&view); /* twice: a no-op */
        relief_region_release(NULL);
        OK(relief_streamer_settle(streamer, x, 0, z, 60000, &settled));
    }

    /* Queries: undersized and NULL buffers, bad radii; (NULL, 0) is fine. */
    OK(relief_terrain_create(streamer, &terrain));
    REFUSED(relief_terrain_create(NULL, &terrain), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_terrain_height(terrain, 0, 0, NULL, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_terrain_height(NULL, 0, 0, out, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_terrain_heights(terrain, xz, 3, out, 2, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_terrain_heights(terrain, NULL, 3, out, 3, NULL),
            RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_terrain_heights(terrain, xz, 3, NULL, 3, NULL),
            RELIEF_STATUS_INVALID_ARGUMENT);
    OK(relief_terrain_heights(terrain, NULL, 0, NULL, 0, &n));
    EXPECT(n == 0);
    OK(relief_terrain_heights(terrain, xz, 3, out, 9, NULL));
    REFUSED(relief_terrain_normals(terrain, xz, 3, out, 8), RELIEF_STATUS_INVALID_ARGUMENT);
    OK(relief_terrain_normals(terrain, xz, 3, out, 9));
    EXPECT(out[1] > 0.0f);
    memset(&river, 0, sizeof river);
    river.struct_size = sizeof river;
    REFUSED(relief_terrain_river(terrain, 0, 0, -1, &river), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_terrain_river(terrain, 0, 0, NAN, &river), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_terrain_ground(terrain, 0, 0, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
    {
        /* Result structs carry their size: a wrong one is refused and the struct untouched. */
        relief_ground ground;
        relief_lake lake;
        memset(&ground, 0, sizeof ground);
        REFUSED(relief_terrain_ground(terrain, 0, 0, &ground), RELIEF_STATUS_INVALID_ARGUMENT);
        EXPECT(ground.struct_size == 0 && ground.found == 0);
        river.struct_size = sizeof river - 4;
        REFUSED(relief_terrain_river(terrain, 0, 0, 1e4, &river), RELIEF_STATUS_INVALID_ARGUMENT);
        EXPECT(river.struct_size == sizeof river - 4 && river.found == 0);
        river.struct_size = sizeof river;
        OK(relief_terrain_river(terrain, 0, 0, 1e4, &river));
        EXPECT(river.struct_size == sizeof river);
        memset(&lake, 0, sizeof lake);
        lake.struct_size = 2 * sizeof lake;
        REFUSED(relief_terrain_lake(terrain, 0, 0, 1e4, &lake), RELIEF_STATUS_INVALID_ARGUMENT);
        lake.struct_size = sizeof lake;
        OK(relief_terrain_lake(terrain, 0, 0, 1e4, &lake));
    }
    REFUSED(relief_terrain_biome(terrain, 0, 0, NULL, &settled), RELIEF_STATUS_INVALID_ARGUMENT);
    {
        float h = 1.0f;
        relief_origin origin = 99;
        OK(relief_terrain_height(terrain, NAN, 0, &h, &origin));
        EXPECT(isnan(h) && origin == RELIEF_ORIGIN_OUTSIDE);
    }

    /* Collision: bad chunk sizes, unknown config sizes, views of unbuilt chunks. */
    REFUSED(relief_collision_create(streamer, NULL, 3.3, &collision),
            RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_collision_create(streamer, NULL, NAN, &collision),
            RELIEF_STATUS_INVALID_ARGUMENT);
    config.struct_size = 12;
    collision = csentinel;
    REFUSED(relief_collision_create(streamer, &config, 0, &collision),
            RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(collision == csentinel);
    OK(relief_collision_create(streamer, NULL, 0, &collision));
    memset(&chunk, 0, sizeof chunk);
    chunk.struct_size = sizeof chunk;
    REFUSED(relief_collision_acquire(collision, 0, 0, 0, &chunk), RELIEF_STATUS_NOT_FOUND);
    REFUSED(relief_collision_acquire(collision, 1, 0, 0, &chunk), RELIEF_STATUS_INVALID_ARGUMENT);
    {
        double bad[3] = {NAN, 0, 0};
        REFUSED(relief_collision_chunk_at(collision, bad, &chunk.face, &chunk.x, &chunk.z),
                RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_collision_chunk_at(collision, NULL, &chunk.face, &chunk.x, &chunk.z),
                RELIEF_STATUS_INVALID_ARGUMENT);
    }
    REFUSED(relief_collision_poll_events(collision, NULL, sizeof(relief_event), 1, &n), RELIEF_STATUS_INVALID_ARGUMENT);
    relief_collision_release(&chunk);
    relief_collision_release(NULL);

    /* Clipmaps: impossible shapes, levels out of range, undersized rectangle buffers. */
    OK(relief_clipmap_config_default(&cconfig));
    cconfig.size = 127;
    REFUSED(relief_clipmap_create(terrain, &cconfig, &clipmap), RELIEF_STATUS_INVALID_ARGUMENT);
    cconfig.size = 64;
    cconfig.levels = 0;
    REFUSED(relief_clipmap_create(terrain, &cconfig, &clipmap), RELIEF_STATUS_INVALID_ARGUMENT);
    cconfig.levels = 3;
    cconfig.struct_size = sizeof cconfig * 2;
    REFUSED(relief_clipmap_create(terrain, &cconfig, &clipmap), RELIEF_STATUS_INVALID_ARGUMENT);
    cconfig.struct_size = sizeof cconfig;
    OK(relief_clipmap_create(terrain, &cconfig, &clipmap));
    memset(&level, 0, sizeof level);
    level.struct_size = sizeof level;
    OK(relief_clipmap_get_level(clipmap, 0, &level));
    EXPECT(level.filled == 0 && level.size == 64);
    REFUSED(relief_clipmap_get_level(clipmap, 3, &level), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_clipmap_update(clipmap, 0, 0, 0, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
    OK(relief_clipmap_update(clipmap, 100, 0, 100, &n));
    EXPECT(n >= 3);
    REFUSED(relief_clipmap_get_dirty(clipmap, rects, sizeof(relief_dirty_rect), 1, &n), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_clipmap_get_dirty(clipmap, NULL, sizeof(relief_dirty_rect), 4, &n), RELIEF_STATUS_INVALID_ARGUMENT);
    OK(relief_clipmap_get_dirty(clipmap, NULL, sizeof(relief_dirty_rect), 0, &n));
    EXPECT(n >= 3);
    REFUSED(relief_clipmap_get_dirty(clipmap, NULL, sizeof(relief_dirty_rect) / 2, 0, &n),
            RELIEF_STATUS_INVALID_ARGUMENT);
    OK(relief_clipmap_get_level(clipmap, 2, &level));
    EXPECT(level.filled == 1 && level.heights != NULL);

    /* Planets: bad blobs, wrong kinds of streamer, out-of-range faces and fields. */
    {
        relief_planet *planet = NULL, *psentinel = (relief_planet *)&checks;
        relief_streamer *ps = NULL;
        relief_planet_terrain *pt = NULL;
        relief_planet_info pinfo;
        relief_tile_view tile;
        double pos[3] = {0, 0, 0}, xyz[6] = {0, 1, 0, 1, 0, 0};
        float h;
        uint32_t found;
        double value;
        size_t planet_length;
        unsigned char *blob = slurp(argv[3], &planet_length);
        EXPECT(blob != NULL && planet_length > 1000);
        if (blob == NULL)
            return 1;
        planet = psentinel;
        REFUSED(relief_planet_open(NULL, &planet), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_planet_open("/nonexistent/planet.plnt", &planet), RELIEF_STATUS_NOT_FOUND);
        REFUSED(relief_planet_open_memory(blob, planet_length - 1, &planet), RELIEF_STATUS_CORRUPT);
        REFUSED(relief_planet_open_memory(blob, 100, &planet), RELIEF_STATUS_CORRUPT);
        blob[4] = 9; /* a version from the future */
        REFUSED(relief_planet_open_memory(blob, planet_length, &planet), RELIEF_STATUS_UNSUPPORTED_VERSION);
        blob[4] = 7;
        blob[20] ^= 1; /* a header bit */
        REFUSED(relief_planet_open_memory(blob, planet_length, &planet), RELIEF_STATUS_CORRUPT);
        blob[20] ^= 1;
        {
            buffer_reader pbuf;
            relief_reader preader = reader;
            pbuf.bytes = blob;
            pbuf.length = planet_length;
            pbuf.releases = 0;
            pbuf.fail_reads = 1;
            preader.length = planet_length;
            preader.user = &pbuf;
            REFUSED(relief_planet_open_reader(&preader, &planet), RELIEF_STATUS_IO);
            EXPECT(pbuf.releases == 1);
        }
        EXPECT(planet == psentinel);
        OK(relief_planet_open_memory(blob, planet_length, &planet));
        memset(&pinfo, 0, sizeof pinfo);
        pinfo.struct_size = sizeof pinfo + 4;
        REFUSED(relief_planet_get_info(planet, &pinfo), RELIEF_STATUS_INVALID_ARGUMENT);
        pinfo.struct_size = sizeof pinfo;
        OK(relief_planet_get_info(planet, &pinfo));
        EXPECT(pinfo.version == 7 && pinfo.has_v7_fields == 1);
        REFUSED(relief_planet_streamer_create(NULL, NULL, &ps), RELIEF_STATUS_INVALID_ARGUMENT);
        OK(relief_planet_streamer_create(planet, NULL, &ps));
        relief_planet_destroy(planet);
        /* Each kind of streamer refuses the other kind's calls. */
        memset(&view, 0, sizeof view);
        view.struct_size = sizeof view;
        REFUSED(relief_region_acquire(ps, 0, 0, &view), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_terrain_create(ps, &terrain), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_planet_terrain_create(streamer, &pt), RELIEF_STATUS_INVALID_ARGUMENT);
        memset(&tile, 0, sizeof tile);
        tile.struct_size = sizeof tile;
        REFUSED(relief_tile_acquire(streamer, 0, 0, 0, &tile), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_tile_acquire(ps, 6, 0, 0, &tile), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_tile_acquire(ps, 0, 0, 0, &tile), RELIEF_STATUS_NOT_FOUND);
        EXPECT(tile.token == NULL);
        relief_tile_release(&tile);
        relief_tile_release(NULL);
        OK(relief_planet_terrain_create(ps, &pt));
        /* Positions: NULL, the centre, non-finite; fields out of range; small buffers. */
        REFUSED(relief_planet_terrain_height(pt, NULL, &h, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_planet_terrain_height(pt, pos, &h, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        pos[1] = NAN;
        REFUSED(relief_planet_terrain_height(pt, pos, &h, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        pos[1] = pinfo.radius;
        OK(relief_planet_terrain_height(pt, pos, &h, NULL));
        EXPECT(isfinite(h));
        REFUSED(relief_planet_terrain_sample(pt, pos, 3, &found, &value), RELIEF_STATUS_INVALID_ARGUMENT);
        OK(relief_planet_terrain_sample(pt, pos, RELIEF_PLANET_FIELD_SEDIMENT, &found, &value));
        EXPECT(found == 0); /* nothing resident yet */
        REFUSED(relief_planet_terrain_heights(pt, xyz, 2, out, 1, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_planet_terrain_heights(pt, NULL, 2, out, 2, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        OK(relief_planet_terrain_heights(pt, NULL, 0, NULL, 0, NULL));
        {
            relief_planet_river priver;
            memset(&priver, 0, sizeof priver);
            priver.struct_size = sizeof priver;
            REFUSED(relief_planet_terrain_river(pt, pos, -5, &priver), RELIEF_STATUS_INVALID_ARGUMENT);
            priver.struct_size = 0;
            REFUSED(relief_planet_terrain_river(pt, pos, 5, &priver), RELIEF_STATUS_INVALID_ARGUMENT);
        }
        REFUSED(relief_planet_terrain_position_at(pt, NAN, 0, pos), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_planet_get_biome_name(NULL, 0, NULL, 0, &n), RELIEF_STATUS_INVALID_ARGUMENT);
        /* Flat clipmaps refresh regions, planet rings refresh tiles. */
        REFUSED(relief_clipmap_refresh_tile(clipmap, 0, 0, 0, &n), RELIEF_STATUS_INVALID_ARGUMENT);
        {
            relief_clipmap *pr = NULL;
            OK(relief_planet_clipmap_create(pt, NULL, &pr));
            REFUSED(relief_clipmap_refresh_region(pr, 0, 0, &n), RELIEF_STATUS_INVALID_ARGUMENT);
            REFUSED(relief_clipmap_refresh_tile(pr, 6, 0, 0, &n), RELIEF_STATUS_INVALID_ARGUMENT);
            REFUSED(relief_clipmap_update(pr, 0, 0, 0, &n), RELIEF_STATUS_INVALID_ARGUMENT);
            OK(relief_clipmap_update(pr, 0, pinfo.radius, 0, &n));
            EXPECT(n > 0);
            relief_clipmap_destroy(pr);
        }
        relief_planet_terrain_destroy(pt);
        relief_streamer_destroy(ps);
        relief_planet_destroy(NULL);
        relief_planet_terrain_destroy(NULL);
        free(blob);
    }

    /* The runtime object: its arguments, its config (nested struct sizes, flags) and its
     * optional parts are all checked. */
    {
        relief_world *w = NULL;
        relief_runtime *rt = NULL, *rsentinel = (relief_runtime *)&checks;
        relief_runtime_config rc;
        relief_runtime_stats rs;
        relief_region_view rv;
        relief_chunk_view cv;
        relief_clipmap_level lv;
        relief_event ev[4];
        relief_dirty_rect dr[1];
        double at[3] = {0, 0, 0};
        uint32_t face, settled;
        int32_t cx, cz;
        size_t count;
        OK(relief_world_open(argv[1], &w));
        REFUSED(relief_runtime_config_default(NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        OK(relief_runtime_config_default(&rc));
        EXPECT(rc.struct_size == sizeof rc && rc.pieces.struct_size == sizeof rc.pieces);
        REFUSED(relief_runtime_create(NULL, &rc, &rt), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_create(w, &rc, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        rt = rsentinel;
        rc.levels.struct_size += 4;
        REFUSED(relief_runtime_create(w, &rc, &rt), RELIEF_STATUS_INVALID_ARGUMENT);
        EXPECT(rt == rsentinel); /* untouched on failure */
        OK(relief_runtime_config_default(&rc));
        rc.flags = 0x80;
        REFUSED(relief_runtime_create(w, &rc, &rt), RELIEF_STATUS_INVALID_ARGUMENT);
        OK(relief_runtime_config_default(&rc));
        rc.chunk_size_m = 1.5; /* not a whole number of samples */
        REFUSED(relief_runtime_create(w, &rc, &rt), RELIEF_STATUS_INVALID_ARGUMENT);
        EXPECT(strstr(relief_last_error_message(), ": chunk_size_m:") != NULL);
        rc.collision.budget_bytes = 0;
        REFUSED(relief_runtime_create(w, &rc, &rt), RELIEF_STATUS_INVALID_ARGUMENT);
        EXPECT(strstr(relief_last_error_message(), "collision.budget_bytes") != NULL);
        OK(relief_runtime_config_default(&rc));
        rc.levels.size = 127; /* clipmap levels have an even side */
        REFUSED(relief_runtime_create(w, &rc, &rt), RELIEF_STATUS_INVALID_ARGUMENT);
        EXPECT(strstr(relief_last_error_message(), "levels.size") != NULL);
        OK(relief_runtime_config_default(&rc));
        rc.flags = RELIEF_RUNTIME_NO_COLLISION | RELIEF_RUNTIME_NO_LEVELS;
        OK(relief_runtime_create(w, &rc, &rt));
        REFUSED(relief_runtime_update(NULL, 0, 0, 0), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_update(rt, NAN, 0, 0), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_update_with_camera(NULL, 0, 0, 0, 0, 0, 0), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_update_with_camera(rt, 0, 0, 0, 0, INFINITY, 0), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_settle(rt, 0, 0, 0, 10, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        OK(relief_runtime_settle(rt, 0, 0, 0, 30000, &settled));
        EXPECT(settled == 1);
        REFUSED(relief_runtime_poll_events(rt, NULL, sizeof(relief_event), 4, &count), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_poll_events(rt, ev, sizeof(relief_event), 4, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        OK(relief_runtime_poll_events(rt, ev, sizeof(relief_event), 4, &count));
        EXPECT(count > 0 && ev[0].kind == RELIEF_EVENT_LOADED);
        memset(&rs, 0, sizeof rs);
        REFUSED(relief_runtime_get_stats(rt, &rs), RELIEF_STATUS_INVALID_ARGUMENT);
        rs.struct_size = sizeof rs;
        OK(relief_runtime_get_stats(rt, &rs));
        EXPECT(rs.has_chunks == 0 && rs.pieces.ready > 0);
        OK(relief_runtime_get_dirty(rt, NULL, sizeof(relief_dirty_rect), 0, &count));
        EXPECT(count == 0);
        REFUSED(relief_runtime_get_dirty(rt, NULL, sizeof(relief_dirty_rect), 1, &count), RELIEF_STATUS_INVALID_ARGUMENT);
        memset(&lv, 0, sizeof lv);
        lv.struct_size = sizeof lv;
        REFUSED(relief_runtime_get_level(rt, 0, &lv), RELIEF_STATUS_INVALID_ARGUMENT); /* no levels */
        REFUSED(relief_runtime_chunk_at(rt, at, &face, &cx, &cz), RELIEF_STATUS_INVALID_ARGUMENT);
        memset(&cv, 0, sizeof cv);
        cv.struct_size = sizeof cv;
        REFUSED(relief_runtime_acquire_chunk(rt, 0, 0, 0, &cv), RELIEF_STATUS_INVALID_ARGUMENT);
        memset(&rv, 0, sizeof rv);
        rv.struct_size = sizeof rv;
        REFUSED(relief_runtime_acquire_region(rt, 9999, 9999, &rv), RELIEF_STATUS_NOT_FOUND);
        REFUSED(relief_runtime_acquire_region(rt, 0, 0, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        OK(relief_runtime_acquire_region(rt, 0, 0, &rv));
        relief_runtime_destroy(rt); /* the view outlives its runtime */
        EXPECT(isfinite(rv.height[0]));
        relief_region_release(&rv);
        OK(relief_runtime_create(w, NULL, &rt));
        OK(relief_runtime_update(rt, 0, 0, 0));
        OK(relief_runtime_update_with_camera(rt, 0, 0, 0, 800, 0, 600));
        OK(relief_runtime_get_dirty(rt, NULL, sizeof(relief_dirty_rect), 0, &count));
        EXPECT(count > 0);
        REFUSED(relief_runtime_get_dirty(rt, dr, sizeof(relief_dirty_rect), 1, &count), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_get_level(rt, 6, &lv), RELIEF_STATUS_INVALID_ARGUMENT);
        OK(relief_runtime_get_level(rt, 0, &lv));
        EXPECT(lv.filled == 1 && lv.plane_up[1] == 1.0);
        REFUSED(relief_runtime_acquire_chunk(rt, 1, 0, 0, &cv), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_chunk_at(rt, NULL, &face, &cx, &cz), RELIEF_STATUS_INVALID_ARGUMENT);
        OK(relief_runtime_chunk_at(rt, at, &face, &cx, &cz));
        EXPECT(face == 0);
        {
            relief_planet_terrain *wrong = NULL;
            REFUSED(relief_runtime_create_planet_terrain(rt, &wrong), RELIEF_STATUS_INVALID_ARGUMENT);
            EXPECT(wrong == NULL);
        }
        relief_runtime_destroy(rt);
        relief_runtime_destroy(NULL);
        relief_world_destroy(w);
    }

    /* Levels wider than a region (7+ on the default world) come from the overview: no
     * division by zero, no PANIC. */
    {
        relief_clipmap *wide = NULL;
        relief_clipmap_config cc;
        size_t dirty;
        OK(relief_clipmap_config_default(&cc));
        cc.levels = 24;
        OK(relief_clipmap_create(terrain, &cc, &wide));
        OK(relief_clipmap_update(wide, 100.0, 0.0, -50.0, &dirty));
        EXPECT(dirty > 0);
        relief_clipmap_destroy(wide);
    }

    /* destroy(NULL) is a no-op for every object. */
    relief_clipmap_destroy(NULL);
    relief_collision_destroy(NULL);
    relief_terrain_destroy(NULL);
    relief_streamer_destroy(NULL);
    relief_world_destroy(NULL);

    relief_clipmap_destroy(clipmap);
    relief_collision_destroy(collision);
    relief_terrain_destroy(terrain);
    EXPECT(buffer.releases == 0); /* the streamer still reads through the callbacks */
    relief_streamer_destroy(streamer);
    EXPECT(buffer.releases == 1);
    free(pack);

    printf("hostile: %d checks, %d failed\n", checks, failures);
    return failures != 0;
}
