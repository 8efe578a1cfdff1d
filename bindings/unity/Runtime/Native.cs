// The C ABI, declared for P/Invoke: every struct and function of include/relief.h, with the
// header's names and in its order, so tests can check each field's offset against the C
// compiler's. All internal: callers use the wrappers (World, Planet, Runtime, ...) and the value
// types of Values.cs.
//
// Structs passed whole start with struct_size, which the caller sets (to Marshal.SizeOf of the
// C# struct) before every call that reads or fills one, the *_default calls included. Handles
// relief writes (worlds, runtimes, held regions, ...) come back as SafeHandles (Handles.cs).
//
// C# subset: what both Unity (C# 9) and Mono's `mcs -langversion:7.2` accept.
using System;
using System.Runtime.InteropServices;

namespace Relief.Native
{
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
        /// <summary>Nonzero: headers also go to another host a redirect names.</summary>
        public byte headers_to_other_hosts;
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
    internal unsafe struct relief_runtime_config
    {
        public uint struct_size;
        public uint flags;
        public uint loader_threads;
        public uint update_budget_us;
        public uint max_attempts;
        public uint retry_delay_ms;
        public double load_radius;
        public double drop_radius;
        public ulong budget_bytes;
        public double collision_load_radius;
        public double collision_drop_radius;
        public ulong collision_budget_bytes;
        public double chunk_size_m;
        public uint level_count;
        public uint level_size;
        public double level_spacing_m;
        public uint event_capacity;
        public fixed double things_chunk_size_m[3];
        public fixed double things_load_radius[3];
        public fixed double things_drop_radius[3];
        public fixed ulong things_budget_bytes[3];
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_runtime_stats
    {
        public uint struct_size;
        public uint flags;
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
        public uint pieces_wanted;
        public uint pieces_ready;
        public uint chunks_wanted;
        public uint chunks_ready;
        public uint pieces_failed;
        public uint chunks_failed;
        public uint settle_updates;
        public uint settle_update_max_us;
        public uint things_wanted;
        public uint things_ready;
        public uint things_failed;
        public uint things_last_us;
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

    /// <summary>Written in arrays whose element size relief is told (sizeof(relief_event)).</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_event
    {
        public uint kind;
        public uint face;
        public int x;
        public int z;
        public uint status;
        public uint attempt;
        public ulong bytes;
        public uint will_retry;
        /// <summary>A thing chunk's band (RELIEF_BAND_*); 0 for every other event.</summary>
        public uint band;
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
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct relief_chunk_view
    {
        public uint struct_size;
        public uint face;
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
        public fixed double origin[3];
        public fixed double axis_x[3];
        public fixed double up[3];
        public fixed double axis_z[3];
        public IntPtr materials;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct relief_thing_run
    {
        public uint kind;
        public uint start;
        public uint count;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct relief_thing_collider
    {
        public uint thing;
        public uint shape;
        public fixed float dims[3];
        public fixed float transform[12];
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct relief_things_view
    {
        public uint struct_size;
        public uint band;
        public uint face;
        public int x;
        public int z;
        public uint count;
        public uint run_count;
        public uint collider_count;
        public fixed double origin[3];
        public IntPtr runs;
        public IntPtr ids;
        public IntPtr positions;
        public IntPtr scales;
        public IntPtr rows;
        public IntPtr matrices;
        public IntPtr colliders;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct relief_thing_kind
    {
        public uint struct_size;
        public uint band;
        /// <summary>A NUL-terminated UTF-8 name, valid while the runtime lives.</summary>
        public IntPtr name;
        public float footprint_m;
        public float spacing_m;
        public uint shape;
        public fixed float shape_dims[3];
        public float shape_centre_m;
        public uint align_to_slope;
    }

    /// <summary>Written in arrays whose element size relief is told (sizeof(relief_thing_hit)).</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct relief_thing_hit
    {
        public ulong id;
        public uint kind;
        public uint band;
        public uint face;
        public int x;
        public int z;
        public uint index;
        public fixed double position[3];
        public double distance;
    }

    /// <summary>Written in arrays whose element size relief is told (sizeof(relief_dirty_rect)).</summary>
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
    internal unsafe struct relief_level_view
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

    /// <summary>relief_log_fn: <paramref name="message"/> is NUL-terminated UTF-8, valid only
    /// during the call, which may come from any thread.</summary>
    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
    internal delegate void relief_log_fn(IntPtr user, uint level, IntPtr message);

    /// <summary>The exports of the relief native library, one per C function.</summary>
    internal static class NativeMethods
    {
#if (UNITY_IOS || UNITY_WEBGL) && !UNITY_EDITOR
        public const string Library = "__Internal";
#else
        public const string Library = "relief";
#endif

        public const uint RELIEF_ABI_VERSION = 2;
        public const uint RELIEF_RUNTIME_NO_COLLISION = 1;
        public const uint RELIEF_RUNTIME_NO_LEVELS = 2;
        public const uint RELIEF_RUNTIME_NO_THINGS = 4;
        public const uint RELIEF_STATUS_OK = 0;
        public const uint RELIEF_STATUS_INVALID_ARGUMENT = 1;
        public const uint RELIEF_STATUS_NOT_FOUND = 2;
        public const uint RELIEF_STATUS_CORRUPT = 3;
        public const uint RELIEF_STATUS_UNSUPPORTED_VERSION = 4;
        public const uint RELIEF_STATUS_IO = 5;
        public const uint RELIEF_STATUS_PANIC = 6;
        public const uint RELIEF_STREAM_PIECES = 0;
        public const uint RELIEF_STREAM_CHUNKS = 1;
        public const uint RELIEF_STREAM_THINGS = 2;
        public const uint RELIEF_EVENT_LOADED = 0;
        public const uint RELIEF_EVENT_UNLOADED = 1;
        public const uint RELIEF_EVENT_FAILED = 2;
        public const uint RELIEF_EVENT_CHUNK_READY = 3;
        public const uint RELIEF_EVENT_CHUNK_DROPPED = 4;
        public const uint RELIEF_EVENT_CHUNK_FAILED = 5;
        public const uint RELIEF_EVENT_LEVELS_DIRTY = 6;
        public const uint RELIEF_EVENT_LEVELS_FAILED = 7;
        public const uint RELIEF_EVENT_OVERFLOW = 8;
        public const uint RELIEF_EVENT_THINGS_READY = 9;
        public const uint RELIEF_EVENT_THINGS_DROPPED = 10;
        public const uint RELIEF_EVENT_THINGS_FAILED = 11;
        public const uint RELIEF_BAND_NEAR = 0;
        public const uint RELIEF_BAND_MID = 1;
        public const uint RELIEF_BAND_FAR = 2;
        public const uint RELIEF_SHAPE_NONE = 0;
        public const uint RELIEF_SHAPE_CAPSULE = 1;
        public const uint RELIEF_SHAPE_SPHERE = 2;
        public const uint RELIEF_SHAPE_BOX = 3;
        public const uint RELIEF_ORIGIN_REGION = 0;
        public const uint RELIEF_ORIGIN_OVERVIEW = 1;
        public const uint RELIEF_ORIGIN_OUTSIDE = 2;
        public const uint RELIEF_REACH_CREEK = 0;
        public const uint RELIEF_REACH_RIVER = 1;
        public const uint RELIEF_PLANET_FIELD_BIOME = 0;
        public const uint RELIEF_PLANET_FIELD_SEDIMENT = 1;
        public const uint RELIEF_PLANET_FIELD_PRECIPITATION = 2;
        public const uint RELIEF_LOG_ERROR = 0;
        public const uint RELIEF_LOG_WARN = 1;
        public const uint RELIEF_LOG_INFO = 2;
        public const uint RELIEF_LOG_DEBUG = 3;

        const CallingConvention C = CallingConvention.Cdecl;

        [DllImport(Library, CallingConvention = C)] internal static extern IntPtr relief_last_error_message();
        [DllImport(Library, CallingConvention = C)] internal static extern IntPtr relief_status_name(uint status);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_abi_version();
        [DllImport(Library, CallingConvention = C)] internal static extern IntPtr relief_version();

        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_world_open(byte[] path, out WorldHandle out_world);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_world_open_url(byte[] url, ref relief_http_options options, out WorldHandle out_world);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_world_open_memory(byte* bytes, UIntPtr length, out WorldHandle out_world);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_world_open_reader(ref relief_reader reader, out WorldHandle out_world);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_world_open_file_range(byte[] path, ulong offset, ulong length, out WorldHandle out_world);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_world_open_fd(int fd, ulong offset, ulong length, out WorldHandle out_world);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_world_destroy(IntPtr world);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_world_get_info(WorldHandle world, ref relief_world_info info);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_world_get_biome_name(WorldHandle world, uint id, byte* name, UIntPtr capacity, out UIntPtr out_length);

        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_planet_open(byte[] path, out PlanetHandle out_planet);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_planet_open_url(byte[] url, ref relief_http_options options, out PlanetHandle out_planet);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_open_memory(byte* bytes, UIntPtr length, out PlanetHandle out_planet);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_planet_open_reader(ref relief_reader reader, out PlanetHandle out_planet);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_planet_open_file_range(byte[] path, ulong offset, ulong length, out PlanetHandle out_planet);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_planet_open_fd(int fd, ulong offset, ulong length, out PlanetHandle out_planet);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_planet_destroy(IntPtr planet);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_planet_get_info(PlanetHandle planet, ref relief_planet_info info);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_get_biome_name(PlanetHandle planet, uint id, byte* name, UIntPtr capacity, out UIntPtr out_length);

        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_config_default(ref relief_runtime_config config);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_create(WorldHandle world, ref relief_runtime_config config, out RuntimeHandle out_runtime);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_planet_runtime_create(PlanetHandle planet, ref relief_runtime_config config, out RuntimeHandle out_runtime);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_runtime_destroy(IntPtr runtime);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_update(RuntimeHandle runtime, double x, double y, double z);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_update_with_camera(RuntimeHandle runtime, double fx, double fy, double fz, double cx, double cy, double cz);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_settle(RuntimeHandle runtime, double x, double y, double z, uint timeout_ms, out uint out_settled);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_get_stats(RuntimeHandle runtime, ref relief_runtime_stats stats);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_get_stream_stats(RuntimeHandle runtime, uint stream, ref relief_stream_stats stats);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_create_terrain(RuntimeHandle runtime, out TerrainHandle out_terrain);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_create_planet_terrain(RuntimeHandle runtime, out PlanetTerrainHandle out_terrain);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_runtime_poll_events(RuntimeHandle runtime, relief_event* events, UIntPtr event_size, UIntPtr capacity, out UIntPtr out_count);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_runtime_list_loaded(RuntimeHandle runtime, uint stream, relief_event* events, UIntPtr event_size, UIntPtr capacity, out UIntPtr out_count);
        [DllImport(Library, CallingConvention = C)] internal static extern IntPtr relief_event_kind_name(uint kind);

        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_acquire_region(RuntimeHandle runtime, int x, int z, out RegionHandle out_region);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_region_get_view(RegionHandle region, ref relief_region_view out_view);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_region_release(IntPtr region);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_acquire_tile(RuntimeHandle runtime, uint face, uint tx, uint ty, out TileHandle out_tile);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_tile_get_view(TileHandle tile, ref relief_tile_view out_view);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_tile_release(IntPtr tile);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_acquire_chunk(RuntimeHandle runtime, uint face, int x, int z, out ChunkHandle out_chunk);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_chunk_get_view(ChunkHandle chunk, ref relief_chunk_view out_view);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_chunk_release(IntPtr chunk);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_acquire_things(RuntimeHandle runtime, uint band, uint face, int x, int z, out ThingsHandle out_things);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_things_get_view(ThingsHandle things, ref relief_things_view out_view);
        [DllImport(Library, CallingConvention = C)] internal static extern void relief_things_release(IntPtr things);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_thing_kind_count(RuntimeHandle runtime, out uint out_count);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_get_thing_kind(RuntimeHandle runtime, uint kind, ref relief_thing_kind out_kind);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_runtime_things_within(RuntimeHandle runtime, double* position, double radius, relief_thing_hit* hits, UIntPtr hit_size, UIntPtr capacity, out UIntPtr out_count);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_runtime_chunk_at(RuntimeHandle runtime, double* position, out uint out_face, out int out_x, out int out_z);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_runtime_get_dirty(RuntimeHandle runtime, relief_dirty_rect* rects, UIntPtr rect_size, UIntPtr capacity, out UIntPtr out_count);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_runtime_get_level(RuntimeHandle runtime, uint level, ref relief_level_view out_level);

        [DllImport(Library, CallingConvention = C)] internal static extern void relief_terrain_destroy(IntPtr terrain);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_terrain_height(TerrainHandle terrain, double x, double z, out float out_height, out uint out_origin);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_terrain_heights(TerrainHandle terrain, double* xz, UIntPtr point_count, float* out_heights, UIntPtr capacity, out UIntPtr out_from_regions);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_terrain_normal(TerrainHandle terrain, double x, double z, float* out_normal, out uint out_origin);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_terrain_normals(TerrainHandle terrain, double* xz, UIntPtr point_count, float* out_normals, UIntPtr capacity);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_terrain_ground(TerrainHandle terrain, double x, double z, ref relief_ground out_ground);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_terrain_biome(TerrainHandle terrain, double x, double z, out uint out_found, out uint out_biome);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_terrain_river(TerrainHandle terrain, double x, double z, double radius, ref relief_river out_river);
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_terrain_lake(TerrainHandle terrain, double x, double z, double radius, ref relief_lake out_lake);

        [DllImport(Library, CallingConvention = C)] internal static extern void relief_planet_terrain_destroy(IntPtr terrain);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_terrain_position_at(PlanetTerrainHandle terrain, double latitude_deg, double longitude_deg, double* out_position);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_terrain_height(PlanetTerrainHandle terrain, double* position, out float out_height, out uint out_origin);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_terrain_heights(PlanetTerrainHandle terrain, double* xyz, UIntPtr point_count, float* out_heights, UIntPtr capacity, out UIntPtr out_from_tiles);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_terrain_normal(PlanetTerrainHandle terrain, double* position, float* out_normal, out uint out_origin);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_terrain_sample(PlanetTerrainHandle terrain, double* position, uint field, out uint out_found, out double out_value);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_terrain_river(PlanetTerrainHandle terrain, double* position, double radius, ref relief_planet_river out_river);
        [DllImport(Library, CallingConvention = C)] internal static extern unsafe uint relief_planet_terrain_lake(PlanetTerrainHandle terrain, double* position, double radius, ref relief_lake out_lake);

        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_http_options_default(ref relief_http_options out_options);
        /// <summary><paramref name="callback"/>: a relief_log_fn from
        /// Marshal.GetFunctionPointerForDelegate, or IntPtr.Zero to stop the messages.</summary>
        [DllImport(Library, CallingConvention = C)] internal static extern uint relief_set_log(IntPtr callback, IntPtr user, uint max_level);
    }
}
