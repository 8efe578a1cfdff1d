// relief.hpp: a header-only C++17 wrapper over relief's C API (relief.h, ABI version 2).
//
//   #include "relief.hpp"
//   auto world = relief::World::open("world/");               // Result<World>
//   if (!world) { log(world.error().message); return; }
//   auto runtime = relief::Runtime::create(*world).value();   // value(): precondition ok()
//   auto terrain = runtime.create_terrain().value();          // queries, from any thread
//   each frame:
//     if (auto r = runtime.update(cam.x, cam.y, cam.z); !r) log(r.error().message);
//     for (relief::Event e : runtime.poll_events().value_or(relief::Events{}))
//       if (e.kind == relief::EventKind::Loaded)
//         if (auto region = runtime.acquire_region(e.x, e.z)) upload(region->heights());
//
// Conventions (the C ones are in docs/c-api.md and the comments of relief.h):
// - Every handle is a move-only RAII class; its destructor calls the C destroy/release
//   function. `get()` gives the raw handle for C interop, `adopt(raw)` takes one over.
// - Nothing here throws. Fallible calls return `Result<T>`: a T or an `Error` (status and
//   message, from relief_status_name and relief_last_error_message). `value()` requires
//   `ok()` (it aborts otherwise); `value_or_throw()` exists only where exceptions are on.
// - Queries that may find nothing return `Result<std::optional<T>>`.
// - `struct_size` is set for you everywhere. Config and info structs are relief's own
//   structs (RuntimeConfig derives from relief_runtime_config), so relief.h documents
//   their fields.
// - const methods are safe from any thread; non-const Runtime methods (update, settle,
//   poll_events, dirty_rects, borrow_level) belong to one thread, the game's main thread.
// - The first call that opens anything checks relief_abi_version() against the
//   RELIEF_ABI_VERSION this header was written for and refuses a mismatched library
//   (Status::UnsupportedVersion).
#ifndef RELIEF_HPP
#define RELIEF_HPP

#include "relief.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iterator>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if defined(__cpp_exceptions) || defined(_CPPUNWIND)
#define RELIEF_HPP_EXCEPTIONS 1
#include <stdexcept>
#define RELIEF_HPP_TRY try
#define RELIEF_HPP_CATCH_ALL catch (...)
#else
#define RELIEF_HPP_EXCEPTIONS 0
#define RELIEF_HPP_TRY if (true)
#define RELIEF_HPP_CATCH_ALL else
#endif

static_assert(RELIEF_ABI_VERSION == 2, "relief.hpp was written for relief ABI version 2");

namespace relief {

// ---------------------------------------------------------------------------------------
// Enumerations: the RELIEF_* constants as enum classes. A newer library may send values
// not listed here (events, statuses): keep a `default:` in switches.

/// RELIEF_STATUS_*: what a call returned.
enum class Status : uint32_t { Ok = 0, InvalidArgument = 1, NotFound = 2, Corrupt = 3,
                               UnsupportedVersion = 4, Io = 5, Panic = 6 };
/// RELIEF_EVENT_*: what happened to a region/tile (Loaded..Failed), a collision chunk
/// (Chunk*) or the levels (LevelsDirty; LevelsFailed when a planet's ring thread panicked,
/// which the same update returned as Status::Panic).
enum class EventKind : uint32_t { Loaded = 0, Unloaded = 1, Failed = 2, ChunkReady = 3,
                                  ChunkDropped = 4, ChunkFailed = 5, LevelsDirty = 6,
                                  LevelsFailed = 7, Overflow = 8, ThingsReady = 9,
                                  ThingsDropped = 10, ThingsFailed = 11 };
/// RELIEF_BAND_*: how far from the focus a kind of thing streams.
enum class Band : uint32_t { Near = 0, Mid = 1, Far = 2 };
/// RELIEF_SHAPE_*: a thing's collision shape.
enum class Shape : uint32_t { None = 0, Capsule = 1, Sphere = 2, Box = 3 };
/// RELIEF_ORIGIN_*: what answered a height or normal query.
enum class Origin : uint32_t { Region = 0, Overview = 1, Outside = 2 };
/// RELIEF_REACH_*: a river reach's kind.
enum class ReachKind : uint32_t { Creek = 0, River = 1 };
/// RELIEF_PLANET_FIELD_*: the per-sample field PlanetTerrain::sample reads.
enum class PlanetField : uint32_t { Biome = 0, Sediment = 1, Precipitation = 2 };
/// RELIEF_LOG_*: how much a message matters (Error sends the fewest, Debug all).
enum class LogLevel : uint32_t { Error = 0, Warn = 1, Info = 2, Debug = 3 };
/// RELIEF_STREAM_*: one of a runtime's streams, for Runtime::stream_stats (a band's things:
/// RELIEF_STREAM_THINGS + the band).
enum class Stream : uint32_t { Pieces = 0, Chunks = 1, ThingsNear = 2, ThingsMid = 3, ThingsFar = 4 };
/// RELIEF_RUNTIME_*: RuntimeConfig flags, combinable with `|`.
enum class RuntimeFlags : uint32_t { None = 0, NoCollision = 1, NoLevels = 2, NoThings = 4 };

inline constexpr RuntimeFlags operator|(RuntimeFlags a, RuntimeFlags b) {
    return static_cast<RuntimeFlags>(static_cast<uint32_t>(a) | static_cast<uint32_t>(b));
}

namespace detail {
template <class E> constexpr uint32_t u(E e) { return static_cast<uint32_t>(e); }
}  // namespace detail
static_assert(detail::u(Status::Ok) == RELIEF_STATUS_OK && detail::u(Status::InvalidArgument) == RELIEF_STATUS_INVALID_ARGUMENT &&
              detail::u(Status::NotFound) == RELIEF_STATUS_NOT_FOUND && detail::u(Status::Corrupt) == RELIEF_STATUS_CORRUPT &&
              detail::u(Status::UnsupportedVersion) == RELIEF_STATUS_UNSUPPORTED_VERSION &&
              detail::u(Status::Io) == RELIEF_STATUS_IO && detail::u(Status::Panic) == RELIEF_STATUS_PANIC, "Status");
static_assert(detail::u(EventKind::Loaded) == RELIEF_EVENT_LOADED && detail::u(EventKind::Unloaded) == RELIEF_EVENT_UNLOADED &&
              detail::u(EventKind::Failed) == RELIEF_EVENT_FAILED && detail::u(EventKind::ChunkReady) == RELIEF_EVENT_CHUNK_READY &&
              detail::u(EventKind::ChunkDropped) == RELIEF_EVENT_CHUNK_DROPPED &&
              detail::u(EventKind::ChunkFailed) == RELIEF_EVENT_CHUNK_FAILED &&
              detail::u(EventKind::LevelsDirty) == RELIEF_EVENT_LEVELS_DIRTY &&
              detail::u(EventKind::LevelsFailed) == RELIEF_EVENT_LEVELS_FAILED &&
              detail::u(EventKind::Overflow) == RELIEF_EVENT_OVERFLOW, "EventKind");
static_assert(detail::u(Origin::Region) == RELIEF_ORIGIN_REGION && detail::u(Origin::Overview) == RELIEF_ORIGIN_OVERVIEW &&
              detail::u(Origin::Outside) == RELIEF_ORIGIN_OUTSIDE, "Origin");
static_assert(detail::u(ReachKind::Creek) == RELIEF_REACH_CREEK && detail::u(ReachKind::River) == RELIEF_REACH_RIVER, "ReachKind");
static_assert(detail::u(PlanetField::Biome) == RELIEF_PLANET_FIELD_BIOME && detail::u(PlanetField::Sediment) == RELIEF_PLANET_FIELD_SEDIMENT &&
              detail::u(PlanetField::Precipitation) == RELIEF_PLANET_FIELD_PRECIPITATION, "PlanetField");
static_assert(detail::u(LogLevel::Error) == RELIEF_LOG_ERROR && detail::u(LogLevel::Warn) == RELIEF_LOG_WARN &&
              detail::u(LogLevel::Info) == RELIEF_LOG_INFO && detail::u(LogLevel::Debug) == RELIEF_LOG_DEBUG, "LogLevel");
static_assert(detail::u(Stream::Pieces) == RELIEF_STREAM_PIECES && detail::u(Stream::Chunks) == RELIEF_STREAM_CHUNKS, "Stream");
static_assert(detail::u(RuntimeFlags::NoCollision) == RELIEF_RUNTIME_NO_COLLISION &&
              detail::u(RuntimeFlags::NoLevels) == RELIEF_RUNTIME_NO_LEVELS, "RuntimeFlags");

/// "OK", "NOT_FOUND", …: relief_status_name. Static string.
inline const char* to_string(Status s) { return relief_status_name(static_cast<uint32_t>(s)); }
/// "LOADED", "CHUNK_READY", …: relief_event_kind_name. Static string.
inline const char* to_string(EventKind k) { return relief_event_kind_name(static_cast<uint32_t>(k)); }
/// The loaded library's version ("0.2.1"): relief_version.
inline const char* version() { return relief_version(); }
/// True if the loaded library speaks the ABI this header was written for. Checked once.
inline bool abi_compatible() {
    static const bool ok = relief_abi_version() == RELIEF_ABI_VERSION;
    return ok;
}

/// A position: world metres (x, y, z) on a flat world, the planet frame on a planet.
using Vec3 = std::array<double, 3>;
/// A direction such as a unit normal (x, y, z).
using Vec3f = std::array<float, 3>;

// ---------------------------------------------------------------------------------------
// span: C++17 has no std::span. A pointer and an element count, never owning.

/// A non-owning view of `size()` contiguous T. Convertible from arrays, std::array and
/// std::vector (anything with data() and size()); span<T> converts to span<const T>.
template <class T>
class span;
template <class S> struct is_span : std::false_type {};
template <class T> struct is_span<span<T>> : std::true_type {};

template <class T>
class span {
public:
    using element_type = T;
    using value_type = std::remove_cv_t<T>;
    using iterator = T*;

    constexpr span() noexcept = default;
    constexpr span(T* data, std::size_t size) noexcept : data_(data), size_(data ? size : 0) {}
    template <std::size_t N>
    constexpr span(T (&array)[N]) noexcept : data_(array), size_(N) {}
    template <class C, class P = decltype(std::declval<C&>().data()),
              class = std::enable_if_t<std::is_convertible<P, T*>::value && !is_span<std::remove_cv_t<C>>::value>>
    constexpr span(C& c) noexcept : span(c.data(), c.size()) {}
    template <class U, class = std::enable_if_t<std::is_convertible<U (*)[], T (*)[]>::value>>
    constexpr span(span<U> s) noexcept : data_(s.data()), size_(s.size()) {}

    constexpr T* data() const noexcept { return data_; }
    constexpr std::size_t size() const noexcept { return size_; }
    constexpr bool empty() const noexcept { return size_ == 0; }
    constexpr T& operator[](std::size_t i) const noexcept { return data_[i]; }
    constexpr T* begin() const noexcept { return data_; }
    constexpr T* end() const noexcept { return data_ + size_; }
    /// `count` elements from `offset` (clamped to the span).
    constexpr span subspan(std::size_t offset, std::size_t count = std::size_t(-1)) const noexcept {
        if (offset > size_) offset = size_;
        if (count > size_ - offset) count = size_ - offset;
        return span(data_ + offset, count);
    }

private:
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

// ---------------------------------------------------------------------------------------
// Errors and Result.

/// A failed call: its status and "STATUS_NAME: relief's message" (relief_status_name and
/// relief_last_error_message, read on the failing thread right after the call).
struct Error {
    Status status = Status::Ok;
    std::string message;
    /// "NOT_FOUND" and so on.
    const char* name() const { return to_string(status); }
};

#if RELIEF_HPP_EXCEPTIONS
/// Thrown only by `value_or_throw()`; carries the Error.
class Exception : public std::runtime_error {
public:
    explicit Exception(Error e) : std::runtime_error(e.message), error_(std::move(e)) {}
    const Error& error() const noexcept { return error_; }

private:
    Error error_;
};
#endif

namespace detail {
/// The Error for status `s` of the call that just failed on this thread.
inline Error last_error(relief_status s) {
    Error e;
    e.status = static_cast<Status>(s);
    e.message = relief_status_name(s);
    e.message += ": ";
    e.message += relief_last_error_message();
    return e;
}
/// An error the wrapper itself detected before calling relief.
inline Error local_error(Status s, const char* what) {
    Error e;
    e.status = s;
    e.message = std::string(to_string(s)) + ": " + what;
    return e;
}
inline Error abi_error() {
    return local_error(Status::UnsupportedVersion,
                       "relief.hpp: the loaded relief library has a different ABI version");
}
[[noreturn]] inline void bad_access(const Error& e) {
    std::fprintf(stderr, "relief.hpp: value() of a failed Result: %s\n", e.message.c_str());
    std::abort();
}
}  // namespace detail

/// Either a T (ok) or an Error: relief's std::expected. Check it before `value()`, or use
/// `value_or()`. Never throws, except `value_or_throw()` (only with exceptions enabled).
template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : value_(std::move(value)) {}
    Result(Error error) : error_(std::move(error)) {}

    bool ok() const noexcept { return value_.has_value(); }
    explicit operator bool() const noexcept { return ok(); }
    /// The value; requires ok() (aborts with the error's message otherwise).
    T& value() & { check(); return *value_; }
    const T& value() const& { check(); return *value_; }
    T value() && { check(); return std::move(*value_); }  ///< by value: safe on temporaries
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T operator*() && { return std::move(*this).value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    /// The value, or `fallback` on error.
    template <class U> T value_or(U&& fallback) const& { return ok() ? *value_ : T(std::forward<U>(fallback)); }
    template <class U> T value_or(U&& fallback) && { return ok() ? std::move(*value_) : T(std::forward<U>(fallback)); }
    /// The error; Status::Ok with an empty message when ok().
    const Error& error() const noexcept { return error_; }
    Status status() const noexcept { return error_.status; }
#if RELIEF_HPP_EXCEPTIONS
    /// The value, or throws relief::Exception.
    T& value_or_throw() & { if (!ok()) throw Exception(error_); return *value_; }
    T value_or_throw() && { if (!ok()) throw Exception(error_); return std::move(*value_); }
#endif

private:
    void check() const { if (!ok()) detail::bad_access(error_); }
    std::optional<T> value_;
    Error error_;
};

/// A call that gives nothing back but may fail.
template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error) : error_(std::move(error)) {}
    bool ok() const noexcept { return error_.status == Status::Ok; }
    explicit operator bool() const noexcept { return ok(); }
    const Error& error() const noexcept { return error_; }
    Status status() const noexcept { return error_.status; }
#if RELIEF_HPP_EXCEPTIONS
    void value_or_throw() const { if (!ok()) throw Exception(error_); }
#endif

private:
    Error error_;
};

namespace detail {
inline Result<void> check(relief_status s) {
    if (s != RELIEF_STATUS_OK) return last_error(s);
    return {};
}
/// The handle types' deleters: the C destroy/release functions (all accept NULL).
struct Deleter {
    void operator()(relief_world* p) const noexcept { relief_world_destroy(p); }
    void operator()(relief_planet* p) const noexcept { relief_planet_destroy(p); }
    void operator()(relief_runtime* p) const noexcept { relief_runtime_destroy(p); }
    void operator()(relief_terrain* p) const noexcept { relief_terrain_destroy(p); }
    void operator()(relief_planet_terrain* p) const noexcept { relief_planet_terrain_destroy(p); }
    void operator()(relief_region* p) const noexcept { relief_region_release(p); }
    void operator()(relief_tile* p) const noexcept { relief_tile_release(p); }
    void operator()(relief_chunk* p) const noexcept { relief_chunk_release(p); }
    void operator()(relief_things* p) const noexcept { relief_things_release(p); }
};
template <class H> using Owned = std::unique_ptr<H, Deleter>;

/// Runs `create(&raw)` (an open/create call) after the ABI check; wraps the handle in Obj.
template <class Obj, class H, class F>
Result<Obj> make(F&& create) {
    if (!abi_compatible()) return abi_error();
    H* raw = nullptr;
    const relief_status s = create(&raw);
    if (s != RELIEF_STATUS_OK) return last_error(s);
    return Obj(raw);
}
/// A C struct with its struct_size set and everything else zero.
template <class S> S sized() {
    S s{};
    s.struct_size = sizeof(S);
    return s;
}
/// A span over `count` elements at `p`, or an empty span where relief gave NULL.
template <class T> span<const T> view_of(const T* p, std::size_t count) { return span<const T>(p, p ? count : 0); }

}  // namespace detail

// ---------------------------------------------------------------------------------------
// Logging.

/// Receives relief's messages. Called from ANY thread (yours, or a relief loader thread),
/// possibly several at once: it must be thread-safe and quick. `message` is valid only
/// during the call. Messages it causes by calling relief are dropped.
using LogFn = std::function<void(LogLevel level, const char* message)>;

namespace detail {
inline std::mutex& log_mutex() { static std::mutex m; return m; }
/// The installed callable. Kept in a static, deliberately never freed at exit: relief's
/// loader threads may still log while statics are being destroyed.
inline LogFn*& log_slot() { static LogFn* slot = nullptr; return slot; }
inline void log_trampoline(void* user, relief_log_level level, const char* message) {
    RELIEF_HPP_TRY { (*static_cast<LogFn*>(user))(static_cast<LogLevel>(level), message); }
    RELIEF_HPP_CATCH_ALL {}  // an exception must not unwind into relief
}
}  // namespace detail

/// Sends relief's messages up to `max_level` to `fn` (relief_set_log); an empty `fn` stops
/// them. The callable is moved into static storage owned by this header; it replaces (and
/// frees) the previous one, which relief guarantees is no longer running. Don't call
/// set_log from inside the callback. By default relief logs nothing.
inline Result<void> set_log(LogFn fn, LogLevel max_level = LogLevel::Info) {
    if (!abi_compatible()) return detail::abi_error();
    std::lock_guard<std::mutex> lock(detail::log_mutex());
    LogFn* next = fn ? new LogFn(std::move(fn)) : nullptr;
    const relief_status s = relief_set_log(next ? &detail::log_trampoline : nullptr, next,
                                           static_cast<uint32_t>(max_level));
    if (s != RELIEF_STATUS_OK) {
        Error e = detail::last_error(s);
        delete next;
        return e;
    }
    delete std::exchange(detail::log_slot(), next);
    return {};
}

// ---------------------------------------------------------------------------------------
// Opening worlds and planets.

/// How World/Planet::open_url fetch (relief_http_options), filled with relief's defaults:
/// 10 s per request, 2 retries, the user's cache directory with a 2 GiB budget.
struct HttpOptions {
    uint32_t timeout_ms = 0;
    uint32_t retries = 0;
    std::string cache_dir;            ///< empty: the user's cache directory
    uint64_t cache_budget_bytes = 0;  ///< 0: no disk cache
    std::vector<std::string> headers; ///< "Name: value" strings sent with every request
    /// Send `headers` on after a redirect to another host too (off: they stay with the
    /// URL's own origin).
    bool headers_to_other_hosts = false;

    HttpOptions() {
        relief_http_options c = detail::sized<relief_http_options>();
        if (abi_compatible() && relief_http_options_default(&c) == RELIEF_STATUS_OK) {
            timeout_ms = c.timeout_ms;
            retries = c.retries;
            cache_budget_bytes = c.cache_budget_bytes;
            if (c.cache_dir) cache_dir = c.cache_dir;
        }
    }
};

/// Reads `out.size()` bytes at `offset` of your pack into `out`; returns false on failure.
/// Called from relief's loader threads, several at once, until relief releases it.
using ReadAt = std::function<bool(uint64_t offset, span<uint8_t> out)>;

namespace detail {
/// Calls `open(c_options, &raw)` with HttpOptions turned into relief_http_options.
template <class F>
relief_status with_http(const HttpOptions& o, F open) {
    std::vector<const char*> headers;
    headers.reserve(o.headers.size());
    for (const std::string& h : o.headers) headers.push_back(h.c_str());
    relief_http_options c = sized<relief_http_options>();
    c.timeout_ms = o.timeout_ms;
    c.retries = o.retries;
    c.cache_dir = o.cache_dir.empty() ? nullptr : o.cache_dir.c_str();
    c.cache_budget_bytes = o.cache_budget_bytes;
    c.headers = headers.empty() ? nullptr : headers.data();
    c.header_count = headers.size();
    c.headers_to_other_hosts = o.headers_to_other_hosts ? 1 : 0;
    return open(&c);
}
inline int32_t read_trampoline(void* user, uint64_t offset, uint64_t length, uint8_t* out) {
    RELIEF_HPP_TRY {
        return (*static_cast<ReadAt*>(user))(offset, span<uint8_t>(out, static_cast<std::size_t>(length))) ? 0 : 1;
    }
    RELIEF_HPP_CATCH_ALL { return 1; }
    return 1;
}
inline void release_trampoline(void* user) { delete static_cast<ReadAt*>(user); }
/// A relief_reader over a heap copy of `read`; relief owns the copy from the open call on
/// (it calls release_trampoline exactly once, even when the open fails).
inline relief_reader make_reader(uint64_t length, ReadAt read) {
    relief_reader r = sized<relief_reader>();
    r.length = length;
    r.user = new ReadAt(std::move(read));
    r.read_at = &read_trampoline;
    r.release = &release_trampoline;
    return r;
}
}  // namespace detail

using WorldInfo = relief_world_info;    ///< relief.h documents the fields.
using PlanetInfo = relief_planet_info;  ///< relief.h documents the fields.

namespace detail {
/// The C functions behind World and Planet, which open and describe alike.
struct WorldApi {
    using Handle = relief_world;
    using Info = relief_world_info;
    static constexpr auto open = relief_world_open;
    static constexpr auto open_url = relief_world_open_url;
    static constexpr auto open_memory = relief_world_open_memory;
    static constexpr auto open_file_range = relief_world_open_file_range;
    static constexpr auto open_fd = relief_world_open_fd;
    static constexpr auto open_reader = relief_world_open_reader;
    static constexpr auto get_info = relief_world_get_info;
    static constexpr auto get_biome_name = relief_world_get_biome_name;
};
struct PlanetApi {
    using Handle = relief_planet;
    using Info = relief_planet_info;
    static constexpr auto open = relief_planet_open;
    static constexpr auto open_url = relief_planet_open_url;
    static constexpr auto open_memory = relief_planet_open_memory;
    static constexpr auto open_file_range = relief_planet_open_file_range;
    static constexpr auto open_fd = relief_planet_open_fd;
    static constexpr auto open_reader = relief_planet_open_reader;
    static constexpr auto get_info = relief_planet_get_info;
    static constexpr auto get_biome_name = relief_planet_get_biome_name;
};

/// World and Planet: `Api` names the relief_world_* or relief_planet_* functions.
template <class Self, class Api>
class Source {
public:
    using Handle = typename Api::Handle;
    using Info = typename Api::Info;
    Source() = default;
    /// Takes over a handle from a relief_*_open call (destroyed with relief_*_destroy).
    explicit Source(Handle* adopt) noexcept : h_(adopt) {}

    /// relief_world_open / relief_planet_open: a world directory or pack file / a .plnt
    /// file, or an http(s):// URL (default HttpOptions).
    static Result<Self> open(const char* path) {
        return make<Self, Handle>([&](Handle** out) { return Api::open(path, out); });
    }
    static Result<Self> open(const std::string& path) { return open(path.c_str()); }
    /// relief_*_open_url: by http(s):// URL, through the disk cache.
    static Result<Self> open_url(const char* url, const HttpOptions& options = HttpOptions()) {
        return make<Self, Handle>([&](Handle** out) {
            return with_http(options, [&](const relief_http_options* c) { return Api::open_url(url, c, out); });
        });
    }
    /// relief_*_open_memory: the pack's or blob's bytes; relief copies them.
    static Result<Self> open_memory(span<const uint8_t> bytes) {
        return make<Self, Handle>([&](Handle** out) { return Api::open_memory(bytes.data(), bytes.size(), out); });
    }
    /// relief_*_open_file_range: `length` bytes at `offset` of the file at `path`, read in
    /// place (Android: an uncompressed entry of the APK).
    static Result<Self> open_file_range(const char* path, uint64_t offset, uint64_t length) {
        return make<Self, Handle>([&](Handle** out) { return Api::open_file_range(path, offset, length, out); });
    }
    /// relief_*_open_fd: `length` bytes at `offset` of the open file `fd`, read in place
    /// through relief's own duplicate of it (Android: what AssetManager.openFd gives, in the
    /// base APK or an install-time asset pack); close yours when this returns.
    static Result<Self> open_fd(int32_t fd, uint64_t offset, uint64_t length) {
        return make<Self, Handle>([&](Handle** out) { return Api::open_fd(fd, offset, length, out); });
    }
    /// relief_*_open_reader: `length` bytes read through `read` (see ReadAt), which relief
    /// keeps, calling it from loader threads, until everything made from this is destroyed.
    static Result<Self> open_reader(uint64_t length, ReadAt read) {
        if (!read) return local_error(Status::InvalidArgument, "open_reader: empty ReadAt");
        return make<Self, Handle>([&](Handle** out) {
            const relief_reader r = make_reader(length, std::move(read));
            return Api::open_reader(&r, out);
        });
    }

    /// relief_world_get_info / relief_planet_get_info: sizes, heights, table counts.
    Result<Info> info() const {
        Info i = sized<Info>();
        if (const relief_status s = Api::get_info(get(), &i)) return last_error(s);
        return i;
    }
    /// relief_*_get_biome_name: biome `id`'s name (a size query, then a string allocated).
    Result<std::string> biome_name(uint32_t id) const {
        uintptr_t length = 0;
        if (const relief_status s = Api::get_biome_name(get(), id, nullptr, 0, &length)) return last_error(s);
        std::string name(length + 1, '\0');
        if (const relief_status s = Api::get_biome_name(get(), id, &name[0], name.size(), &length)) return last_error(s);
        name.resize(length);
        return name;
    }

    Handle* get() const noexcept { return h_.get(); }
    explicit operator bool() const noexcept { return h_ != nullptr; }

private:
    Owned<Handle> h_;
};
}  // namespace detail

/// An opened flat world (relief_world): manifest, overview and tables in memory; regions
/// stream later through a Runtime, which keeps what it needs (destroy the World whenever).
/// World::open / open_url / open_memory / open_file_range / open_fd / open_reader; info(),
/// biome_name().
class World : public detail::Source<World, detail::WorldApi> {
public:
    using Source::Source;
};

/// An opened planet, a PLNT blob (relief_planet): header and tables; tiles stream later.
/// The same calls as World.
class Planet : public detail::Source<Planet, detail::PlanetApi> {
public:
    using Source::Source;
};

// ---------------------------------------------------------------------------------------
// Queries.

/// A height and what answered it.
struct HeightSample { float height; Origin origin; };
/// A unit normal (y up on a flat world, the planet frame on a planet) and what answered it.
struct NormalSample { Vec3f normal; Origin origin; };

/// The sample nearest a point, decoded (relief_ground with `found` set).
struct Ground {
    uint32_t control;  ///< the Terrain3D control word; its fields decoded below
    uint8_t base_texture, overlay_texture, blend, uv_rotation, uv_scale;
    bool hole, navigation, autoshader;
    std::optional<uint32_t> biome;  ///< index into the world's biomes; none without a biome map
    std::optional<uint32_t> lake;   ///< lake id; none outside lakes or without a lake map
    int32_t region_x, region_z;     ///< the region that answered
};
/// The nearest river reach (relief_river with `found` set).
struct River {
    uint32_t reach;                ///< id in the world's rivers table
    double nearest_x, nearest_z;   ///< nearest centreline point, world metres
    ReachKind kind;
    bool in_water;                 ///< within half the width of the centreline
    float width_m, distance_m, bed_m;
};
/// The nearest river reach on a planet (relief_planet_river with `found` set).
struct PlanetRiver {
    uint32_t reach;
    Vec3 nearest;                  ///< planet frame, on the sea-level sphere
    ReachKind kind;
    bool in_water;
    float width_m, distance_m, bed_m;
};
/// The lake containing a point, else the nearest (relief_lake with `found` set).
struct Lake {
    uint32_t lake;                 ///< id in the lakes table
    bool inside;
    float level_m;                 ///< water level
    float distance_m;              ///< 0 inside, else to the shore
};

namespace detail {
inline Lake to_lake(const relief_lake& l) { return Lake{l.lake, l.inside != 0, l.level_m, l.distance_m}; }
}  // namespace detail

/// Queries over a flat world's runtime (relief_terrain), from what it has resident, else
/// the overview. Every method is safe from any number of threads at once, alongside the
/// runtime's updates; destroy it only once no thread uses it. It may outlive the Runtime.
class Terrain {
public:
    Terrain() = default;
    explicit Terrain(relief_terrain* adopt) noexcept : h_(adopt) {}

    /// relief_terrain_height: bilinear height at world (x, z). A non-finite position is no
    /// error: NaN with Origin::Outside.
    Result<HeightSample> height(double x, double z) const {
        HeightSample r{0.0f, Origin::Outside};
        uint32_t origin = 0;
        if (const relief_status s = relief_terrain_height(get(), x, z, &r.height, &origin)) return detail::last_error(s);
        r.origin = static_cast<Origin>(origin);
        return r;
    }
    /// relief_terrain_heights: batch heights, one lock for all. `xz` holds x0, z0, x1, z1, …
    /// (2 doubles a point); `out` room for at least xz.size() / 2 floats. No allocation.
    /// Gives how many came from resident regions (the rest: the overview).
    Result<std::size_t> heights(span<const double> xz, span<float> out) const {
        if (xz.size() % 2 != 0) return detail::local_error(Status::InvalidArgument, "heights: odd xz length");
        uintptr_t from_regions = 0;
        if (const relief_status s = relief_terrain_heights(get(), xz.data(), xz.size() / 2, out.data(), out.size(), &from_regions))
            return detail::last_error(s);
        return static_cast<std::size_t>(from_regions);
    }
    /// relief_terrain_normal: unit normal (y up) at world (x, z).
    Result<NormalSample> normal(double x, double z) const {
        NormalSample r{{0.0f, 0.0f, 0.0f}, Origin::Outside};
        uint32_t origin = 0;
        if (const relief_status s = relief_terrain_normal(get(), x, z, r.normal.data(), &origin)) return detail::last_error(s);
        r.origin = static_cast<Origin>(origin);
        return r;
    }
    /// relief_terrain_normals: batch normals. `xz` as in heights(); `out` room for at least
    /// 3 floats (x, y, z) a point. No allocation.
    Result<void> normals(span<const double> xz, span<float> out) const {
        if (xz.size() % 2 != 0) return detail::local_error(Status::InvalidArgument, "normals: odd xz length");
        return detail::check(relief_terrain_normals(get(), xz.data(), xz.size() / 2, out.data(), out.size()));
    }
    /// relief_terrain_ground: the nearest sample decoded; nullopt where no resident region
    /// covers (x, z).
    Result<std::optional<Ground>> ground(double x, double z) const {
        relief_ground g = detail::sized<relief_ground>();
        if (const relief_status s = relief_terrain_ground(get(), x, z, &g)) return detail::last_error(s);
        if (!g.found) return std::optional<Ground>();
        Ground r{g.control, g.base_texture, g.overlay_texture, g.blend, g.uv_rotation, g.uv_scale,
                 g.hole != 0, g.navigation != 0, g.autoshader != 0, std::nullopt, std::nullopt,
                 g.region_x, g.region_z};
        if (g.has_biome) r.biome = g.biome;
        if (g.has_lake && g.lake != 0) r.lake = g.lake;
        return std::optional<Ground>(r);
    }
    /// relief_terrain_biome: the biome id at the nearest sample; nullopt where no resident
    /// region covers (x, z). Names: World::biome_name.
    Result<std::optional<uint32_t>> biome(double x, double z) const {
        uint32_t found = 0, id = 0;
        if (const relief_status s = relief_terrain_biome(get(), x, z, &found, &id)) return detail::last_error(s);
        return found ? std::optional<uint32_t>(id) : std::nullopt;
    }
    /// relief_terrain_river: the nearest reach within `radius` metres (from the rivers
    /// table: works with nothing resident); nullopt if none.
    Result<std::optional<River>> river(double x, double z, double radius) const {
        relief_river r = detail::sized<relief_river>();
        if (const relief_status s = relief_terrain_river(get(), x, z, radius, &r)) return detail::last_error(s);
        if (!r.found) return std::optional<River>();
        return std::optional<River>(River{r.reach, r.nearest_x, r.nearest_z, static_cast<ReachKind>(r.kind),
                                          r.has_water != 0, r.width_m, r.distance_m, r.bed_m});
    }
    /// relief_terrain_lake: the lake containing (x, z), else the nearest whose shore is
    /// within `radius` metres; nullopt if none.
    Result<std::optional<Lake>> lake(double x, double z, double radius) const {
        relief_lake l = detail::sized<relief_lake>();
        if (const relief_status s = relief_terrain_lake(get(), x, z, radius, &l)) return detail::last_error(s);
        return l.found ? std::optional<Lake>(detail::to_lake(l)) : std::nullopt;
    }

    relief_terrain* get() const noexcept { return h_.get(); }
    explicit operator bool() const noexcept { return h_ != nullptr; }

private:
    detail::Owned<relief_terrain> h_;
};

/// Queries over a planet's runtime (relief_planet_terrain). Positions are planet-frame
/// Vec3s (only their direction matters); position_at() turns latitude/longitude into one.
/// Thread-safety and lifetime as Terrain.
class PlanetTerrain {
public:
    PlanetTerrain() = default;
    explicit PlanetTerrain(relief_planet_terrain* adopt) noexcept : h_(adopt) {}

    /// relief_planet_terrain_position_at: the sea-level point at latitude/longitude
    /// (degrees, about the planet's polar axis).
    Result<Vec3> position_at(double latitude_deg, double longitude_deg) const {
        Vec3 p{};
        if (const relief_status s = relief_planet_terrain_position_at(get(), latitude_deg, longitude_deg, p.data()))
            return detail::last_error(s);
        return p;
    }
    /// relief_planet_terrain_height: height above the radius under `position`.
    Result<HeightSample> height(const Vec3& position) const {
        HeightSample r{0.0f, Origin::Outside};
        uint32_t origin = 0;
        if (const relief_status s = relief_planet_terrain_height(get(), position.data(), &r.height, &origin))
            return detail::last_error(s);
        r.origin = static_cast<Origin>(origin);
        return r;
    }
    /// relief_planet_terrain_heights: batch heights. `xyz` holds 3 doubles a position;
    /// `out` room for at least xyz.size() / 3 floats. Gives how many came from tiles.
    Result<std::size_t> heights(span<const double> xyz, span<float> out) const {
        if (xyz.size() % 3 != 0) return detail::local_error(Status::InvalidArgument, "heights: xyz length not a multiple of 3");
        uintptr_t from_tiles = 0;
        if (const relief_status s = relief_planet_terrain_heights(get(), xyz.data(), xyz.size() / 3, out.data(), out.size(), &from_tiles))
            return detail::last_error(s);
        return static_cast<std::size_t>(from_tiles);
    }
    /// The same, over an array of positions.
    Result<std::size_t> heights(span<const Vec3> positions, span<float> out) const {
        static_assert(sizeof(Vec3) == 3 * sizeof(double), "Vec3 must be 3 packed doubles");
        return heights(span<const double>(positions.empty() ? nullptr : positions[0].data(), positions.size() * 3), out);
    }
    /// relief_planet_terrain_normal: unit normal (planet frame) under `position`.
    Result<NormalSample> normal(const Vec3& position) const {
        NormalSample r{{0.0f, 0.0f, 0.0f}, Origin::Outside};
        uint32_t origin = 0;
        if (const relief_status s = relief_planet_terrain_normal(get(), position.data(), r.normal.data(), &origin))
            return detail::last_error(s);
        r.origin = static_cast<Origin>(origin);
        return r;
    }
    /// relief_planet_terrain_sample: `field` at the nearest sample; nullopt if its tile is
    /// not resident (or the field is absent: sediment/precipitation on v6 planets).
    Result<std::optional<double>> sample(const Vec3& position, PlanetField field) const {
        uint32_t found = 0;
        double value = 0.0;
        if (const relief_status s = relief_planet_terrain_sample(get(), position.data(), static_cast<uint32_t>(field), &found, &value))
            return detail::last_error(s);
        return found ? std::optional<double>(value) : std::nullopt;
    }
    /// relief_planet_terrain_river: the nearest reach within `radius` metres; nullopt if none.
    Result<std::optional<PlanetRiver>> river(const Vec3& position, double radius) const {
        relief_planet_river r = detail::sized<relief_planet_river>();
        if (const relief_status s = relief_planet_terrain_river(get(), position.data(), radius, &r)) return detail::last_error(s);
        if (!r.found) return std::optional<PlanetRiver>();
        return std::optional<PlanetRiver>(PlanetRiver{r.reach, {r.nearest[0], r.nearest[1], r.nearest[2]},
                                                      static_cast<ReachKind>(r.kind), r.has_water != 0,
                                                      r.width_m, r.distance_m, r.bed_m});
    }
    /// relief_planet_terrain_lake: the lake under `position`, else the nearest within
    /// `radius` metres; nullopt if none.
    Result<std::optional<Lake>> lake(const Vec3& position, double radius) const {
        relief_lake l = detail::sized<relief_lake>();
        if (const relief_status s = relief_planet_terrain_lake(get(), position.data(), radius, &l)) return detail::last_error(s);
        return l.found ? std::optional<Lake>(detail::to_lake(l)) : std::nullopt;
    }

    relief_planet_terrain* get() const noexcept { return h_.get(); }
    explicit operator bool() const noexcept { return h_ != nullptr; }

private:
    detail::Owned<relief_planet_terrain> h_;
};

// ---------------------------------------------------------------------------------------
// Held views: a region, tile or chunk kept in memory until the object is destroyed (or
// release() is called), even if it unloads or the runtime is destroyed. Their spans point
// into relief's memory and are valid exactly that long. Safe to read from any thread.

namespace detail {
/// A held handle and the view read from it once (a plain struct whose pointers live as
/// long as the handle). Move-only; a moved-from object is empty.
template <class H, class V>
class Held {
public:
    Held(Held&& o) noexcept : h_(std::move(o.h_)), v_(std::exchange(o.v_, V{})) {}
    Held& operator=(Held&& o) noexcept {
        if (this != &o) { h_ = std::move(o.h_); v_ = std::exchange(o.v_, V{}); }
        return *this;
    }
    /// Lets go now (what the destructor does); every span from it dangles afterwards.
    void release() noexcept { h_.reset(); v_ = V{}; }
    H* get() const noexcept { return h_.get(); }
    /// The C view, for code written against relief.h.
    const V& c_view() const noexcept { return v_; }
    explicit operator bool() const noexcept { return h_ != nullptr; }

protected:
    Held() = default;
    Held(Owned<H> h, const V& v) noexcept : h_(std::move(h)), v_(v) {}
    /// Takes over `raw` and reads its view with `get_view`; releases it if that fails.
    template <class Obj, class F>
    static Result<Obj> adopt_with(H* raw, F get_view) {
        Owned<H> owned(raw);
        V v = sized<V>();
        if (const relief_status s = get_view(raw, &v)) return last_error(s);
        return Obj(std::move(owned), v);
    }
    Owned<H> h_;
    V v_{};
};
}  // namespace detail

/// A held region of a flat world (relief_region + relief_region_view). Every map is
/// size() × size() samples, row-major with X fastest: sample (i, j) is at index(i, j), at
/// world (origin_x() + i·vertex_spacing(), origin_z() + j·vertex_spacing()). Maps the
/// world doesn't carry are empty spans.
class Region : public detail::Held<relief_region, relief_region_view> {
public:
    Region() = default;
    /// Takes over a handle from relief_runtime_acquire_region and reads its view.
    static Result<Region> adopt(relief_region* held) { return adopt_with<Region>(held, relief_region_get_view); }

    int32_t x() const noexcept { return v_.x; }                ///< region location
    int32_t z() const noexcept { return v_.z; }
    uint32_t size() const noexcept { return v_.size; }         ///< samples per side
    double vertex_spacing() const noexcept { return v_.vertex_spacing; }
    double origin_x() const noexcept { return v_.origin_x; }   ///< world x of sample (0, 0)
    double origin_z() const noexcept { return v_.origin_z; }
    std::size_t sample_count() const noexcept { return std::size_t(v_.size) * v_.size; }
    std::size_t index(uint32_t i, uint32_t j) const noexcept { return std::size_t(j) * v_.size + i; }

    span<const float> heights() const noexcept { return detail::view_of(v_.height, sample_count()); }     ///< metres
    span<const uint32_t> control() const noexcept { return detail::view_of(v_.control, sample_count()); } ///< Terrain3D control words
    span<const uint8_t> color() const noexcept { return detail::view_of(v_.color, sample_count() * 4); }  ///< RGBA8, 4 bytes a sample
    span<const uint8_t> biome() const noexcept { return detail::view_of(v_.biome, sample_count()); }      ///< biome ids
    span<const uint16_t> lake() const noexcept { return detail::view_of(v_.lake, sample_count()); }       ///< lake ids (0 = none)

private:
    friend class detail::Held<relief_region, relief_region_view>;
    Region(detail::Owned<relief_region> h, const relief_region_view& v) noexcept : Held(std::move(h), v) {}
};

/// A held planet tile (relief_tile + relief_tile_view): size() × size() samples, row-major;
/// sample (i, j) at index(i, j) is face sample (tx()·size() + i, ty()·size() + j).
class Tile : public detail::Held<relief_tile, relief_tile_view> {
public:
    Tile() = default;
    /// Takes over a handle from relief_runtime_acquire_tile and reads its view.
    static Result<Tile> adopt(relief_tile* held) { return adopt_with<Tile>(held, relief_tile_get_view); }

    uint32_t face() const noexcept { return v_.face; }
    uint32_t tx() const noexcept { return v_.tx; }
    uint32_t ty() const noexcept { return v_.ty; }
    uint32_t size() const noexcept { return v_.size; }
    std::size_t sample_count() const noexcept { return std::size_t(v_.size) * v_.size; }
    std::size_t index(uint32_t i, uint32_t j) const noexcept { return std::size_t(j) * v_.size + i; }

    span<const float> heights() const noexcept { return detail::view_of(v_.height, sample_count()); }   ///< above the radius, metres
    span<const uint8_t> biome() const noexcept { return detail::view_of(v_.biome, sample_count()); }    ///< biome class ids
    span<const uint16_t> lake() const noexcept { return detail::view_of(v_.lake, sample_count()); }     ///< lake ids (0 = none)
    span<const float> sediment() const noexcept { return detail::view_of(v_.sediment, sample_count()); } ///< metres; empty on v6
    span<const float> precipitation() const noexcept { return detail::view_of(v_.precipitation, sample_count()); } ///< mm/yr; empty on v6

private:
    friend class detail::Held<relief_tile, relief_tile_view>;
    Tile(detail::Owned<relief_tile> h, const relief_tile_view& v) noexcept : Held(std::move(h), v) {}
};

/// A held collision chunk (relief_chunk + relief_chunk_view): samples() × samples()
/// heights, row-major with X fastest, NaN at holes. Sample (i, j) lies at
/// sample_position(i, j) = origin + (corner_x + i·spacing)·axis_x + height·up +
/// (corner_z + j·spacing)·axis_z; on a flat world the frame is the world's.
class Chunk : public detail::Held<relief_chunk, relief_chunk_view> {
public:
    Chunk() = default;
    /// Takes over a handle from relief_runtime_acquire_chunk and reads its view.
    static Result<Chunk> adopt(relief_chunk* held) { return adopt_with<Chunk>(held, relief_chunk_get_view); }

    uint32_t face() const noexcept { return v_.face; }          ///< 0 on flat worlds
    int32_t x() const noexcept { return v_.x; }                 ///< chunk index
    int32_t z() const noexcept { return v_.z; }
    uint32_t samples() const noexcept { return v_.samples; }    ///< per side (cells + 1)
    float min_height() const noexcept { return v_.min_height; } ///< lowest non-hole height
    float max_height() const noexcept { return v_.max_height; }
    double spacing() const noexcept { return v_.spacing; }      ///< metres between samples
    double centre_x() const noexcept { return v_.centre_x; }    ///< frame x of the centre (Godot's shape)
    double centre_z() const noexcept { return v_.centre_z; }
    double corner_x() const noexcept { return v_.corner_x; }    ///< frame x of sample (0, 0) (Jolt's offset)
    double corner_z() const noexcept { return v_.corner_z; }
    Vec3 origin() const noexcept { return {v_.origin[0], v_.origin[1], v_.origin[2]}; }
    Vec3 axis_x() const noexcept { return {v_.axis_x[0], v_.axis_x[1], v_.axis_x[2]}; }
    Vec3 up() const noexcept { return {v_.up[0], v_.up[1], v_.up[2]}; }
    Vec3 axis_z() const noexcept { return {v_.axis_z[0], v_.axis_z[1], v_.axis_z[2]}; }
    std::size_t index(uint32_t i, uint32_t j) const noexcept { return std::size_t(j) * v_.samples + i; }
    span<const float> heights() const noexcept { return detail::view_of(v_.heights, std::size_t(v_.samples) * v_.samples); }
    /// (samples() − 1)² bytes, cell (i, j) at j·(samples() − 1) + i: the Terrain3D texture
    /// slot that shows most at sample (i, j) on a flat world, the ground class at the cell's
    /// centre on a planet (relief_chunk_view's `materials`). Jolt's inMaterialIndices order.
    span<const uint8_t> materials() const noexcept {
        const std::size_t cells = v_.samples > 0 ? std::size_t(v_.samples - 1) : 0;
        return detail::view_of(v_.materials, cells * cells);
    }
    /// Where sample (i, j) lies (world metres, or the planet frame); NaN components at holes.
    Vec3 sample_position(uint32_t i, uint32_t j) const noexcept {
        const double a = v_.corner_x + i * v_.spacing, b = v_.corner_z + j * v_.spacing;
        const double h = static_cast<double>(v_.heights[index(i, j)]);
        Vec3 p{};
        for (std::size_t k = 0; k < 3; ++k) p[k] = v_.origin[k] + a * v_.axis_x[k] + h * v_.up[k] + b * v_.axis_z[k];
        return p;
    }

private:
    friend class detail::Held<relief_chunk, relief_chunk_view>;
    Chunk(detail::Owned<relief_chunk> h, const relief_chunk_view& v) noexcept : Held(std::move(h), v) {}
};

/// A held chunk of placed things (relief_things), read in place until it is released (here:
/// destroyed). Things come in runs of one kind; thing `i`'s data is at index `i` of each
/// span. Movable, not copyable.
class Things : public detail::Held<relief_things, relief_things_view> {
public:
    Things() = default;
    /// Takes over a handle from relief_runtime_acquire_things and reads its view.
    static Result<Things> adopt(relief_things* held) { return adopt_with<Things>(held, relief_things_get_view); }

    Band band() const noexcept { return static_cast<Band>(v_.band); }
    uint32_t face() const noexcept { return v_.face; }  ///< 0 on flat worlds
    int32_t x() const noexcept { return v_.x; }         ///< chunk index in its band
    int32_t z() const noexcept { return v_.z; }
    std::size_t count() const noexcept { return v_.count; }
    /// What positions and transforms are relative to (0, 0, 0 on a flat world).
    Vec3 origin() const noexcept { return {v_.origin[0], v_.origin[1], v_.origin[2]}; }
    span<const relief_thing_run> runs() const noexcept { return detail::view_of(v_.runs, v_.run_count); }
    span<const uint64_t> ids() const noexcept { return detail::view_of(v_.ids, v_.count); }
    /// 3 floats a thing; 1 float a thing.
    span<const float> positions() const noexcept { return detail::view_of(v_.positions, std::size_t(v_.count) * 3); }
    span<const float> scales() const noexcept { return detail::view_of(v_.scales, v_.count); }
    /// 12 floats a thing: Godot's MultiMesh buffer (3 × 4 row-major transforms).
    span<const float> rows() const noexcept { return detail::view_of(v_.rows, std::size_t(v_.count) * 12); }
    /// 16 floats a thing: Unity's Matrix4x4 (column-major), RenderMeshInstanced's data.
    span<const float> matrices() const noexcept { return detail::view_of(v_.matrices, std::size_t(v_.count) * 16); }
    /// One run's rows: the MultiMesh buffer of its kind in this chunk.
    span<const float> rows_of(const relief_thing_run& r) const noexcept {
        return detail::view_of(v_.rows + std::size_t(r.start) * 12, std::size_t(r.count) * 12);
    }
    span<const relief_thing_collider> colliders() const noexcept { return detail::view_of(v_.colliders, v_.collider_count); }

private:
    friend class detail::Held<relief_things, relief_things_view>;
    Things(detail::Owned<relief_things> h, const relief_things_view& v) noexcept : Held(std::move(h), v) {}
};

// ---------------------------------------------------------------------------------------
// Runtime.

/// relief_runtime_config filled with relief's defaults (relief_runtime_config_default),
/// struct_size set. Change any field by its C name (relief.h documents them), e.g.
/// `cfg.load_radius = 800; cfg.drop_radius = 1000; cfg.set_flags(RuntimeFlags::NoLevels);`.
struct RuntimeConfig : relief_runtime_config {
    RuntimeConfig() noexcept : relief_runtime_config() {
        struct_size = sizeof(relief_runtime_config);
        if (abi_compatible()) (void)relief_runtime_config_default(this);
    }
    /// Sets `flags` from RuntimeFlags.
    RuntimeConfig& set_flags(RuntimeFlags f) noexcept { flags = static_cast<uint32_t>(f); return *this; }
};

using RuntimeStats = relief_runtime_stats;  ///< relief.h documents the fields.
using StreamStats = relief_stream_stats;    ///< relief.h documents the fields.
using DirtyRect = relief_dirty_rect;        ///< level `level`, columns x..x+width, rows z..z+depth

/// One event (relief_event). (face, x, z) is a region's location (face 0), a planet tile's
/// (face, tx, ty) or a collision chunk's index; for LevelsDirty, x is the rect count.
struct Event {
    EventKind kind;
    uint32_t face;
    int32_t x, z;
    Status status;      ///< Failed, ChunkFailed: why; else Ok
    uint32_t attempt;   ///< Failed, ChunkFailed: attempts so far
    uint64_t bytes;     ///< Loaded, ChunkReady: bytes now resident
    bool will_retry;    ///< Failed, ChunkFailed: will be tried again
    uint32_t band;      ///< ThingsReady, ThingsDropped, ThingsFailed: the chunk's band
    const char* kind_name() const { return to_string(kind); }
};

/// The events one Runtime::poll_events() took, oldest first: iterable, indexable, each
/// element converted to an Event as it is read. Valid until the next poll_events().
class Events {
public:
    class iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Event;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Event;
        explicit iterator(const relief_event* p) : p_(p) {}
        Event operator*() const { return convert(*p_); }
        iterator& operator++() { ++p_; return *this; }
        iterator operator++(int) { iterator t = *this; ++p_; return t; }
        bool operator==(const iterator& o) const { return p_ == o.p_; }
        bool operator!=(const iterator& o) const { return p_ != o.p_; }

    private:
        const relief_event* p_;
    };
    Events() = default;
    Events(const relief_event* events, std::size_t count) : events_(events), count_(count) {}
    iterator begin() const { return iterator(events_); }
    iterator end() const { return iterator(events_ + count_); }
    std::size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    Event operator[](std::size_t i) const { return convert(events_[i]); }
    /// relief_event -> Event.
    static Event convert(const relief_event& e) {
        return Event{static_cast<EventKind>(e.kind), e.face, e.x, e.z, static_cast<Status>(e.status),
                     e.attempt, e.bytes, e.will_retry != 0, e.band};
    }

private:
    const relief_event* events_ = nullptr;
    std::size_t count_ = 0;
};

/// Collision chunk coordinates (Runtime::chunk_at).
struct ChunkId { uint32_t face; int32_t x, z; };

/// One far-ground level, BORROWED from the runtime (relief_level_view): its heights are
/// valid only until the runtime's next update / update_with_camera / settle, or its
/// destruction. Read (or upload) it in the frame you got it; don't keep it.
/// Storage is toroidal: world cell (i, j) of the window origin_i()..origin_i()+size()
/// (likewise j) is at index(i, j); cell (i, j) covers plane (x, z) from (i·spacing(),
/// j·spacing()), the point plane_origin + x·plane_x + z·plane_z, heights along plane_up.
class BorrowedLevelView {
public:
    explicit BorrowedLevelView(const relief_level_view& v) noexcept : v_(v) {}
    uint32_t level() const noexcept { return v_.level; }
    uint32_t size() const noexcept { return v_.size; }          ///< cells per side
    bool filled() const noexcept { return v_.filled != 0; }     ///< false before the first update fills it
    int64_t origin_i() const noexcept { return v_.origin_i; }   ///< world cell of the window's first cell
    int64_t origin_j() const noexcept { return v_.origin_j; }
    double spacing() const noexcept { return v_.spacing; }      ///< metres per cell
    span<const float> heights() const noexcept { return detail::view_of(v_.heights, std::size_t(v_.size) * v_.size); }
    /// Whether world cell (i, j) is in the window.
    bool contains(int64_t i, int64_t j) const noexcept {
        return i >= v_.origin_i && i < v_.origin_i + v_.size && j >= v_.origin_j && j < v_.origin_j + v_.size;
    }
    /// Storage index of world cell (i, j) (non-negative modulo).
    std::size_t index(int64_t i, int64_t j) const noexcept {
        const int64_t n = v_.size;
        return static_cast<std::size_t>(((j % n) + n) % n * n + ((i % n) + n) % n);
    }
    Vec3 plane_origin() const noexcept { return {v_.plane_origin[0], v_.plane_origin[1], v_.plane_origin[2]}; }
    Vec3 plane_x() const noexcept { return {v_.plane_x[0], v_.plane_x[1], v_.plane_x[2]}; }
    Vec3 plane_up() const noexcept { return {v_.plane_up[0], v_.plane_up[1], v_.plane_up[2]}; }
    Vec3 plane_z() const noexcept { return {v_.plane_z[0], v_.plane_z[1], v_.plane_z[2]}; }
    const relief_level_view& c_view() const noexcept { return v_; }

private:
    relief_level_view v_;
};

/// Everything streamed around a focus (relief_runtime): regions or tiles, collision chunks,
/// far-ground levels. Call update() once a frame on the main thread, then poll_events().
/// Non-const methods are for that one thread; const ones (stats, acquire_*, chunk_at,
/// create_*terrain) for any. Held views and terrains may outlive it.
class Runtime {
public:
    Runtime() = default;
    explicit Runtime(relief_runtime* adopt) noexcept : h_(adopt) {}

    /// relief_runtime_create: a runtime over a flat world. Loader threads start now;
    /// nothing loads before the first update.
    static Result<Runtime> create(const World& world, const RuntimeConfig& config = RuntimeConfig()) {
        return detail::make<Runtime, relief_runtime>([&](relief_runtime** out) {
            return relief_runtime_create(world.get(), &config, out);
        });
    }
    /// relief_planet_runtime_create: a runtime over a planet (tiles, tangent-frame chunks, rings).
    static Result<Runtime> create(const Planet& planet, const RuntimeConfig& config = RuntimeConfig()) {
        return detail::make<Runtime, relief_runtime>([&](relief_runtime** out) {
            return relief_planet_runtime_create(planet.get(), &config, out);
        });
    }

    /// relief_runtime_update: one frame around the focus (world metres, y ignored on a flat
    /// world; the planet frame on a planet). Never blocks on I/O. Invalidates the previous
    /// BorrowedLevelView and dirty_rects().
    Result<void> update(double x, double y, double z) { return detail::check(relief_runtime_update(get(), x, y, z)); }
    Result<void> update(const Vec3& focus) { return update(focus[0], focus[1], focus[2]); }
    /// relief_runtime_update_with_camera: regions and collision follow `focus`, the levels
    /// `camera`.
    Result<void> update_with_camera(const Vec3& focus, const Vec3& camera) {
        return detail::check(relief_runtime_update_with_camera(get(), focus[0], focus[1], focus[2],
                                                               camera[0], camera[1], camera[2]));
    }
    /// relief_runtime_settle: updates until all the focus wants is loaded or `timeout_ms`
    /// passes. ok() says the call worked, the value whether it settled (`*r`). For loading
    /// screens and tests, not per frame. It queues one LevelsDirty at its end, with
    /// dirty() covering every level whole (see the C function).
    Result<bool> settle(const Vec3& focus, uint32_t timeout_ms) {
        uint32_t settled = 0;
        if (const relief_status s = relief_runtime_settle(get(), focus[0], focus[1], focus[2], timeout_ms, &settled))
            return detail::last_error(s);
        return settled != 0;
    }

    /// relief_runtime_poll_events: takes every pending event into a buffer this Runtime
    /// keeps and reuses, so it allocates only when a frame brings more events than any
    /// before (it starts with room for 256). The Events are valid until the next call.
    Result<Events> poll_events() {
        if (events_.empty()) events_.resize(256);
        std::size_t total = 0;
        for (;;) {
            uintptr_t n = 0;
            const relief_status s = relief_runtime_poll_events(get(), events_.data() + total, sizeof(relief_event),
                                                               events_.size() - total, &n);
            if (s != RELIEF_STATUS_OK) {
                if (total == 0) return detail::last_error(s);
                break;  // keep what was taken; the error will show again next call
            }
            total += n;
            if (total < events_.size()) break;
            events_.resize(events_.size() * 2);
        }
        return Events(events_.data(), total);
    }
    /// The same without any buffer: calls `f(const Event&)` for every pending event, 64 at a
    /// time from a stack array. Gives the number of events.
    template <class F>
    Result<std::size_t> for_each_event(F&& f) {
        relief_event buffer[64];
        std::size_t total = 0;
        for (;;) {
            uintptr_t n = 0;
            if (const relief_status s = relief_runtime_poll_events(get(), buffer, sizeof(relief_event), 64, &n))
                return detail::last_error(s);
            for (uintptr_t i = 0; i < n; ++i) f(Events::convert(buffer[i]));
            total += n;
            if (n < 64) return total;
        }
    }

    /// relief_runtime_get_dirty: the level rects the last update rewrote, in a buffer this
    /// Runtime keeps (grown only when needed); valid until the next update or call.
    Result<span<const DirtyRect>> dirty_rects() {
        uintptr_t count = 0;
        if (const relief_status s = relief_runtime_get_dirty(get(), nullptr, sizeof(DirtyRect), 0, &count))
            return detail::last_error(s);
        if (count == 0) return span<const DirtyRect>();
        if (rects_.size() < count) rects_.resize(count);
        if (const relief_status s = relief_runtime_get_dirty(get(), rects_.data(), sizeof(DirtyRect), rects_.size(), &count))
            return detail::last_error(s);
        return span<const DirtyRect>(rects_.data(), count);
    }
    /// relief_runtime_get_level: level `level`'s heights, borrowed until the next update
    /// (see BorrowedLevelView).
    Result<BorrowedLevelView> borrow_level(uint32_t level) {
        relief_level_view v = detail::sized<relief_level_view>();
        if (const relief_status s = relief_runtime_get_level(get(), level, &v)) return detail::last_error(s);
        return BorrowedLevelView(v);
    }

    /// relief_runtime_acquire_region: holds resident region (x, z) (after its Loaded event);
    /// NotFound if it is not resident.
    Result<Region> acquire_region(int32_t x, int32_t z) const {
        relief_region* raw = nullptr;
        if (const relief_status s = relief_runtime_acquire_region(get(), x, z, &raw)) return detail::last_error(s);
        return Region::adopt(raw);
    }
    /// relief_runtime_acquire_tile: holds resident planet tile (face, tx, ty).
    Result<Tile> acquire_tile(uint32_t face, uint32_t tx, uint32_t ty) const {
        relief_tile* raw = nullptr;
        if (const relief_status s = relief_runtime_acquire_tile(get(), face, tx, ty, &raw)) return detail::last_error(s);
        return Tile::adopt(raw);
    }
    /// The region (Loaded, flat world), tile (Loaded, planet) or chunk (ChunkReady) an event
    /// names, held; InvalidArgument for any other kind of event.
    Result<Region> acquire_region(const Event& e) const {
        if (e.kind != EventKind::Loaded) return detail::local_error(Status::InvalidArgument, "acquire: not a Loaded event");
        return acquire_region(e.x, e.z);
    }
    Result<Tile> acquire_tile(const Event& e) const {
        if (e.kind != EventKind::Loaded || e.x < 0 || e.z < 0)
            return detail::local_error(Status::InvalidArgument, "acquire: not a planet tile's Loaded event");
        return acquire_tile(e.face, static_cast<uint32_t>(e.x), static_cast<uint32_t>(e.z));
    }
    Result<Chunk> acquire_chunk(const Event& e) const {
        if (e.kind != EventKind::ChunkReady) return detail::local_error(Status::InvalidArgument, "acquire: not a ChunkReady event");
        return acquire_chunk(e.face, e.x, e.z);
    }
    /// relief_runtime_acquire_chunk: holds built collision chunk (face, x, z) (after its
    /// ChunkReady event; face 0 on flat worlds).
    Result<Chunk> acquire_chunk(uint32_t face, int32_t x, int32_t z) const {
        relief_chunk* raw = nullptr;
        if (const relief_status s = relief_runtime_acquire_chunk(get(), face, x, z, &raw)) return detail::last_error(s);
        return Chunk::adopt(raw);
    }
    Result<Things> acquire_things(const Event& e) const {
        if (e.kind != EventKind::ThingsReady) return detail::local_error(Status::InvalidArgument, "acquire: not a ThingsReady event");
        return acquire_things(static_cast<Band>(e.band), e.face, e.x, e.z);
    }
    /// relief_runtime_acquire_things: holds placed thing chunk (band, face, x, z) (after its
    /// ThingsReady event).
    Result<Things> acquire_things(Band band, uint32_t face, int32_t x, int32_t z) const {
        relief_things* raw = nullptr;
        if (const relief_status s = relief_runtime_acquire_things(get(), static_cast<uint32_t>(band), face, x, z, &raw))
            return detail::last_error(s);
        return Things::adopt(raw);
    }
    /// relief_runtime_get_thing_kind: kind `kind` of the world's things.json (its name maps
    /// to a mesh or prefab).
    Result<relief_thing_kind> thing_kind(uint32_t kind) const {
        relief_thing_kind k{};
        k.struct_size = sizeof k;
        if (const relief_status s = relief_runtime_get_thing_kind(get(), kind, &k)) return detail::last_error(s);
        return k;
    }
    /// relief_runtime_thing_kind_count.
    Result<uint32_t> thing_kind_count() const {
        uint32_t n = 0;
        if (const relief_status s = relief_runtime_thing_kind_count(get(), &n)) return detail::last_error(s);
        return n;
    }
    /// relief_runtime_things_within: the placed things within `radius` of `position`,
    /// nearest first.
    Result<std::vector<relief_thing_hit>> things_within(const Vec3& position, double radius) const {
        std::size_t n = 0;
        if (const relief_status s = relief_runtime_things_within(get(), position.data(), radius, nullptr, sizeof(relief_thing_hit), 0, &n))
            return detail::last_error(s);
        std::vector<relief_thing_hit> hits(n);
        if (n == 0) return hits;
        if (const relief_status s = relief_runtime_things_within(get(), position.data(), radius, hits.data(), sizeof(relief_thing_hit), n, &n))
            return detail::last_error(s);
        if (n < hits.size()) hits.resize(n);
        return hits;
    }
    /// relief_runtime_chunk_at: the collision chunk containing `position`, built or not.
    Result<ChunkId> chunk_at(const Vec3& position) const {
        ChunkId id{0, 0, 0};
        if (const relief_status s = relief_runtime_chunk_at(get(), position.data(), &id.face, &id.x, &id.z))
            return detail::last_error(s);
        return id;
    }

    /// relief_runtime_create_terrain: a query handle over a flat world's runtime.
    Result<Terrain> create_terrain() const {
        return detail::make<Terrain, relief_terrain>([&](relief_terrain** out) { return relief_runtime_create_terrain(get(), out); });
    }
    /// relief_runtime_create_planet_terrain: a query handle over a planet's runtime.
    Result<PlanetTerrain> create_planet_terrain() const {
        return detail::make<PlanetTerrain, relief_planet_terrain>([&](relief_planet_terrain** out) {
            return relief_runtime_create_planet_terrain(get(), out);
        });
    }

    /// relief_runtime_get_stats: a snapshot (update times, loading progress).
    Result<RuntimeStats> stats() const {
        RuntimeStats st = detail::sized<RuntimeStats>();
        if (const relief_status s = relief_runtime_get_stats(get(), &st)) return detail::last_error(s);
        return st;
    }
    /// relief_runtime_get_stream_stats: one stream's snapshot (Chunks fails without collision).
    Result<StreamStats> stream_stats(Stream stream) const {
        StreamStats st = detail::sized<StreamStats>();
        if (const relief_status s = relief_runtime_get_stream_stats(get(), static_cast<uint32_t>(stream), &st))
            return detail::last_error(s);
        return st;
    }

    relief_runtime* get() const noexcept { return h_.get(); }
    explicit operator bool() const noexcept { return h_ != nullptr; }

private:
    detail::Owned<relief_runtime> h_;
    std::vector<relief_event> events_;
    std::vector<DirtyRect> rects_;
};

}  // namespace relief

#undef RELIEF_HPP_TRY
#undef RELIEF_HPP_CATCH_ALL

#endif  // RELIEF_HPP
