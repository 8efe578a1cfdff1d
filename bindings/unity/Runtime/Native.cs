// The C ABI, declared for P/Invoke: every struct and function of include/relief.h, with the
// header's names, so tests can check each field's offset against the C compiler's. All internal:
// callers use the wrappers (World, Planet, Runtime, ...) and the value types of Values.cs.
//
// C# subset: what both Unity (C# 9) and Mono's `mcs -langversion:7.2` accept.
using System;
using System.Runtime.InteropServices;

namespace Relief.Native
{
    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_world_info
    {
        public uint struct_size;
        public uint region_size;
        public double vertex_spacing;
        public int region_min_x;
        public int region_min_z;
        public int region_max_x;
        public int region_max_z;
        public float height_min;
        public float height_max;
        public float sea_level;
        public uint region_count;
        public uint reach_count;
        public uint lake_count;
        public uint biome_count;
    }

    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate int relief_read_fn(IntPtr user, ulong offset, ulong length, IntPtr output);

    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate void relief_release_fn(IntPtr user);

    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_reader
    {
        public uint struct_size;
        public ulong length;
        public IntPtr user;
        /// <summary>A relief_read_fn from Marshal.GetFunctionPointerForDelegate.</summary>
        public IntPtr read_at;
        /// <summary>A relief_release_fn, or IntPtr.Zero.</summary>
        public IntPtr release;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_http_options
    {
        public uint struct_size;
        public uint timeout_ms;
        public uint retries;
        /// <summary>A NUL-terminated UTF-8 path, or IntPtr.Zero for the user's cache directory.</summary>
        public IntPtr cache_dir;
        public ulong cache_budget_bytes;
        /// <summary>An array of header_count NUL-terminated UTF-8 "Name: value" strings.</summary>
        public IntPtr headers;
        public UIntPtr header_count;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_stream_config
    {
        public uint struct_size;
        public uint worker_threads;
        public double load_radius;
        public double drop_radius;
        public ulong budget_bytes;
        public uint update_budget_us;
        public uint max_attempts;
        public uint retry_delay_ms;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_event
    {
        public uint kind;
        public int x;
        public int z;
        public uint status;
        public ulong bytes;
        public uint attempt;
        public uint will_retry;
        public uint face;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_stream_stats
    {
        public uint struct_size;
        public uint ready;
        public uint cached;
        public uint in_flight;
        public uint queue_depth;
        public uint wanted;
        public uint trimmed;
        public uint latency_p50_us;
        public uint latency_p99_us;
        public uint update_last_us;
        public uint update_p50_us;
        public uint update_p99_us;
        public uint update_max_us;
        public ulong ready_bytes;
        public ulong cached_bytes;
        public ulong in_flight_bytes;
        public ulong budget_bytes;
        public ulong loads;
        public ulong failures;
        public ulong evictions;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_region_view
    {
        public uint struct_size;
        public int x;
        public int z;
        public uint size;
        public double vertex_spacing;
        public double origin_x;
        public double origin_z;
        public IntPtr height;
        public IntPtr control;
        public IntPtr color;
        public IntPtr biome;
        public IntPtr lake;
        public IntPtr token;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct relief_chunk_view
    {
        public uint struct_size;
        public int x;
        public int z;
        public uint samples;
        public float min_height;
        public float max_height;
        public double spacing;
        public double centre_x;
        public double centre_z;
        public double corner_x;
        public double corner_z;
        public IntPtr heights;
        public IntPtr token;
        public uint face;
        public fixed double origin[3];
        public fixed double axis_x[3];
        public fixed double up[3];
        public fixed double axis_z[3];
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_ground
    {
        public uint struct_size;
        public uint found;
        public uint control;
        public byte base_texture;
        public byte overlay_texture;
        public byte blend;
        public byte uv_rotation;
        public byte uv_scale;
        public byte hole;
        public byte navigation;
        public byte autoshader;
        public uint has_biome;
        public uint biome;
        public uint has_lake;
        public uint lake;
        public int region_x;
        public int region_z;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_river
    {
        public uint struct_size;
        public uint found;
        public uint reach;
        public double nearest_x;
        public double nearest_z;
        public uint kind;
        public uint has_water;
        public float width_m;
        public float distance_m;
        public float bed_m;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_lake
    {
        public uint struct_size;
        public uint found;
        public uint lake;
        public uint inside;
        public float level_m;
        public float distance_m;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_clipmap_config
    {
        public uint struct_size;
        public uint levels;
        public uint size;
        public double base_spacing;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_dirty_rect
    {
        public uint level;
        public uint x;
        public uint z;
        public uint width;
        public uint depth;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct relief_clipmap_level
    {
        public uint struct_size;
        public uint level;
        public uint size;
        public uint filled;
        public long origin_i;
        public long origin_j;
        public double spacing;
        public IntPtr heights;
        public fixed double plane_origin[3];
        public fixed double plane_x[3];
        public fixed double plane_up[3];
        public fixed double plane_z[3];
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct relief_planet_info
    {
        public uint struct_size;
        public uint version;
        public double radius;
        public fixed double polar_axis[3];
        public uint face_resolution;
        public uint tile_size;
        public uint tiles_per_side;
        public uint projection;
        public double spacing;
        public float height_min;
        public float height_max;
        public float sea_level;
        public uint has_v7_fields;
        public uint reach_count;
        public uint lake_count;
        public uint biome_count;
        public uint field_count;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_tile_view
    {
        public uint struct_size;
        public uint face;
        public uint tx;
        public uint ty;
        public uint size;
        public IntPtr height;
        public IntPtr biome;
        public IntPtr lake;
        public IntPtr sediment;
        public IntPtr precipitation;
        public IntPtr token;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct relief_planet_river
    {
        public uint struct_size;
        public uint found;
        public uint reach;
        public fixed double nearest[3];
        public uint kind;
        public uint has_water;
        public float width_m;
        public float distance_m;
        public float bed_m;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_runtime_config
    {
        public uint struct_size;
        public uint flags;
        public relief_stream_config pieces;
        public relief_stream_config collision;
        public double chunk_size_m;
        public relief_clipmap_config levels;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_runtime_stats
    {
        public uint struct_size;
        public uint has_chunks;
        public relief_stream_stats pieces;
        public relief_stream_stats chunks;
        public uint update_last_us;
        public uint pieces_last_us;
        public uint levels_last_us;
        public uint chunks_last_us;
        public uint update_p50_us;
        public uint update_p99_us;
        public uint update_max_us;
        public uint reserved;
        public ulong level_cells_last;
        public ulong level_cells_total;
    }

    /// <summary>The exports of the relief native library, one per C function.</summary>
    internal static class NativeMethods
    {
#if (UNITY_IOS || UNITY_WEBGL) && !UNITY_EDITOR
        public const string Library = "__Internal";
#else
        public const string Library = "relief";
#endif

        public const uint RELIEF_ABI_VERSION = 1;
        public const uint RELIEF_STATUS_OK = 0;
        public const uint RELIEF_STATUS_INVALID_ARGUMENT = 1;
        public const uint RELIEF_STATUS_NOT_FOUND = 2;
        public const uint RELIEF_STATUS_CORRUPT = 3;
        public const uint RELIEF_STATUS_UNSUPPORTED_VERSION = 4;
        public const uint RELIEF_STATUS_IO = 5;
        public const uint RELIEF_STATUS_PANIC = 6;
        public const uint RELIEF_STREAM_KIND_REGIONS = 0;
        public const uint RELIEF_STREAM_KIND_COLLISION = 1;
        public const uint RELIEF_EVENT_LOADED = 0;
        public const uint RELIEF_EVENT_UNLOADED = 1;
        public const uint RELIEF_EVENT_FAILED = 2;
        public const uint RELIEF_EVENT_CHUNK_READY = 3;
        public const uint RELIEF_EVENT_CHUNK_DROPPED = 4;
        public const uint RELIEF_EVENT_CHUNK_FAILED = 5;
        public const uint RELIEF_EVENT_LEVELS_DIRTY = 6;
        public const uint RELIEF_RUNTIME_NO_COLLISION = 1;
        public const uint RELIEF_RUNTIME_NO_LEVELS = 2;
        public const uint RELIEF_ORIGIN_REGION = 0;
        public const uint RELIEF_ORIGIN_OVERVIEW = 1;
        public const uint RELIEF_ORIGIN_OUTSIDE = 2;
        public const uint RELIEF_REACH_CREEK = 0;
        public const uint RELIEF_REACH_RIVER = 1;
        public const uint RELIEF_PLANET_FIELD_BIOME = 0;
        public const uint RELIEF_PLANET_FIELD_SEDIMENT = 1;
        public const uint RELIEF_PLANET_FIELD_PRECIPITATION = 2;

        const CallingConvention C = CallingConvention.Cdecl;

        [DllImport(Library, CallingConvention = C)] internal static extern IntPtr relief_last_error_message();
        [DllImport(Library, CallingConvention = C)] internal static extern IntPtr relief_version();
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_abi_version();

        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_world_open(byte[] path, out WorldHandle out_world);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_world_open_memory(byte* bytes, UIntPtr length, out WorldHandle out_world);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_world_open_reader(ref relief_reader reader, out WorldHandle out_world);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_world_open_url(byte[] url, ref relief_http_options options, out WorldHandle out_world);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_world_open_file_range(byte[] path, ulong offset, ulong length, out WorldHandle out_world);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_http_options_default(out relief_http_options options);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_world_destroy(IntPtr world);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_world_get_info(WorldHandle world, ref relief_world_info info);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_world_get_biome_name(WorldHandle world, uint id, byte* name, UIntPtr capacity, out UIntPtr out_length);

        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_stream_config_default(uint kind, out relief_stream_config config);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_streamer_create(WorldHandle world, ref relief_stream_config config, out StreamerHandle out_streamer);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_streamer_destroy(IntPtr streamer);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_streamer_update(StreamerHandle streamer, double x, double y, double z);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_streamer_settle(StreamerHandle streamer, double x, double y, double z, uint timeout_ms, out uint out_settled);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_streamer_poll_events(StreamerHandle streamer, relief_event* events, UIntPtr event_size, UIntPtr capacity, out UIntPtr out_count);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_streamer_get_stats(StreamerHandle streamer, ref relief_stream_stats stats);

        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_region_acquire(StreamerHandle streamer, int x, int z, ref relief_region_view view);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_region_release(ref relief_region_view view);

        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_terrain_create(StreamerHandle streamer, out TerrainHandle out_terrain);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_terrain_destroy(IntPtr terrain);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_terrain_height(TerrainHandle terrain, double x, double z, out float out_height, out uint out_origin);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_terrain_heights(TerrainHandle terrain, double* xz, UIntPtr point_count, float* out_heights, UIntPtr capacity, out UIntPtr out_from_regions);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_terrain_normal(TerrainHandle terrain, double x, double z, float* out_normal, out uint out_origin);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_terrain_normals(TerrainHandle terrain, double* xz, UIntPtr point_count, float* out_normals, UIntPtr capacity);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_terrain_ground(TerrainHandle terrain, double x, double z, ref relief_ground out_ground);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_terrain_biome(TerrainHandle terrain, double x, double z, out uint out_found, out uint out_biome);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_terrain_river(TerrainHandle terrain, double x, double z, double radius, ref relief_river out_river);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_terrain_lake(TerrainHandle terrain, double x, double z, double radius, ref relief_lake out_lake);

        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_collision_create(StreamerHandle streamer, ref relief_stream_config config, double chunk_size_m, out CollisionHandle out_collision);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_collision_destroy(IntPtr collision);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_collision_update(CollisionHandle collision, double x, double y, double z);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_collision_settle(CollisionHandle collision, double x, double y, double z, uint timeout_ms, out uint out_settled);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_collision_poll_events(CollisionHandle collision, relief_event* events, UIntPtr event_size, UIntPtr capacity, out UIntPtr out_count);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_collision_get_stats(CollisionHandle collision, ref relief_stream_stats stats);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_collision_chunk_at(CollisionHandle collision, double* position, out uint out_face, out int out_x, out int out_z);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_collision_acquire(CollisionHandle collision, uint face, int x, int z, ref relief_chunk_view view);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_collision_release(ref relief_chunk_view view);

        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_clipmap_config_default(out relief_clipmap_config config);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_clipmap_create(TerrainHandle terrain, ref relief_clipmap_config config, out ClipmapHandle out_clipmap);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_clipmap_destroy(IntPtr clipmap);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_clipmap_update(ClipmapHandle clipmap, double x, double y, double z, out UIntPtr out_dirty_count);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_clipmap_refresh_region(ClipmapHandle clipmap, int x, int z, out UIntPtr out_dirty_count);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_clipmap_get_dirty(ClipmapHandle clipmap, relief_dirty_rect* rects, UIntPtr rect_size, UIntPtr capacity, out UIntPtr out_count);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_clipmap_get_level(ClipmapHandle clipmap, uint level, ref relief_clipmap_level out_level);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_clipmap_refresh_tile(ClipmapHandle clipmap, uint face, uint tx, uint ty, out UIntPtr out_dirty_count);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_planet_clipmap_create(PlanetTerrainHandle terrain, ref relief_clipmap_config config, out ClipmapHandle out_clipmap);

        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_planet_open(byte[] path, out PlanetHandle out_planet);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_open_memory(byte* bytes, UIntPtr length, out PlanetHandle out_planet);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_planet_open_reader(ref relief_reader reader, out PlanetHandle out_planet);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_planet_open_url(byte[] url, ref relief_http_options options, out PlanetHandle out_planet);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_planet_open_file_range(byte[] path, ulong offset, ulong length, out PlanetHandle out_planet);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_planet_destroy(IntPtr planet);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_planet_get_info(PlanetHandle planet, ref relief_planet_info info);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_get_biome_name(PlanetHandle planet, uint id, byte* name, UIntPtr capacity, out UIntPtr out_length);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_planet_streamer_create(PlanetHandle planet, ref relief_stream_config config, out StreamerHandle out_streamer);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_tile_acquire(StreamerHandle streamer, uint face, uint tx, uint ty, ref relief_tile_view view);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_tile_release(ref relief_tile_view view);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_planet_terrain_create(StreamerHandle streamer, out PlanetTerrainHandle out_terrain);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_planet_terrain_destroy(IntPtr terrain);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_terrain_position_at(PlanetTerrainHandle terrain, double latitude_deg, double longitude_deg, double* out_position);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_terrain_height(PlanetTerrainHandle terrain, double* position, out float out_height, out uint out_origin);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_terrain_heights(PlanetTerrainHandle terrain, double* xyz, UIntPtr point_count, float* out_heights, UIntPtr capacity, out UIntPtr out_from_tiles);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_terrain_normal(PlanetTerrainHandle terrain, double* position, float* out_normal, out uint out_origin);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_terrain_sample(PlanetTerrainHandle terrain, double* position, uint field, out uint out_found, out double out_value);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_terrain_river(PlanetTerrainHandle terrain, double* position, double radius, ref relief_planet_river out_river);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_terrain_lake(PlanetTerrainHandle terrain, double* position, double radius, ref relief_lake out_lake);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_config_default(out relief_runtime_config config);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_create(WorldHandle world, ref relief_runtime_config config, out RuntimeHandle out_runtime);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_planet_runtime_create(PlanetHandle planet, ref relief_runtime_config config, out RuntimeHandle out_runtime);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_runtime_destroy(IntPtr runtime);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_update(RuntimeHandle runtime, double x, double y, double z);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_update_with_camera(RuntimeHandle runtime, double fx, double fy, double fz, double cx, double cy, double cz);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_settle(RuntimeHandle runtime, double x, double y, double z, uint timeout_ms, out uint out_settled);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_runtime_poll_events(RuntimeHandle runtime, relief_event* events, UIntPtr event_size, UIntPtr capacity, out UIntPtr out_count);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_get_stats(RuntimeHandle runtime, ref relief_runtime_stats stats);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_runtime_get_dirty(RuntimeHandle runtime, relief_dirty_rect* rects, UIntPtr rect_size, UIntPtr capacity, out UIntPtr out_count);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_get_level(RuntimeHandle runtime, uint level, ref relief_clipmap_level out_level);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_acquire_region(RuntimeHandle runtime, int x, int z, ref relief_region_view view);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_acquire_tile(RuntimeHandle runtime, uint face, uint tx, uint ty, ref relief_tile_view view);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_runtime_chunk_at(RuntimeHandle runtime, double* position, out uint out_face, out int out_x, out int out_z);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_acquire_chunk(RuntimeHandle runtime, uint face, int x, int z, ref relief_chunk_view view);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_create_terrain(RuntimeHandle runtime, out TerrainHandle out_terrain);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_create_planet_terrain(RuntimeHandle runtime, out PlanetTerrainHandle out_terrain);
    }
}
