/* The C ABI against hostile input: every misuse gets its status, a message, and no effect.
 *
 *   hostile WORLD_DIR WORLD_PACK PLANET
 *
 * Prints one line per failed check and a closing "hostile: N checks, M failed" line; exits
 * with 1 if any failed. Run under AddressSanitizer/UBSan and valgrind by tests/c_abi.rs. */
#define _POSIX_C_SOURCE 199309L
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

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
    relief_set_log(NULL, NULL, 12345);
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
    _Atomic int releases; /* counted on whichever thread relief releases from */
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
    relief_runtime *runtime = NULL, *rsentinel = (relief_runtime *)&checks;
    relief_terrain *terrain = NULL;
    relief_world_info info;
    relief_runtime_config config;
    relief_runtime_stats stats;
    relief_stream_stats sstats;
    relief_event events[8];
    relief_region *region = NULL, *gsentinel = (relief_region *)&checks;
    relief_region_view view;
    relief_chunk *chunk = NULL;
    relief_chunk_view cview;
    relief_level_view level;
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
    EXPECT(strcmp(relief_status_name(RELIEF_STATUS_CORRUPT), "CORRUPT") == 0);
    EXPECT(strcmp(relief_status_name(99), "UNKNOWN") == 0);
    EXPECT(strcmp(relief_event_kind_name(RELIEF_EVENT_CHUNK_READY), "CHUNK_READY") == 0);
    EXPECT(strcmp(relief_event_kind_name(1234), "UNKNOWN") == 0);
    REFUSED(relief_set_log(NULL, NULL, RELIEF_LOG_DEBUG + 1), RELIEF_STATUS_INVALID_ARGUMENT);

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

    {
        /* Descriptors: none, one not open, a directory's, a range past the end, a pack
         * that is no planet; then a good one, which relief duplicates, so ours closes at once. */
        int fd = open(argv[2], O_RDONLY), dir = open(argv[1], O_RDONLY);
        relief_planet *p = NULL;
        relief_world_info info;
        EXPECT(fd >= 0 && dir >= 0);
        REFUSED(relief_world_open_fd(-1, 0, length, &w), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_world_open_fd(1 << 30, 0, length, &w), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_world_open_fd(dir, 0, 1, &w), RELIEF_STATUS_IO);
        REFUSED(relief_world_open_fd(fd, 1, length, &w), RELIEF_STATUS_IO);
        REFUSED(relief_world_open_fd(fd, 0, length, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_planet_open_fd(fd, 0, length, &p), RELIEF_STATUS_CORRUPT);
        EXPECT(w == sentinel && p == NULL);
        OK(relief_world_open_fd(fd, 0, length, &w));
        close(fd);
        close(dir);
        memset(&info, 0, sizeof info);
        info.struct_size = sizeof info;
        OK(relief_world_get_info(w, &info));
        EXPECT(info.region_count > 0);
        relief_world_destroy(w);
        w = sentinel;
    }

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

    /* Runtime configs: the caller's size (older, newer, none), impossible values named as
     * the struct spells them, unknown flags. */
    REFUSED(relief_runtime_config_default(NULL), RELIEF_STATUS_INVALID_ARGUMENT);
    memset(&config, 0xab, sizeof config);
    config.struct_size = 0; /* not set: refused, nothing written */
    REFUSED(relief_runtime_config_default(&config), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(config.flags == 0xabababab);
    config.struct_size = sizeof config + 8; /* a newer header's */
    REFUSED(relief_runtime_config_default(&config), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(config.flags == 0xabababab);
    config.struct_size = sizeof config;
    OK(relief_runtime_config_default(&config));
    EXPECT(config.struct_size == sizeof config && config.load_radius > 0 && config.flags == 0);
    config.budget_bytes = 64u << 20;
    config.struct_size += 8;
    REFUSED(relief_runtime_create(world, &config, &runtime), RELIEF_STATUS_INVALID_ARGUMENT);
    config.struct_size = sizeof config;
    config.load_radius = NAN;
    REFUSED(relief_runtime_create(world, &config, &runtime), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(strstr(relief_last_error_message(), "load_radius") != NULL);
    config.load_radius = -1;
    REFUSED(relief_runtime_create(world, &config, &runtime), RELIEF_STATUS_INVALID_ARGUMENT);
    config.load_radius = 300;
    /* The message names the field as this struct spells it. */
    config.loader_threads = 1000;
    REFUSED(relief_runtime_create(world, &config, &runtime), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(strstr(relief_last_error_message(), "loader_threads") != NULL);
    config.loader_threads = 0;
    config.drop_radius = 200;
    REFUSED(relief_runtime_create(world, &config, &runtime), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(strstr(relief_last_error_message(), ": drop_radius:") != NULL);
    config.drop_radius = 704;
    config.collision_budget_bytes = 0;
    REFUSED(relief_runtime_create(world, &config, &runtime), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(strstr(relief_last_error_message(), "collision_budget_bytes") != NULL);
    config.collision_budget_bytes = 64u << 20;
    config.chunk_size_m = 1.5; /* not a whole number of samples */
    REFUSED(relief_runtime_create(world, &config, &runtime), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(strstr(relief_last_error_message(), ": chunk_size_m:") != NULL);
    config.chunk_size_m = NAN;
    REFUSED(relief_runtime_create(world, &config, &runtime), RELIEF_STATUS_INVALID_ARGUMENT);
    config.chunk_size_m = 0;
    config.level_size = 127; /* levels have an even side */
    REFUSED(relief_runtime_create(world, &config, &runtime), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(strstr(relief_last_error_message(), "level_size") != NULL);
    config.level_size = 64;
    config.level_count = 0;
    REFUSED(relief_runtime_create(world, &config, &runtime), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(strstr(relief_last_error_message(), "level_count") != NULL);
    config.level_count = 3;
    config.things_chunk_size_m[RELIEF_BAND_NEAR] = 2000; /* 4 to 1024 m */
    REFUSED(relief_runtime_create(world, &config, &runtime), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(strstr(relief_last_error_message(), "things_chunk_size_m[RELIEF_BAND_NEAR]") != NULL);
    config.things_chunk_size_m[RELIEF_BAND_NEAR] = 32;
    config.things_drop_radius[RELIEF_BAND_FAR] = 1; /* below its load radius */
    REFUSED(relief_runtime_create(world, &config, &runtime), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(strstr(relief_last_error_message(), "things_drop_radius[RELIEF_BAND_FAR]") != NULL);
    config.things_drop_radius[RELIEF_BAND_FAR] = 512;
    config.flags = 0x80;
    REFUSED(relief_runtime_create(world, &config, &runtime), RELIEF_STATUS_INVALID_ARGUMENT);
    config.flags = 0;
    REFUSED(relief_runtime_create(NULL, &config, &runtime), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_runtime_create(world, &config, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
    runtime = rsentinel;
    config.struct_size = 12;
    REFUSED(relief_runtime_create(world, &config, &runtime), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(runtime == rsentinel); /* untouched on failure */
    config.struct_size = sizeof config;
    OK(relief_runtime_create(world, &config, &runtime));
    relief_world_destroy(world); /* the runtime keeps what it needs */
    world = NULL;

    /* Runtime calls: NULL handles, non-finite positions, NULL buffers with lengths. */
    REFUSED(relief_runtime_update(NULL, 0, 0, 0), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_runtime_update(runtime, NAN, 0, 0), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_runtime_update(runtime, 0, 0, INFINITY), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_runtime_update_with_camera(NULL, 0, 0, 0, 0, 0, 0), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_runtime_update_with_camera(runtime, 0, 0, 0, 0, INFINITY, 0), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_runtime_poll_events(runtime, NULL, sizeof(relief_event), 5, &n), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_runtime_poll_events(runtime, events, sizeof(relief_event), 8, NULL),
            RELIEF_STATUS_INVALID_ARGUMENT);
    n = 99;
    OK(relief_runtime_poll_events(runtime, NULL, sizeof(relief_event), 0, &n));
    EXPECT(n == 0);
    /* Event arrays say how big their elements are: a size relief doesn't know is refused. */
    n = 99;
    REFUSED(relief_runtime_poll_events(runtime, events, sizeof(relief_event) + 8, 8, &n),
            RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_runtime_poll_events(runtime, NULL, 0, 0, &n), RELIEF_STATUS_INVALID_ARGUMENT);
    EXPECT(n == 99);
    memset(&stats, 0, sizeof stats);
    REFUSED(relief_runtime_get_stats(runtime, &stats), RELIEF_STATUS_INVALID_ARGUMENT);
    stats.struct_size = sizeof stats;
    REFUSED(relief_runtime_get_stats(NULL, &stats), RELIEF_STATUS_INVALID_ARGUMENT);
    OK(relief_runtime_get_stats(runtime, &stats));
    EXPECT(stats.flags == 0 && stats.struct_size == sizeof stats);
    /* An older caller's smaller struct (0.2.0's: before the progress fields) is filled as far
     * as it reaches, and not a byte further. */
    memset(&stats, 0xab, sizeof stats);
    stats.struct_size = offsetof(relief_runtime_stats, pieces_wanted);
    OK(relief_runtime_get_stats(runtime, &stats));
    EXPECT(stats.struct_size == offsetof(relief_runtime_stats, pieces_wanted));
    EXPECT(stats.flags == 0 && stats.pieces_wanted == 0xabababab && stats.chunks_ready == 0xabababab);
    stats.struct_size = offsetof(relief_runtime_stats, level_cells_total);
    REFUSED(relief_runtime_get_stats(runtime, &stats), RELIEF_STATUS_INVALID_ARGUMENT);
    stats.struct_size = sizeof stats;
    memset(&sstats, 0, sizeof sstats);
    sstats.struct_size = sizeof sstats;
    REFUSED(relief_runtime_get_stream_stats(runtime, RELIEF_STREAM_THINGS + 3, &sstats), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_runtime_get_stream_stats(runtime, RELIEF_STREAM_PIECES, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
    OK(relief_runtime_get_stream_stats(runtime, RELIEF_STREAM_PIECES, &sstats));
    EXPECT(sstats.budget_bytes == (64u << 20));
    OK(relief_runtime_get_stream_stats(runtime, RELIEF_STREAM_CHUNKS, &sstats));
    EXPECT(sstats.budget_bytes == (64u << 20));
    REFUSED(relief_runtime_settle(runtime, 0, 0, 0, 10, NULL), RELIEF_STATUS_INVALID_ARGUMENT);

    /* Held regions: not resident yet, NULL out-pointers, the view's size. */
    region = gsentinel;
    REFUSED(relief_runtime_acquire_region(runtime, info.region_min_x, info.region_min_z, &region),
            RELIEF_STATUS_NOT_FOUND);
    EXPECT(region == gsentinel);
    REFUSED(relief_runtime_acquire_region(runtime, 0, 0, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_runtime_acquire_region(NULL, 0, 0, &region), RELIEF_STATUS_INVALID_ARGUMENT);
    {
        double extent = info.region_size * info.vertex_spacing;
        double x = (info.region_min_x + 0.5) * extent, z = (info.region_min_z + 0.5) * extent;
        relief_region *again = NULL;
        relief_region_view copy;
        OK(relief_runtime_settle(runtime, x, 0, z, 60000, &settled));
        EXPECT(settled == 1);
        OK(relief_runtime_get_stats(runtime, &stats));
        EXPECT(stats.pieces_wanted > 0 && stats.pieces_ready == stats.pieces_wanted);
        OK(relief_runtime_acquire_region(runtime, info.region_min_x, info.region_min_z, &region));
        REFUSED(relief_region_get_view(region, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        view.struct_size = 4;
        REFUSED(relief_region_get_view(region, &view), RELIEF_STATUS_INVALID_ARGUMENT);
        view.struct_size = sizeof view;
        OK(relief_region_get_view(region, &view));
        EXPECT(view.height != NULL && view.size == info.region_size);
        /* Held twice: two handles, each released on its own; a view is a plain copy. */
        OK(relief_runtime_acquire_region(runtime, info.region_min_x, info.region_min_z, &again));
        EXPECT(again != region);
        copy = view;
        relief_region_release(again);
        /* The held region outlives its residency: move away, then read it. */
        OK(relief_runtime_update(runtime, x + 1e6, 0, z + 1e6));
        EXPECT(isfinite(copy.height[copy.size * copy.size - 1]));
        relief_region_release(region);
        region = NULL;
        relief_region_release(NULL);
        OK(relief_runtime_settle(runtime, x, 0, z, 60000, &settled));
    }

    /* Queries: undersized and NULL buffers, bad radii; (NULL, 0) is fine. */
    OK(relief_runtime_create_terrain(runtime, &terrain));
    REFUSED(relief_runtime_create_terrain(NULL, &terrain), RELIEF_STATUS_INVALID_ARGUMENT);
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

    /* Collision chunks: faces a flat world doesn't have, unbuilt chunks, bad positions. */
    {
        double bad[3] = {NAN, 0, 0}, at[3] = {0, 0, 0};
        relief_chunk *csentinel = (relief_chunk *)&checks;
        uint32_t face;
        int32_t cx, cz;
        chunk = csentinel;
        REFUSED(relief_runtime_acquire_chunk(runtime, 0, 100000, 0, &chunk), RELIEF_STATUS_NOT_FOUND);
        REFUSED(relief_runtime_acquire_chunk(runtime, 1, 0, 0, &chunk), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_acquire_chunk(runtime, 0, 0, 0, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        EXPECT(chunk == csentinel);
        REFUSED(relief_runtime_chunk_at(runtime, bad, &face, &cx, &cz), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_chunk_at(runtime, NULL, &face, &cx, &cz), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_chunk_at(runtime, at, NULL, &cx, &cz), RELIEF_STATUS_INVALID_ARGUMENT);
        at[0] = (info.region_min_x + 0.5) * info.region_size * info.vertex_spacing;
        at[2] = (info.region_min_z + 0.5) * info.region_size * info.vertex_spacing;
        OK(relief_runtime_chunk_at(runtime, at, &face, &cx, &cz));
        EXPECT(face == 0);
        OK(relief_runtime_acquire_chunk(runtime, face, cx, cz, &chunk));
        cview.struct_size = sizeof cview + 4;
        REFUSED(relief_chunk_get_view(chunk, &cview), RELIEF_STATUS_INVALID_ARGUMENT);
        cview.struct_size = sizeof cview;
        OK(relief_chunk_get_view(chunk, &cview));
        EXPECT(cview.samples > 1 && cview.heights != NULL && cview.up[1] == 1.0);
        relief_chunk_release(chunk);
        chunk = NULL;
        relief_chunk_release(NULL);
    }

    /* Placed things: unknown bands and faces, unplaced chunks, kinds past the table, bad
     * positions and radii, undersized hit buffers. */
    {
        double bad[3] = {NAN, 0, 0}, at[3] = {0, 0, 0};
        relief_things *tsentinel = (relief_things *)&checks, *things = tsentinel;
        relief_things_view tview;
        relief_thing_kind kind;
        relief_thing_hit hits[4];
        uint32_t kinds = 0;
        size_t found = 0;
        REFUSED(relief_runtime_acquire_things(runtime, 3, 0, 0, 0, &things), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_acquire_things(runtime, RELIEF_BAND_NEAR, 1, 0, 0, &things), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_acquire_things(runtime, RELIEF_BAND_NEAR, 0, 100000, 0, &things), RELIEF_STATUS_NOT_FOUND);
        REFUSED(relief_runtime_acquire_things(runtime, RELIEF_BAND_NEAR, 0, 0, 0, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_acquire_things(NULL, RELIEF_BAND_NEAR, 0, 0, 0, &things), RELIEF_STATUS_INVALID_ARGUMENT);
        EXPECT(things == tsentinel);
        OK(relief_runtime_thing_kind_count(runtime, &kinds));
        EXPECT(kinds == 6); /* a baked world's default table */
        REFUSED(relief_runtime_thing_kind_count(runtime, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        kind.struct_size = sizeof kind;
        REFUSED(relief_runtime_get_thing_kind(runtime, kinds, &kind), RELIEF_STATUS_NOT_FOUND);
        REFUSED(relief_runtime_get_thing_kind(runtime, 0, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        kind.struct_size = sizeof kind + 4;
        REFUSED(relief_runtime_get_thing_kind(runtime, 0, &kind), RELIEF_STATUS_INVALID_ARGUMENT);
        kind.struct_size = sizeof kind;
        OK(relief_runtime_get_thing_kind(runtime, 0, &kind));
        EXPECT(kind.name != NULL && strlen(kind.name) > 0 && kind.band <= RELIEF_BAND_FAR &&
               kind.shape <= RELIEF_SHAPE_BOX && kind.spacing_m >= 2 * kind.footprint_m);
        REFUSED(relief_runtime_things_within(runtime, bad, 10, NULL, sizeof *hits, 0, &found), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_things_within(runtime, at, -1, NULL, sizeof *hits, 0, &found), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_things_within(runtime, at, NAN, NULL, sizeof *hits, 0, &found), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_things_within(runtime, at, 10, NULL, sizeof *hits, 4, &found), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_things_within(runtime, at, 10, hits, sizeof *hits / 2, 4, &found), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_things_within(runtime, NULL, 10, hits, sizeof *hits, 4, &found), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_things_within(runtime, at, 10, hits, sizeof *hits, 4, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        /* Every placed thing (a radius past the world), four of them written, nearest first. */
        OK(relief_runtime_things_within(runtime, at, 1e7, hits, sizeof *hits, 4, &found));
        if (found > 0) {
            size_t kept = found < 4 ? found : 4, i;
            for (i = 1; i < kept; ++i) EXPECT(hits[i - 1].distance <= hits[i].distance);
            OK(relief_runtime_acquire_things(runtime, hits[0].band, hits[0].face, hits[0].x, hits[0].z, &things));
            tview.struct_size = sizeof tview + 4;
            REFUSED(relief_things_get_view(things, &tview), RELIEF_STATUS_INVALID_ARGUMENT);
            REFUSED(relief_things_get_view(things, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
            tview.struct_size = sizeof tview;
            OK(relief_things_get_view(things, &tview));
            EXPECT(hits[0].index < tview.count && tview.ids[hits[0].index] == hits[0].id);
            relief_things_release(things);
        }
        things = NULL;
        relief_things_release(NULL);
    }

    /* Levels: out of range, undersized rectangle buffers, element sizes. */
    memset(&level, 0, sizeof level);
    level.struct_size = sizeof level;
    REFUSED(relief_runtime_get_level(runtime, 3, &level), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_runtime_get_level(runtime, 0, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
    OK(relief_runtime_update(runtime, 100, 0, 100));
    OK(relief_runtime_get_dirty(runtime, NULL, sizeof(relief_dirty_rect), 0, &n));
    EXPECT(n >= 1);
    if (n > 1)
        REFUSED(relief_runtime_get_dirty(runtime, rects, sizeof(relief_dirty_rect), 1, &n), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_runtime_get_dirty(runtime, NULL, sizeof(relief_dirty_rect), 4, &n), RELIEF_STATUS_INVALID_ARGUMENT);
    REFUSED(relief_runtime_get_dirty(runtime, NULL, sizeof(relief_dirty_rect) / 2, 0, &n),
            RELIEF_STATUS_INVALID_ARGUMENT);
    OK(relief_runtime_get_level(runtime, 2, &level));
    EXPECT(level.filled == 1 && level.heights != NULL && level.size == 64);

    /* Planets: bad blobs, wrong kinds of runtime, out-of-range faces and fields. */
    {
        relief_planet *planet = NULL, *psentinel = (relief_planet *)&checks;
        relief_runtime *prt = NULL;
        relief_planet_terrain *pt = NULL;
        relief_planet_info pinfo;
        relief_tile *tile = NULL;
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
        REFUSED(relief_planet_runtime_create(NULL, NULL, &prt), RELIEF_STATUS_INVALID_ARGUMENT);
        OK(relief_planet_runtime_create(planet, NULL, &prt));
        relief_planet_destroy(planet);
        /* Each kind of runtime refuses the other kind's calls. */
        REFUSED(relief_runtime_acquire_region(prt, 0, 0, &region), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_create_terrain(prt, &terrain), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_create_planet_terrain(runtime, &pt), RELIEF_STATUS_INVALID_ARGUMENT);
        EXPECT(pt == NULL);
        REFUSED(relief_runtime_acquire_tile(runtime, 0, 0, 0, &tile), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_acquire_tile(prt, 6, 0, 0, &tile), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_acquire_tile(prt, 0, 0, 0, &tile), RELIEF_STATUS_NOT_FOUND);
        REFUSED(relief_runtime_acquire_tile(prt, 0, 0, 0, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        EXPECT(tile == NULL);
        relief_tile_release(NULL);
        OK(relief_runtime_create_planet_terrain(prt, &pt));
        /* Positions: NULL, the centre, non-finite; fields out of range; small buffers. */
        REFUSED(relief_planet_terrain_height(pt, NULL, &h, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_planet_terrain_height(pt, pos, &h, NULL), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_update(prt, 0, 0, 0), RELIEF_STATUS_INVALID_ARGUMENT);
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
        /* A planet's rings and tiles, once resident. */
        OK(relief_runtime_settle(prt, 0, pinfo.radius, 0, 60000, &settled));
        EXPECT(settled == 1);
        OK(relief_runtime_get_level(prt, 0, &level));
        EXPECT(level.filled == 1 && level.plane_up[1] > 0.99);
        {
            relief_event pe[64];
            size_t k, got = 0;
            do {
                OK(relief_runtime_poll_events(prt, pe, sizeof(relief_event), 64, &n));
                for (k = 0; k < n && tile == NULL; ++k)
                    if (pe[k].kind == RELIEF_EVENT_LOADED &&
                        relief_runtime_acquire_tile(prt, pe[k].face, (uint32_t)pe[k].x,
                                                    (uint32_t)pe[k].z, &tile) == RELIEF_STATUS_OK)
                        ++got;
            } while (n == 64);
            EXPECT(got == 1);
        }
        if (tile != NULL) {
            relief_tile_view tv;
            tv.struct_size = sizeof tv;
            OK(relief_tile_get_view(tile, &tv));
            relief_runtime_destroy(prt); /* the held tile outlives its runtime */
            prt = NULL;
            EXPECT(tv.size == pinfo.tile_size && isfinite(tv.height[tv.size * tv.size - 1]));
            relief_tile_release(tile);
        }
        relief_planet_terrain_destroy(pt);
        relief_runtime_destroy(prt);
        relief_planet_destroy(NULL);
        relief_planet_terrain_destroy(NULL);
        free(blob);
    }

    /* A runtime without its optional parts refuses their calls. */
    {
        relief_world *wd = NULL;
        relief_runtime *bare = NULL;
        relief_runtime_config rc;
        double at[3] = {0, 0, 0};
        uint32_t face;
        int32_t cx, cz;
        size_t count;
        OK(relief_world_open(argv[1], &wd));
        rc.struct_size = sizeof rc;
        OK(relief_runtime_config_default(&rc));
        rc.flags = RELIEF_RUNTIME_NO_COLLISION | RELIEF_RUNTIME_NO_LEVELS;
        OK(relief_runtime_create(wd, &rc, &bare));
        OK(relief_runtime_settle(bare, 0, 0, 0, 30000, &settled));
        EXPECT(settled == 1);
        OK(relief_runtime_get_stats(bare, &stats));
        EXPECT(stats.flags == rc.flags && stats.chunks_wanted == 0 && stats.pieces_ready > 0);
        REFUSED(relief_runtime_get_stream_stats(bare, RELIEF_STREAM_CHUNKS, &sstats), RELIEF_STATUS_INVALID_ARGUMENT);
        OK(relief_runtime_get_dirty(bare, NULL, sizeof(relief_dirty_rect), 0, &count));
        EXPECT(count == 0);
        REFUSED(relief_runtime_get_level(bare, 0, &level), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_chunk_at(bare, at, &face, &cx, &cz), RELIEF_STATUS_INVALID_ARGUMENT);
        REFUSED(relief_runtime_acquire_chunk(bare, 0, 0, 0, &chunk), RELIEF_STATUS_INVALID_ARGUMENT);
        relief_runtime_destroy(bare);
        /* Levels wider than a region (7+ on the default world) come from the overview: no
         * division by zero, no PANIC. */
        rc.flags = RELIEF_RUNTIME_NO_COLLISION;
        rc.level_count = 24;
        rc.level_size = 32;
        OK(relief_runtime_create(wd, &rc, &bare));
        OK(relief_runtime_update(bare, 100.0, 0.0, -50.0));
        OK(relief_runtime_get_dirty(bare, NULL, sizeof(relief_dirty_rect), 0, &count));
        EXPECT(count > 0);
        relief_runtime_destroy(bare);
        relief_world_destroy(wd);
    }

    /* destroy(NULL) is a no-op for every object. */
    relief_runtime_destroy(NULL);
    relief_terrain_destroy(NULL);
    relief_world_destroy(NULL);
    relief_region_release(NULL);
    relief_tile_release(NULL);
    relief_chunk_release(NULL);

    relief_terrain_destroy(terrain);
    EXPECT(buffer.releases == 0); /* the runtime still reads through the callbacks */
    relief_runtime_destroy(runtime);
    {
        /* Released exactly once: at destroy, or — when a load through the reader was still
         * running — by the loader thread as that load ends. */
        struct timespec ms = {0, 1000000L};
        int waited = 0;
        while (buffer.releases == 0 && waited++ < 30000)
            nanosleep(&ms, NULL);
        EXPECT(buffer.releases == 1);
        nanosleep(&ms, NULL);
        EXPECT(buffer.releases == 1);
    }
    free(pack);

    printf("hostile: %d checks, %d failed\n", checks, failures);
    return failures != 0;
}
