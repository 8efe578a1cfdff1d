// Compile-only check: relief.hpp builds without exceptions (as game engines often do) and
// its templates instantiate. Nothing here is meant to run.
//
//   g++ -std=c++17 -Wall -Wextra -Werror -pedantic -fno-exceptions -fno-rtti -Iinclude
//       -c samples/cpp/no_exceptions_check.cpp -o /dev/null
#include "relief.hpp"

#if !defined(__cpp_exceptions) && !defined(_CPPUNWIND)
static_assert(RELIEF_HPP_EXCEPTIONS == 0, "exceptions are off: no throwing helper may exist");
#endif

static_assert(!std::is_copy_constructible<relief::World>::value && std::is_nothrow_move_constructible<relief::World>::value, "");
static_assert(!std::is_copy_constructible<relief::Runtime>::value && std::is_move_assignable<relief::Runtime>::value, "");
static_assert(!std::is_copy_constructible<relief::Region>::value && std::is_nothrow_move_constructible<relief::Region>::value, "");
static_assert(!std::is_copy_assignable<relief::Chunk>::value && std::is_nothrow_move_assignable<relief::Tile>::value, "");
static_assert(!std::is_copy_constructible<relief::Terrain>::value && !std::is_copy_constructible<relief::PlanetTerrain>::value, "");

int use_everything(const char* path) {
    if (!relief::set_log([](relief::LogLevel, const char*) {}, relief::LogLevel::Warn)) return 1;
    relief::Result<relief::World> world = relief::World::open(path);
    if (!world) return int(world.error().status);
    relief::HttpOptions http;
    http.headers.push_back("Authorization: Bearer x");
    (void)relief::Planet::open_url("https://example.invalid/p.plnt", http);
    (void)relief::World::open_reader(16, [](uint64_t, relief::span<uint8_t> out) { return !out.empty(); });
    const uint8_t bytes[4] = {0, 1, 2, 3};
    (void)relief::World::open_memory(bytes);
    relief::RuntimeConfig config;
    config.set_flags(relief::RuntimeFlags::NoCollision | relief::RuntimeFlags::NoLevels);
    relief::Runtime runtime = relief::Runtime::create(*world, config).value_or(relief::Runtime());
    (void)runtime.update(relief::Vec3{0, 0, 0});
    for (relief::Event e : runtime.poll_events().value_or(relief::Events()))
        if (e.kind == relief::EventKind::Loaded)
            if (auto region = runtime.acquire_region(e.x, e.z)) (void)region->heights()[0];
    (void)runtime.for_each_event([](const relief::Event&) {});
    if (auto rects = runtime.dirty_rects())
        for (const relief::DirtyRect& r : *rects) (void)r;
    if (auto level = runtime.borrow_level(0)) (void)level->heights().size();
    relief::Terrain terrain = std::move(runtime.create_terrain()).value();
    float out[2];
    const double xz[4] = {0, 0, 1, 1};
    (void)terrain.heights(xz, out);
    if (auto river = terrain.river(0, 0, 10).value_or(std::nullopt)) return int(river->reach);
    (void)relief::PlanetTerrain().sample(relief::Vec3{1, 0, 0}, relief::PlanetField::Biome);
    (void)relief::Planet().biome_name(0);
    return relief::set_log(nullptr).ok() ? 0 : 1;
}
