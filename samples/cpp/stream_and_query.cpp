// stream_and_query: relief's C++ wrapper (include/relief.hpp) end to end.
//
//   stream_and_query WORLD_DIR_OR_PACK      a flat world
//   stream_and_query PLANET.plnt            a planet
//
// Opens the ground, creates a Runtime, settles at the start of a straight route (a loading
// screen), then walks the route for 120 frames calling update() once a frame. Every event is
// handled: each Loaded region (or tile) and ChunkReady chunk is acquired, read through its
// spans and checked, and released; LevelsDirty rects are read and checked; a borrowed level
// view is checked every few frames. Meanwhile a second std::thread asks the terrain queries
// (height, normal, batch heights and normals, ground, biome, river, lake; the planet
// equivalents). At the end it settles, compares batch queries with single ones, checks that a
// held region outlives its runtime, prints a summary and exits 0 only if every check held.
#include "relief.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace {

constexpr int kFrames = 120;

std::atomic<int> g_failed{0};
std::atomic<long> g_passed{0};

// Counts one check; prints it when it fails. Safe from both threads.
bool check(bool cond, const char* fmt, ...) {
    if (cond) {
        ++g_passed;
        return true;
    }
    ++g_failed;
    va_list args;
    va_start(args, fmt);
    std::fputs("FAIL: ", stderr);
    std::vfprintf(stderr, fmt, args);
    std::fputc('\n', stderr);
    va_end(args);
    return false;
}

template <class T>
bool check_ok(const relief::Result<T>& r, const char* what) {
    return check(r.ok(), "%s: %s", what, r.error().message.c_str());
}

// Lowest and highest non-NaN value of a span, and how many NaNs.
struct Range {
    float lo = std::numeric_limits<float>::infinity();
    float hi = -std::numeric_limits<float>::infinity();
    std::size_t nan = 0;
};
Range range_of(relief::span<const float> values) {
    Range r;
    for (float v : values) {
        if (std::isnan(v)) { ++r.nan; continue; }
        r.lo = std::min(r.lo, v);
        r.hi = std::max(r.hi, v);
    }
    return r;
}

double length(const relief::Vec3& v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }
double dot(const relief::Vec3& a, const relief::Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
relief::Vec3 cross(const relief::Vec3& a, const relief::Vec3& b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
bool same_float(float a, float b) { return (std::isnan(a) && std::isnan(b)) || a == b; }
bool unit(const relief::Vec3f& n) { return std::fabs(std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) - 1.0f) < 1e-3f; }

using Key = std::tuple<uint32_t, int32_t, int32_t>;
Key key_of(const relief::Event& e) { return Key{e.face, e.x, e.z}; }

// Everything the walk learns, for the checks and the summary.
struct Walk {
    bool planet = false;
    relief::WorldInfo world{};
    relief::PlanetInfo info{};
    float hmin = 0, hmax = 0;
    relief::RuntimeConfig config;
    const relief::Terrain* terrain = nullptr;  // flat worlds: cross-checks against the views
    std::set<Key> resident, built;             // per the events: pieces and chunks
    relief::Region kept;                       // the first region, read again after the runtime is gone
    double kept_sum = 0;
    int loaded = 0, unloaded = 0, chunks_ready = 0, chunks_dropped = 0, missed = 0;
    int things_ready = 0, things_dropped = 0;
    long things = 0;
    int dirty_events = 0, dirty_rects = 0, levels_checked = 0, levels_unfilled = 0;
    long samples_read = 0;
};

double sum_of(relief::span<const float> s) {
    double total = 0;
    for (float v : s) if (!std::isnan(v)) total += v;
    return total;
}

// ---- held views ------------------------------------------------------------------------

void check_region(relief::Region region, Walk& w) {
    const relief::WorldInfo& wi = w.world;
    const double extent = wi.region_size * wi.vertex_spacing;
    check(region.size() == wi.region_size && region.vertex_spacing() == wi.vertex_spacing,
          "region (%d, %d): size %u spacing %g", region.x(), region.z(), region.size(), region.vertex_spacing());
    check(region.origin_x() == region.x() * extent && region.origin_z() == region.z() * extent,
          "region (%d, %d): origin (%g, %g)", region.x(), region.z(), region.origin_x(), region.origin_z());
    const relief::span<const float> heights = region.heights();
    check(heights.size() == region.sample_count(), "region heights: %zu samples", heights.size());
    const Range r = range_of(heights);
    check(r.nan < heights.size() && r.lo >= w.hmin && r.hi <= w.hmax,
          "region (%d, %d): heights [%g, %g] outside the world's [%g, %g]", region.x(), region.z(), r.lo, r.hi, w.hmin, w.hmax);
    check(region.color().size() == 4 * region.sample_count() && region.control().size() == region.sample_count(),
          "region color/control spans: %zu, %zu", region.color().size(), region.control().size());
    bool biomes_ok = true;
    for (uint8_t b : region.biome()) biomes_ok = biomes_ok && b < wi.biome_count;
    check(biomes_ok, "region (%d, %d): a biome id >= %u", region.x(), region.z(), wi.biome_count);
    // The terrain answers from the same samples: a height query exactly at a sample.
    const uint32_t i = region.size() / 2, j = region.size() / 3;
    const auto h = w.terrain->height(region.origin_x() + i * region.vertex_spacing(), region.origin_z() + j * region.vertex_spacing());
    if (check_ok(h, "terrain.height at a region sample"))
        check(h->origin == relief::Origin::Region && std::fabs(h->height - heights[region.index(i, j)]) < 1e-3f,
              "terrain.height %g (origin %u) vs region sample %g", h->height, unsigned(h->origin), heights[region.index(i, j)]);
    w.samples_read += long(heights.size());
    if (!w.kept) {  // keep one: it must stay valid after the runtime is destroyed
        w.kept_sum = sum_of(heights);
        w.kept = std::move(region);
    }
}

void check_tile(const relief::Tile& tile, Walk& w) {
    const relief::PlanetInfo& pi = w.info;
    check(tile.face() < 6 && tile.tx() < pi.tiles_per_side && tile.ty() < pi.tiles_per_side && tile.size() == pi.tile_size,
          "tile (%u, %u, %u) size %u", tile.face(), tile.tx(), tile.ty(), tile.size());
    const Range r = range_of(tile.heights());
    check(tile.heights().size() == tile.sample_count() && r.lo >= w.hmin && r.hi <= w.hmax,
          "tile (%u, %u, %u): heights [%g, %g] outside [%g, %g]", tile.face(), tile.tx(), tile.ty(), r.lo, r.hi, w.hmin, w.hmax);
    const bool v7 = pi.has_v7_fields != 0;
    check(tile.sediment().empty() != v7 && tile.precipitation().empty() != v7, "tile v7 fields present iff has_v7_fields");
    bool biomes_ok = true;
    for (uint8_t b : tile.biome()) biomes_ok = biomes_ok && b < pi.biome_count;
    check(biomes_ok && tile.lake().size() == tile.sample_count(), "tile biome/lake spans");
    w.samples_read += long(tile.heights().size());
}

void check_chunk(const relief::Chunk& chunk, Walk& w) {
    const relief::span<const float> heights = chunk.heights();
    check(chunk.samples() >= 2 && heights.size() == std::size_t(chunk.samples()) * chunk.samples(),
          "chunk (%u, %d, %d): %u samples", chunk.face(), chunk.x(), chunk.z(), chunk.samples());
    const Range r = range_of(heights);
    if (r.nan == heights.size())
        check(chunk.min_height() == 0 && chunk.max_height() == 0, "all-hole chunk min/max not 0");
    else
        check(r.lo == chunk.min_height() && r.hi == chunk.max_height(), "chunk (%u, %d, %d): spans [%g, %g], view says [%g, %g]",
              chunk.face(), chunk.x(), chunk.z(), r.lo, r.hi, chunk.min_height(), chunk.max_height());
    if (w.planet) {  // heights are along the chunk's own `up`: placed, every sample lies on the planet's relief
        double lo = 1e300, hi = -1e300;
        for (uint32_t j = 0; j < chunk.samples(); ++j)
            for (uint32_t i = 0; i < chunk.samples(); ++i) {
                if (std::isnan(heights[chunk.index(i, j)])) continue;
                const double above = length(chunk.sample_position(i, j)) - w.info.radius;
                lo = std::min(lo, above);
                hi = std::max(hi, above);
            }
        check(lo >= w.hmin - 1.0 && hi <= w.hmax + 1.0, "planet chunk (%u, %d, %d) placed at [%g, %g] above the radius",
              chunk.face(), chunk.x(), chunk.z(), lo, hi);
    } else {
        check(r.lo >= w.hmin && r.hi <= w.hmax, "chunk heights [%g, %g] outside the world's", r.lo, r.hi);
    }
    // One material byte per cell (a texture slot 0–31 on a flat world, a ground class on a
    // planet), for a physics material or a footstep sound.
    const std::size_t cells = std::size_t(chunk.samples() - 1) * (chunk.samples() - 1);
    check(chunk.materials().size() == cells, "chunk (%u, %d, %d): %zu materials for %zu cells", chunk.face(),
          chunk.x(), chunk.z(), chunk.materials().size(), cells);
    if (!w.planet)
        for (const uint8_t m : chunk.materials()) check(m < 32, "a flat cell's texture slot %u past 31", unsigned(m));
    const relief::Vec3 ax = chunk.axis_x(), up = chunk.up(), az = chunk.axis_z(), c = cross(ax, up);
    check(std::fabs(length(ax) - 1) < 1e-9 && std::fabs(length(up) - 1) < 1e-9 && std::fabs(dot(ax, up)) < 1e-9 &&
              length({az[0] - c[0], az[1] - c[1], az[2] - c[2]}) < 1e-9,
          "chunk frame not orthonormal (axis_z = axis_x x up)");
    if (!w.planet) {
        const double size = (chunk.samples() - 1) * chunk.spacing();
        check(chunk.origin() == relief::Vec3{0, 0, 0} && ax == relief::Vec3{1, 0, 0} && up == relief::Vec3{0, 1, 0},
              "flat chunk frame is not the world's");
        check(std::fabs(chunk.corner_x() - chunk.x() * size) < 1e-6 && std::fabs(chunk.corner_z() - chunk.z() * size) < 1e-6,
              "chunk (%d, %d): corner (%g, %g), side %g", chunk.x(), chunk.z(), chunk.corner_x(), chunk.corner_z(), size);
        const uint32_t i = chunk.samples() / 2, j = chunk.samples() / 4;
        const relief::Vec3 p = chunk.sample_position(i, j);
        const auto h = w.terrain->height(p[0], p[2]);
        if (check_ok(h, "terrain.height at a chunk sample") && h->origin == relief::Origin::Region && !std::isnan(p[1]))
            check(std::fabs(h->height - p[1]) < 1e-3, "chunk sample %g vs terrain %g", p[1], h->height);
    }
    w.samples_read += long(heights.size());
}

// A thing chunk read as an engine fills its instance buffers: every run's rows are its
// kind's MultiMesh buffer, the matrices Unity's, each thing on the ground the terrain reports.
void check_things(const relief::Things& t, Walk& w) {
    std::size_t in_runs = 0;
    for (const relief_thing_run& r : t.runs()) {
        check(r.start == in_runs && t.rows_of(r).size() == std::size_t(r.count) * 12, "thing runs not in order");
        in_runs += r.count;
    }
    check(in_runs == t.count() && t.ids().size() == t.count(), "runs cover %zu of %zu things", in_runs, t.count());
    for (std::size_t i = 0; i < t.count(); ++i) {
        const float* row = &t.rows()[i * 12];
        const float* m = &t.matrices()[i * 16];
        for (int c = 0; c < 4; ++c)
            check(row[c] == m[4 * c] && row[4 + c] == m[4 * c + 1] && row[8 + c] == m[4 * c + 2], "thing %zu: rows and matrix differ", i);
        check(row[3] == t.positions()[i * 3] && row[11] == t.positions()[i * 3 + 2], "thing %zu: origin is not its position", i);
    }
    if (!w.planet && t.count() > 0) {
        const auto h = w.terrain->height(t.positions()[0], t.positions()[2]);
        if (check_ok(h, "terrain.height under a thing") && h->origin == relief::Origin::Region)
            check(std::fabs(h->height - t.positions()[1]) < 1e-3, "a thing at %g over ground at %g", t.positions()[1], h->height);
    }
    for (const relief_thing_collider& c : t.colliders()) check(c.thing < t.count() && c.shape >= 1 && c.shape <= 3, "collider");
    w.things += long(t.count());
}

// Whether item `e` gets `kind` (its Unloaded/ChunkDropped) later in the same batch: then a
// NotFound acquire is expected (it came and went within one update).
bool gone_later(const relief::Events& events, std::size_t k, relief::EventKind kind) {
    for (std::size_t n = k + 1; n < events.size(); ++n)
        if (events[n].kind == kind && key_of(events[n]) == key_of(events[k])) return true;
    return false;
}

// `settling`: the events come from relief_runtime_settle's many updates; it ends them with
// one LEVELS_DIRTY whose rects cover every level whole.
void handle(relief::Runtime& rt, const relief::Event& e, bool gone, bool settling, Walk& w) {
    using relief::EventKind;
    switch (e.kind) {
    case EventKind::Loaded: {
        ++w.loaded;
        check(w.resident.insert(key_of(e)).second, "LOADED twice for (%u, %d, %d)", e.face, e.x, e.z);
        if (w.planet) {
            auto tile = rt.acquire_tile(e);
            if (gone && tile.status() == relief::Status::NotFound) { ++w.missed; break; }
            if (check_ok(tile, "acquire_tile")) check_tile(*tile, w);
        } else {
            auto region = rt.acquire_region(e);
            if (gone && region.status() == relief::Status::NotFound) { ++w.missed; break; }
            if (check_ok(region, "acquire_region")) check_region(std::move(*region), w);
        }
        break;  // the Tile/Region is released here (unless kept)
    }
    case EventKind::Unloaded:
        ++w.unloaded;
        check(w.resident.erase(key_of(e)) == 1, "UNLOADED without LOADED for (%u, %d, %d)", e.face, e.x, e.z);
        break;
    case EventKind::ChunkReady: {
        ++w.chunks_ready;
        check(w.built.insert(key_of(e)).second, "CHUNK_READY twice for (%u, %d, %d)", e.face, e.x, e.z);
        auto chunk = rt.acquire_chunk(e);
        if (gone && chunk.status() == relief::Status::NotFound) { ++w.missed; break; }
        if (check_ok(chunk, "acquire_chunk")) check_chunk(*chunk, w);
        break;
    }
    case EventKind::ChunkDropped:
        ++w.chunks_dropped;
        check(w.built.erase(key_of(e)) == 1, "CHUNK_DROPPED without CHUNK_READY for (%u, %d, %d)", e.face, e.x, e.z);
        break;
    case EventKind::LevelsDirty: {
        ++w.dirty_events;
        const auto rects = rt.dirty_rects();
        if (!check_ok(rects, "dirty_rects")) break;
        check(rects->size() == std::size_t(e.x), "LEVELS_DIRTY says %d rects, dirty_rects gave %zu", e.x, rects->size());
        if (settling)
            for (const relief::DirtyRect& r : *rects)
                check(r.x == 0 && r.z == 0 && r.width == w.config.level_size && r.depth == w.config.level_size,
                      "after a settle, every level whole: level %u (%u, %u) %u x %u", r.level, r.x, r.z, r.width, r.depth);
        for (const relief::DirtyRect& r : *rects)
            check(r.level < w.config.level_count && r.x + r.width <= w.config.level_size && r.z + r.depth <= w.config.level_size,
                  "dirty rect level %u (%u, %u) %u x %u outside the levels", r.level, r.x, r.z, r.width, r.depth);
        w.dirty_rects += int(rects->size());
        break;
    }
    case EventKind::ThingsReady: {
        ++w.things_ready;
        auto things = rt.acquire_things(e);
        if (gone && things.status() == relief::Status::NotFound) { ++w.missed; break; }
        if (check_ok(things, "acquire_things")) check_things(*things, w);
        break;
    }
    case EventKind::ThingsDropped:
        ++w.things_dropped;
        break;
    case EventKind::Failed:
    case EventKind::ChunkFailed:
    default:
        check(false, "%s (%u, %d, %d): %s, attempt %u", e.kind_name(), e.face, e.x, e.z, relief::to_string(e.status), e.attempt);
        break;
    }
}

// Takes every pending event and handles it (poll_events: a reused buffer, no allocation).
void drain_events(relief::Runtime& rt, bool settling, Walk& w) {
    const auto events = rt.poll_events();
    if (!check_ok(events, "poll_events")) return;
    for (std::size_t k = 0; k < events->size(); ++k) {
        const relief::Event e = (*events)[k];
        const relief::EventKind gone_kind = e.kind == relief::EventKind::ChunkReady    ? relief::EventKind::ChunkDropped
                                            : e.kind == relief::EventKind::ThingsReady ? relief::EventKind::ThingsDropped
                                                                                       : relief::EventKind::Unloaded;
        handle(rt, e, gone_later(*events, k, gone_kind), settling, w);
    }
}

// The levels this frame: borrowed until the next update, so read now.
void check_levels(relief::Runtime& rt, const relief::Vec3& focus, bool must_be_filled, Walk& w) {
    for (uint32_t level : {0u, w.config.level_count - 1}) {
        const auto view = rt.borrow_level(level);
        if (!check_ok(view, "borrow_level")) continue;
        if (!view->filled()) {
            ++w.levels_unfilled;
            check(!must_be_filled, "level %u still unfilled", level);
            continue;
        }
        ++w.levels_checked;
        const Range r = range_of(view->heights());
        check(view->size() == w.config.level_size && view->heights().size() == std::size_t(view->size()) * view->size(),
              "level %u size %u", level, view->size());
        check(r.nan == 0 && r.lo >= w.hmin - 1 && r.hi <= w.hmax + 1, "level %u heights [%g, %g], %zu NaN", level, r.lo, r.hi, r.nan);
        if (!w.planet) {  // a flat world's plane is the world: the focus's cell is in the window
            const int64_t i = int64_t(std::floor(focus[0] / view->spacing())), j = int64_t(std::floor(focus[2] / view->spacing()));
            check(view->contains(i, j) && view->index(i, j) < view->heights().size(), "level %u window misses the focus", level);
        }
    }
}

// ---- the query thread -------------------------------------------------------------------

struct QueryStats {
    long rounds = 0, queries = 0, from_regions = 0, grounds = 0;
};

void query_flat(const relief::Terrain& terrain, const Walk& w, const std::vector<relief::Vec3>& route,
                const std::atomic<int>& frame, const std::atomic<bool>& stop, QueryStats& qs) {
    std::vector<double> xz(2 * 64);
    std::vector<float> heights(64), normals(3 * 64);
    while (!stop.load()) {
        const relief::Vec3 p = route[std::size_t(frame.load())];
        for (int k = 0; k < 64; ++k) {
            xz[2 * k] = p[0] + (k % 8 - 4) * 37.0;
            xz[2 * k + 1] = p[2] + (k / 8 - 4) * 37.0;
        }
        const auto h = terrain.height(p[0], p[2]);
        if (check_ok(h, "height"))
            check(std::isfinite(h->height) && h->height >= w.hmin && h->height <= w.hmax, "height %g out of range", h->height);
        const auto n = terrain.normal(p[0], p[2]);
        if (check_ok(n, "normal")) check(unit(n->normal) && n->normal[1] > 0, "normal not unit/up");
        const auto batch = terrain.heights(xz, heights);
        if (check_ok(batch, "heights")) {
            qs.from_regions += long(*batch);
            check(*batch <= 64 && std::all_of(heights.begin(), heights.end(), [](float v) { return std::isfinite(v); }),
                  "batch heights: %zu from regions, or not finite", *batch);
        }
        if (check_ok(terrain.normals(xz, normals), "normals"))
            for (int k = 0; k < 64; ++k) check(unit({normals[3 * k], normals[3 * k + 1], normals[3 * k + 2]}), "batch normal %d", k);
        const auto g = terrain.ground(p[0], p[2]);
        if (check_ok(g, "ground") && *g) {
            ++qs.grounds;
            check(!(*g)->biome || *(*g)->biome < w.world.biome_count, "ground biome out of range");
        }
        check_ok(terrain.biome(p[0], p[2]), "biome");
        const auto river = terrain.river(p[0], p[2], 500.0);
        if (check_ok(river, "river") && *river) check((*river)->distance_m <= 500.0f, "river farther than the radius");
        const auto lake = terrain.lake(p[0], p[2], 500.0);
        if (check_ok(lake, "lake") && *lake) check((*lake)->distance_m <= 500.0f, "lake farther than the radius");
        qs.queries += 8 + 128;
        ++qs.rounds;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

void query_planet(const relief::PlanetTerrain& terrain, const Walk& w, const std::vector<relief::Vec3>& route,
                  const std::atomic<int>& frame, const std::atomic<bool>& stop, QueryStats& qs) {
    std::vector<relief::Vec3> points(64);
    std::vector<float> heights(64);
    while (!stop.load()) {
        const relief::Vec3 p = route[std::size_t(frame.load())];
        for (int k = 0; k < 64; ++k) points[std::size_t(k)] = {p[0] + (k % 8 - 4) * 500.0, p[1] + (k / 8 - 4) * 500.0, p[2]};
        const auto h = terrain.height(p);
        if (check_ok(h, "planet height"))
            check(h->height >= w.hmin && h->height <= w.hmax, "planet height %g out of range", h->height);
        const auto n = terrain.normal(p);
        if (check_ok(n, "planet normal"))
            check(unit(n->normal) && dot({n->normal[0], n->normal[1], n->normal[2]}, p) > 0, "planet normal not unit/outward");
        const auto batch = terrain.heights(relief::span<const relief::Vec3>(points), heights);
        if (check_ok(batch, "planet heights")) {
            qs.from_regions += long(*batch);
            check(std::all_of(heights.begin(), heights.end(), [](float v) { return std::isfinite(v); }), "planet batch not finite");
        }
        const auto biome = terrain.sample(p, relief::PlanetField::Biome);
        if (check_ok(biome, "sample") && *biome) {
            ++qs.grounds;
            check(**biome >= 0 && **biome < w.info.biome_count, "planet biome %g out of range", **biome);
        }
        const auto river = terrain.river(p, 20000.0);
        if (check_ok(river, "planet river") && *river) check((*river)->distance_m <= 20000.0f, "planet river beyond radius");
        const auto lake = terrain.lake(p, 20000.0);
        if (check_ok(lake, "planet lake") && *lake) check((*lake)->distance_m <= 20000.0f, "planet lake beyond radius");
        qs.queries += 6 + 64;
        ++qs.rounds;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

// ---- the walk ---------------------------------------------------------------------------

// Settles at the route's start, walks it, then settles at its end. `query` runs on a second
// thread meanwhile.
template <class Query>
void walk(relief::Runtime& rt, const std::vector<relief::Vec3>& route, Walk& w, Query query, QueryStats& qs) {
    const auto settled = rt.settle(route.front(), 60000);
    if (check_ok(settled, "settle")) check(*settled, "did not settle at the start within 60 s");
    // Loading-screen events: the callback form (no buffer at all).
    check_ok(rt.for_each_event([&](const relief::Event& e) { handle(rt, e, false, true, w); }), "for_each_event");

    std::atomic<int> frame{0};
    std::atomic<bool> stop{false};
    std::thread worker([&] { query(frame, stop); });
    for (int f = 0; f < kFrames; ++f) {
        frame.store(f);
        check_ok(rt.update(route[std::size_t(f)]), "update");
        drain_events(rt, false, w);
        if (f % 10 == 9) check_levels(rt, route[std::size_t(f)], !w.planet, w);
        std::this_thread::sleep_for(std::chrono::milliseconds(8));  // the rest of a frame
    }
    stop.store(true);
    worker.join();
    check(qs.rounds > 0, "the query thread ran no round");

    const auto end = rt.settle(route.back(), 60000);
    if (check_ok(end, "settle at the end")) check(*end, "did not settle at the end within 60 s");
    drain_events(rt, true, w);
    check_levels(rt, route.back(), true, w);
    const auto stats = rt.stats();
    if (check_ok(stats, "stats"))
        check(stats->pieces_ready == stats->pieces_wanted && stats->chunks_ready == stats->chunks_wanted,
              "settled stats: pieces %u/%u, chunks %u/%u", stats->pieces_ready, stats->pieces_wanted, stats->chunks_ready,
              stats->chunks_wanted);
    const auto pieces = rt.stream_stats(relief::Stream::Pieces);
    if (check_ok(pieces, "stream_stats")) check(pieces->failures == 0, "%llu failed loads", (unsigned long long)pieces->failures);
    const auto chunk = rt.chunk_at(route.back());
    if (check_ok(chunk, "chunk_at")) check(w.built.count(Key{chunk->face, chunk->x, chunk->z}) == 1, "focus chunk not built");
    check(w.resident.size() == std::size_t(w.loaded - w.unloaded), "event bookkeeping");
    std::printf("streamed: %d loaded, %d unloaded, %d chunks ready, %d dropped, %d acquired-then-gone; %ld samples read\n",
                w.loaded, w.unloaded, w.chunks_ready, w.chunks_dropped, w.missed, w.samples_read);
    std::printf("things: %d chunks ready (%ld things read), %d dropped\n", w.things_ready, w.things, w.things_dropped);
    std::printf("levels: %d LEVELS_DIRTY events, %d dirty rects, %d level views checked (%d not yet filled)\n",
                w.dirty_events, w.dirty_rects, w.levels_checked, w.levels_unfilled);
    std::printf("query thread: %ld rounds, %ld queries, %ld batch points from resident data, %ld ground hits\n",
                qs.rounds, qs.queries, qs.from_regions, qs.grounds);
}

int run_world(const char* path, Walk& w) {
    auto world = relief::World::open(path);
    if (!check_ok(world, "World::open")) return 1;
    auto info = world->info();
    if (!check_ok(info, "World::info")) return 1;
    w.world = *info;
    w.hmin = info->height_min;
    w.hmax = info->height_max;
    std::printf("world: %s, %u regions of %u samples at %g m, heights [%g, %g], %u reaches, %u lakes, %u biomes\n", path,
                info->region_count, info->region_size, info->vertex_spacing, info->height_min, info->height_max,
                info->reach_count, info->lake_count, info->biome_count);
    auto biome0 = world->biome_name(0);
    if (info->biome_count > 0 && check_ok(biome0, "biome_name")) check(!biome0->empty(), "biome 0 has no name");

    auto rt = relief::Runtime::create(*world, w.config);
    if (!check_ok(rt, "Runtime::create")) return 1;
    *world = relief::World();  // the runtime keeps what it needs
    auto terrain = rt->create_terrain();
    if (!check_ok(terrain, "create_terrain")) return 1;
    w.terrain = &*terrain;

    // A straight route through the middle of the world, 40 % of its width.
    const double extent = info->region_size * info->vertex_spacing;
    const double x0 = info->region_min_x * extent, x1 = (info->region_max_x + 1) * extent;
    const double z0 = info->region_min_z * extent, z1 = (info->region_max_z + 1) * extent;
    std::vector<relief::Vec3> route;
    for (int f = 0; f < kFrames; ++f) {
        const double t = 0.3 + 0.4 * f / (kFrames - 1);
        route.push_back({x0 + (x1 - x0) * t, 0.0, z0 + (z1 - z0) * (0.4 + 0.2 * t)});
    }
    QueryStats qs;
    walk(*rt, route, w,
         [&](const std::atomic<int>& frame, const std::atomic<bool>& stop) { query_flat(*terrain, w, route, frame, stop, qs); }, qs);

    // Settled and no update running: batch answers must equal single ones, exactly.
    const relief::Vec3 p = route.back();
    std::vector<double> xz;
    for (int k = 0; k < 256; ++k) xz.insert(xz.end(), {p[0] + (k % 16 - 8) * 11.5, p[2] + (k / 16 - 8) * 11.5});
    std::vector<float> hs(256), ns(3 * 256);
    const auto from_regions = terrain->heights(xz, hs);
    const auto normals_ok = terrain->normals(xz, ns);
    if (check_ok(from_regions, "heights") && check_ok(normals_ok, "normals")) {
        std::size_t singles_from_regions = 0;
        bool same = true;
        for (int k = 0; k < 256; ++k) {
            const auto h = terrain->height(xz[2 * k], xz[2 * k + 1]);
            const auto n = terrain->normal(xz[2 * k], xz[2 * k + 1]);
            if (!check_ok(h, "height") || !check_ok(n, "normal")) break;
            singles_from_regions += h->origin == relief::Origin::Region;
            same = same && same_float(h->height, hs[std::size_t(k)]) && n->normal[0] == ns[3 * k] &&
                   n->normal[1] == ns[3 * k + 1] && n->normal[2] == ns[3 * k + 2];
        }
        check(same, "batch heights/normals differ from single queries");
        check(singles_from_regions == *from_regions, "from_regions %zu vs %zu single REGION answers", *from_regions,
              singles_from_regions);
    }
    const auto ground = terrain->ground(p[0], p[2]);
    const auto biome = terrain->biome(p[0], p[2]);
    if (check_ok(ground, "ground") && check_ok(biome, "biome") && check(ground->has_value(), "no ground under the settled focus")) {
        const relief::Ground& g = **ground;
        check(g.region_x == int32_t(std::floor(p[0] / extent)) && g.region_z == int32_t(std::floor(p[2] / extent)),
              "ground answered from region (%d, %d)", g.region_x, g.region_z);
        check(g.biome == *biome, "ground and biome queries disagree");
    }
    const double everywhere = std::hypot(x1 - x0, z1 - z0);
    const auto river = terrain->river(p[0], p[2], everywhere);
    if (check_ok(river, "river") && check(river->has_value() == (info->reach_count > 0), "river found iff the world has reaches") &&
        *river) {
        const relief::River& r = **river;
        const auto on = terrain->river(r.nearest_x, r.nearest_z, 1.0);
        if (check_ok(on, "river on its centreline") && check(on->has_value(), "no river on its own centreline"))
            check((*on)->distance_m < 0.5f && (*on)->in_water, "on the centreline: distance %g, in water %d", (*on)->distance_m,
                  int((*on)->in_water));
        std::printf("queries: nearest river reach %u (%s) %.0f m away, %.1f m wide\n", r.reach,
                    r.kind == relief::ReachKind::River ? "river" : "creek", r.distance_m, r.width_m);
    }
    const auto lake = terrain->lake(p[0], p[2], everywhere);
    if (check_ok(lake, "lake") && check(lake->has_value() == (info->lake_count > 0), "lake found iff the world has lakes") && *lake) {
        check((*lake)->inside == ((*lake)->distance_m == 0.0f), "lake inside iff distance 0");
        std::printf("queries: nearest lake %u, level %.1f m, %.0f m away\n", (*lake)->lake, (*lake)->level_m, (*lake)->distance_m);
    }

    *rt = relief::Runtime();  // destroy the runtime: held regions and the terrain stay valid
    if (check(bool(w.kept), "no region was kept"))
        check(sum_of(w.kept.heights()) == w.kept_sum, "a held region changed after its runtime was destroyed");
    check_ok(terrain->height(p[0], p[2]), "height after the runtime is gone");
    w.terrain = nullptr;
    return 0;
}

int run_planet(const char* path, Walk& w) {
    auto planet = relief::Planet::open(path);
    if (!check_ok(planet, "Planet::open")) return 1;
    auto info = planet->info();
    if (!check_ok(info, "Planet::info")) return 1;
    w.planet = true;
    w.info = *info;
    w.hmin = info->height_min;
    w.hmax = info->height_max;
    const double tile_extent = info->tile_size * info->spacing;
    std::printf("planet: %s, v%u, radius %.0f m, 6 x %u^2 tiles of %u samples at %.0f m, heights [%g, %g], %u reaches, %u lakes\n",
                path, info->version, info->radius, info->tiles_per_side, info->tile_size, info->spacing, info->height_min,
                info->height_max, info->reach_count, info->lake_count);
    // Tiles are large: stream a ring of them.
    w.config.load_radius = tile_extent;
    w.config.drop_radius = 1.5 * tile_extent;
    auto rt = relief::Runtime::create(*planet, w.config);
    if (!check_ok(rt, "Runtime::create (planet)")) return 1;
    auto terrain = rt->create_planet_terrain();
    if (!check_ok(terrain, "create_planet_terrain")) return 1;

    // Along latitude 5°, 30° of longitude.
    std::vector<relief::Vec3> route;
    for (int f = 0; f < kFrames; ++f) {
        const auto p = terrain->position_at(5.0, -15.0 + 30.0 * f / (kFrames - 1));
        if (!check_ok(p, "position_at")) return 1;
        route.push_back(*p);
    }
    check(std::fabs(length(route[0]) - info->radius) < 1e-6 * info->radius, "position_at not on the sea-level sphere");
    QueryStats qs;
    walk(*rt, route, w,
         [&](const std::atomic<int>& frame, const std::atomic<bool>& stop) { query_planet(*terrain, w, route, frame, stop, qs); },
         qs);

    const relief::Vec3 p = route.back();
    std::vector<relief::Vec3> points;
    for (int k = 0; k < 256; ++k) points.push_back({p[0] + (k % 16 - 8) * 300.0, p[1] + (k / 16 - 8) * 300.0, p[2]});
    std::vector<float> hs(256);
    const auto from_tiles = terrain->heights(relief::span<const relief::Vec3>(points), hs);
    if (check_ok(from_tiles, "planet heights")) {
        std::size_t singles = 0;
        bool same = true;
        for (int k = 0; k < 256; ++k) {
            const auto h = terrain->height(points[std::size_t(k)]);
            if (!check_ok(h, "planet height")) break;
            singles += h->origin == relief::Origin::Region;
            same = same && same_float(h->height, hs[std::size_t(k)]);
        }
        check(same, "planet batch heights differ from single queries");
        check(singles == *from_tiles, "from_tiles %zu vs %zu single tile answers", *from_tiles, singles);
    }
    const auto biome = terrain->sample(p, relief::PlanetField::Biome);
    if (check_ok(biome, "sample") && check(biome->has_value(), "no biome under the settled focus")) {
        const auto name = planet->biome_name(uint32_t(**biome));
        if (check_ok(name, "planet biome_name")) std::printf("queries: biome under the end of the route: %s\n", name->c_str());
    }
    if (info->has_v7_fields) check_ok(terrain->sample(p, relief::PlanetField::Precipitation), "sample precipitation");
    const double everywhere = 3.2 * info->radius;  // more than half the circumference
    const auto river = terrain->river(p, everywhere);
    if (check_ok(river, "planet river") && check(river->has_value() == (info->reach_count > 0), "river found iff reaches") && *river)
        std::printf("queries: nearest river reach %u, %.0f m away, %.1f m wide\n", (*river)->reach, (*river)->distance_m,
                    (*river)->width_m);
    const auto lake = terrain->lake(p, everywhere);
    if (check_ok(lake, "planet lake") && check(lake->has_value() == (info->lake_count > 0), "lake found iff lakes") && *lake)
        std::printf("queries: nearest lake %u, level %.1f m, %.0f m away\n", (*lake)->lake, (*lake)->level_m, (*lake)->distance_m);
    return 0;
}

bool ends_with(const std::string& s, const char* tail) {
    const std::size_t n = std::strlen(tail);
    return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s WORLD_DIR_OR_PACK | PLANET.plnt\n", argv[0]);
        return 2;
    }
    std::printf("relief %s (header %s), ABI %s\n", relief::version(), RELIEF_VERSION_STRING,
                relief::abi_compatible() ? "compatible" : "MISMATCHED");
    // relief's log: called from loader threads too, so only thread-safe work in here.
    std::atomic<int> errors{0}, warnings{0};
    const auto logged = relief::set_log(
        [&](relief::LogLevel level, const char* message) {
            (level == relief::LogLevel::Error ? errors : warnings)++;
            std::fprintf(stderr, "relief log [%u]: %s\n", unsigned(level), message);
        },
        relief::LogLevel::Warn);
    check_ok(logged, "set_log");

    Walk w;
    const int rc = ends_with(argv[1], ".plnt") ? run_planet(argv[1], w) : run_world(argv[1], w);
    w.kept.release();
    check_ok(relief::set_log(nullptr), "set_log(nullptr)");  // `errors` dies with main
    check(errors.load() == 0, "relief logged %d errors", errors.load());

    std::printf("%ld checks passed, %d failed (%d warnings logged)\n", g_passed.load(), g_failed.load(), warnings.load());
    return rc == 0 && g_failed.load() == 0 ? 0 : 1;
}
