// The public value types: each holds its C struct (Relief.Native, internal) as its only field,
// so an array of them has the C layout and crosses the ABI without a copy, while callers see
// PascalCase properties and enums.
using System;
using System.Runtime.InteropServices;
using Relief.Native;

namespace Relief
{
    /// <summary>A position or direction in doubles: planet-frame metres, or world metres on a
    /// flat world (Y up). Planets need doubles: a float at 6,000 km has half-metre steps.</summary>
    public readonly struct Double3 : IEquatable<Double3>
    {
        public readonly double X, Y, Z;

        public Double3(double x, double y, double z) { X = x; Y = y; Z = z; }

        public double Length { get { return Math.Sqrt(X * X + Y * Y + Z * Z); } }
        public double Dot(Double3 o) { return X * o.X + Y * o.Y + Z * o.Z; }
        public Double3 Normalized { get { double l = Length; return l > 0 ? this * (1.0 / l) : this; } }

        public static Double3 operator +(Double3 a, Double3 b) { return new Double3(a.X + b.X, a.Y + b.Y, a.Z + b.Z); }
        public static Double3 operator -(Double3 a, Double3 b) { return new Double3(a.X - b.X, a.Y - b.Y, a.Z - b.Z); }
        public static Double3 operator *(Double3 a, double s) { return new Double3(a.X * s, a.Y * s, a.Z * s); }

        public bool Equals(Double3 o) { return X == o.X && Y == o.Y && Z == o.Z; }
        public override bool Equals(object o) { return o is Double3 && Equals((Double3)o); }
        public override int GetHashCode() { return X.GetHashCode() ^ (Y.GetHashCode() * 397) ^ (Z.GetHashCode() * 7919); }
        public override string ToString() { return string.Format("({0:0.###}, {1:0.###}, {2:0.###})", X, Y, Z); }

        internal static unsafe Double3 From(double* p) { return new Double3(p[0], p[1], p[2]); }
    }

    /// <summary>An opened flat world's extent and contents.</summary>
    public readonly struct WorldInfo
    {
        readonly relief_world_info c;
        internal WorldInfo(relief_world_info c) { this.c = c; }

        /// <summary>Samples along a region's side (512 for Terrain3D-style regions).</summary>
        public int RegionSize { get { return (int)c.region_size; } }
        /// <summary>Metres between samples.</summary>
        public double VertexSpacing { get { return c.vertex_spacing; } }
        /// <summary>A region's side in metres (RegionSize × VertexSpacing).</summary>
        public double RegionExtent { get { return c.region_size * c.vertex_spacing; } }
        public int RegionMinX { get { return c.region_min_x; } }
        public int RegionMinZ { get { return c.region_min_z; } }
        public int RegionMaxX { get { return c.region_max_x; } }
        public int RegionMaxZ { get { return c.region_max_z; } }
        public float HeightMin { get { return c.height_min; } }
        public float HeightMax { get { return c.height_max; } }
        /// <summary>Ground below this is sea, metres; NaN for a world without sea.</summary>
        public float SeaLevel { get { return c.sea_level; } }
        public int RegionCount { get { return (int)c.region_count; } }
        public int ReachCount { get { return (int)c.reach_count; } }
        public int LakeCount { get { return (int)c.lake_count; } }
        public int BiomeCount { get { return (int)c.biome_count; } }

        /// <summary>The middle of the regions' bounding box, world metres (y = 0).</summary>
        public Double3 Centre
        {
            get
            {
                double e = RegionExtent;
                return new Double3((c.region_min_x + c.region_max_x + 1) * e / 2, 0, (c.region_min_z + c.region_max_z + 1) * e / 2);
            }
        }
    }

    /// <summary>An opened planet's shape and contents.</summary>
    public readonly struct PlanetInfo
    {
        readonly relief_planet_info c;
        internal PlanetInfo(relief_planet_info c) { this.c = c; }

        public int Version { get { return (int)c.version; } }
        /// <summary>Sea-level radius, metres.</summary>
        public double Radius { get { return c.radius; } }
        public unsafe Double3 PolarAxis { get { fixed (double* p = c.polar_axis) return Double3.From(p); } }
        /// <summary>Samples along a cube face's side.</summary>
        public int FaceResolution { get { return (int)c.face_resolution; } }
        public int TileSize { get { return (int)c.tile_size; } }
        public int TilesPerSide { get { return (int)c.tiles_per_side; } }
        public int Projection { get { return (int)c.projection; } }
        /// <summary>Metres between samples at the face centre.</summary>
        public double Spacing { get { return c.spacing; } }
        public float HeightMin { get { return c.height_min; } }
        public float HeightMax { get { return c.height_max; } }
        public float SeaLevel { get { return c.sea_level; } }
        /// <summary>Whether tiles carry sediment and precipitation (v7).</summary>
        public bool HasV7Fields { get { return c.has_v7_fields != 0; } }
        public int ReachCount { get { return (int)c.reach_count; } }
        public int LakeCount { get { return (int)c.lake_count; } }
        public int BiomeCount { get { return (int)c.biome_count; } }
        public int FieldCount { get { return (int)c.field_count; } }
    }

    /// <summary>How a <see cref="Runtime"/> behaves (relief_runtime_config). Start from
    /// <see cref="Default"/>, then change what you need; distances are metres (great-circle on
    /// a planet). relief checks the whole config when the runtime is made: a setting that
    /// can't work is a <see cref="ReliefException"/> naming the field.</summary>
    public struct RuntimeConfig
    {
        internal relief_runtime_config c;

        /// <summary>The size of the C struct these bindings were written against: what
        /// struct_size is set to before every call that reads or fills one.</summary>
        internal static uint StructSize { get { return (uint)Marshal.SizeOf(typeof(relief_runtime_config)); } }

        /// <summary>relief's defaults.</summary>
        public static RuntimeConfig Default()
        {
            Abi.Require();
            var config = new RuntimeConfig();
            config.c.struct_size = StructSize;
            ReliefException.Check(NativeMethods.relief_runtime_config_default(ref config.c));
            return config;
        }

        /// <summary>Parts to leave out (None: everything).</summary>
        public RuntimeFlags Flags { get { return (RuntimeFlags)c.flags; } set { c.flags = (uint)value; } }
        /// <summary>The runtime's loader threads, shared by pieces and collision chunks, at
        /// most 256; 0: one fewer than the cores, at least one. Idle ones sleep.</summary>
        public int LoaderThreads { get { return (int)c.loader_threads; } set { c.loader_threads = (uint)value; } }
        /// <summary>Most microseconds one Update spends applying finished loads, per stream.</summary>
        public int UpdateBudgetUs { get { return (int)c.update_budget_us; } set { c.update_budget_us = (uint)value; } }
        /// <summary>Tries of a failing load before it is given up (until it leaves and comes back); at least 1.</summary>
        public int MaxAttempts { get { return (int)c.max_attempts; } set { c.max_attempts = (uint)value; } }
        /// <summary>Milliseconds before the first retry; doubles with each attempt.</summary>
        public int RetryDelayMs { get { return (int)c.retry_delay_ms; } set { c.retry_delay_ms = (uint)value; } }
        /// <summary>Regions or tiles start loading within this …</summary>
        public double LoadRadius { get { return c.load_radius; } set { c.load_radius = value; } }
        /// <summary>… and stay until farther than this (at least LoadRadius).</summary>
        public double DropRadius { get { return c.drop_radius; } set { c.drop_radius = value; } }
        /// <summary>Bytes of ready, cached and in-flight regions or tiles together.</summary>
        public ulong BudgetBytes { get { return c.budget_bytes; } set { c.budget_bytes = value; } }
        /// <summary>Collision chunks build within this …</summary>
        public double CollisionLoadRadius { get { return c.collision_load_radius; } set { c.collision_load_radius = value; } }
        /// <summary>… and stay until farther than this (at least CollisionLoadRadius).</summary>
        public double CollisionDropRadius { get { return c.collision_drop_radius; } set { c.collision_drop_radius = value; } }
        /// <summary>Bytes of collision chunks.</summary>
        public ulong CollisionBudgetBytes { get { return c.collision_budget_bytes; } set { c.collision_budget_bytes = value; } }
        /// <summary>A collision chunk's side in metres; 0: relief's default. On a flat world a
        /// whole number of its samples, 2–4096 and no wider than the world (64 m by default);
        /// on a planet rounded to the nearest divisor of the face resolution from 2 samples to
        /// half a face (64 samples by default). Other sizes fail the runtime's creation, the
        /// message naming the range.</summary>
        public double ChunkSize { get { return c.chunk_size_m; } set { c.chunk_size_m = value; } }
        /// <summary>Far-ground levels (1–24), each twice the spacing of the one before …</summary>
        public int LevelCount { get { return (int)c.level_count; } set { c.level_count = (uint)value; } }
        /// <summary>… of this many cells a side (even, 2–4096) …</summary>
        public int LevelSize { get { return (int)c.level_size; } set { c.level_size = (uint)value; } }
        /// <summary>… level 0's cells this many metres apart.</summary>
        public double LevelSpacing { get { return c.level_spacing_m; } set { c.level_spacing_m = value; } }
        /// <summary>The most events kept until polled (16 to 2²⁰, default 4096); beyond it an
        /// Overflow event says how many were dropped.</summary>
        public int EventCapacity { get { return (int)c.event_capacity; } set { c.event_capacity = (uint)value; } }

        /// <summary>How <paramref name="band"/>'s placed things stream (defaults: near 32 m
        /// chunks within 64 m, kept to 96 m, 32 MiB; mid 64, 160, 224, 64 MiB; far 128, 384,
        /// 512, 64 MiB).</summary>
        public unsafe ThingBandConfig GetThings(ThingBand band)
        {
            int i = Band(band);
            fixed (relief_runtime_config* p = &c)
                return new ThingBandConfig
                {
                    ChunkSize = p->things_chunk_size_m[i],
                    LoadRadius = p->things_load_radius[i],
                    DropRadius = p->things_drop_radius[i],
                    BudgetBytes = p->things_budget_bytes[i],
                };
        }

        /// <summary>Sets how <paramref name="band"/>'s placed things stream; relief checks it
        /// when the runtime is made (chunk sizes 4–1024 m).</summary>
        public unsafe void SetThings(ThingBand band, ThingBandConfig value)
        {
            int i = Band(band);
            fixed (relief_runtime_config* p = &c)
            {
                p->things_chunk_size_m[i] = value.ChunkSize;
                p->things_load_radius[i] = value.LoadRadius;
                p->things_drop_radius[i] = value.DropRadius;
                p->things_budget_bytes[i] = value.BudgetBytes;
            }
        }

        static int Band(ThingBand band)
        {
            if ((uint)band > (uint)ThingBand.Far)
                throw new ArgumentOutOfRangeException("band", band, "not a ThingBand");
            return (int)band;
        }
    }

    /// <summary>How one band of placed things streams (<see cref="RuntimeConfig.GetThings"/>).</summary>
    public struct ThingBandConfig
    {
        /// <summary>A chunk's side, metres (4–1024).</summary>
        public double ChunkSize;
        /// <summary>Chunks are placed within this …</summary>
        public double LoadRadius;
        /// <summary>… and kept until farther than this.</summary>
        public double DropRadius;
        public ulong BudgetBytes;
    }

    /// <summary>One thing that happened to a region, tile, chunk or the levels (relief_event,
    /// from <see cref="Runtime.PollEvents"/>).</summary>
    public readonly struct StreamEvent
    {
        readonly relief_event c;
        internal StreamEvent(relief_event c) { this.c = c; }

        public EventKind Kind { get { return (EventKind)c.kind; } }
        /// <summary>Region x (flat), tile x (planet), chunk x; the rectangle count for LevelsDirty.</summary>
        public int X { get { return c.x; } }
        /// <summary>Region z (flat), tile y (planet), chunk z.</summary>
        public int Z { get { return c.z; } }
        /// <summary>Cube face on a planet; 0 on flat worlds.</summary>
        public int Face { get { return (int)c.face; } }
        /// <summary>Why it failed (Failed, ChunkFailed); Ok otherwise.</summary>
        public ReliefStatus Status { get { return (ReliefStatus)c.status; } }
        /// <summary>Bytes now resident (Loaded, ChunkReady); 0 otherwise.</summary>
        public ulong Bytes { get { return c.bytes; } }
        /// <summary>Attempts made so far (Failed, ChunkFailed); 0 otherwise.</summary>
        public int Attempt { get { return (int)c.attempt; } }
        /// <summary>Whether relief tries a failed item again (Failed, ChunkFailed).</summary>
        public bool WillRetry { get { return c.will_retry != 0; } }
        /// <summary>A thing chunk's band (ThingsReady, ThingsDropped, ThingsFailed).</summary>
        public ThingBand Band { get { return (ThingBand)c.band; } }
        /// <summary>The thing chunk a Things* event is about.</summary>
        public ThingKey ThingKey { get { return new ThingKey((ThingBand)c.band, (int)c.face, c.x, c.z); } }

        /// <summary>relief's name for <paramref name="kind"/>: its RELIEF_EVENT_* constant without
        /// the prefix ("LOADED", "CHUNK_READY", …; "UNKNOWN" for no kind).</summary>
        public static string KindName(EventKind kind)
        {
            return ReliefException.Utf8(NativeMethods.relief_event_kind_name((uint)kind));
        }

        /// <summary>As relief logs it: "CHUNK_READY (3, -2) face 0".</summary>
        public override string ToString() { return string.Format("{0} ({1}, {2}) face {3}", KindName(Kind), X, Z, Face); }
    }

    /// <summary>One stream's state and timings (relief_stream_stats), from
    /// <see cref="Runtime.GetStreamStats"/>.</summary>
    public readonly struct StreamStats
    {
        readonly relief_stream_stats c;
        internal StreamStats(relief_stream_stats c) { this.c = c; }

        /// <summary>Pieces resident and ready.</summary>
        public int Ready { get { return (int)c.ready; } }
        /// <summary>Pieces kept past the drop radius while the budget allows.</summary>
        public int Cached { get { return (int)c.cached; } }
        public int InFlight { get { return (int)c.in_flight; } }
        public int QueueDepth { get { return (int)c.queue_depth; } }
        /// <summary>Pieces the focus wants.</summary>
        public int Wanted { get { return (int)c.wanted; } }
        /// <summary>Wanted pieces left out to stay within the budget.</summary>
        public int Trimmed { get { return (int)c.trimmed; } }
        public int LatencyP50Us { get { return (int)c.latency_p50_us; } }
        public int LatencyP99Us { get { return (int)c.latency_p99_us; } }
        public int UpdateLastUs { get { return (int)c.update_last_us; } }
        public int UpdateP50Us { get { return (int)c.update_p50_us; } }
        public int UpdateP99Us { get { return (int)c.update_p99_us; } }
        public int UpdateMaxUs { get { return (int)c.update_max_us; } }
        public ulong ReadyBytes { get { return c.ready_bytes; } }
        public ulong CachedBytes { get { return c.cached_bytes; } }
        public ulong InFlightBytes { get { return c.in_flight_bytes; } }
        public ulong BudgetBytes { get { return c.budget_bytes; } }
        public ulong Loads { get { return c.loads; } }
        public ulong Failures { get { return c.failures; } }
        public ulong Evictions { get { return c.evictions; } }
    }

    /// <summary>A snapshot of a runtime (relief_runtime_stats): its frame timings, level cells
    /// and loading progress. Each stream's own figures: <see cref="Runtime.GetStreamStats"/>.</summary>
    public readonly struct RuntimeStats
    {
        readonly relief_runtime_stats c;
        internal RuntimeStats(relief_runtime_stats c) { this.c = c; }

        /// <summary>The parts the runtime was made without.</summary>
        public RuntimeFlags Flags { get { return (RuntimeFlags)c.flags; } }
        /// <summary>Microseconds in the last update: all of it, and its parts.</summary>
        public int UpdateLastUs { get { return (int)c.update_last_us; } }
        public int PiecesLastUs { get { return (int)c.pieces_last_us; } }
        public int LevelsLastUs { get { return (int)c.levels_last_us; } }
        public int ChunksLastUs { get { return (int)c.chunks_last_us; } }
        /// <summary>Microseconds over recent updates: Update calls, never Settle's.</summary>
        public int UpdateP50Us { get { return (int)c.update_p50_us; } }
        public int UpdateP99Us { get { return (int)c.update_p99_us; } }
        public int UpdateMaxUs { get { return (int)c.update_max_us; } }
        /// <summary>Level cells rewritten in the last update, and since creation.</summary>
        public ulong LevelCellsLast { get { return c.level_cells_last; } }
        public ulong LevelCellsTotal { get { return c.level_cells_total; } }
        /// <summary>Loading progress, for a loading screen: regions or tiles the focus wants
        /// (after trimming to the budget) and how many of them are ready …</summary>
        public int PiecesWanted { get { return (int)c.pieces_wanted; } }
        public int PiecesReady { get { return (int)c.pieces_ready; } }
        /// <summary>… and likewise collision chunks (0 and 0 without collision). Settled when
        /// both pairs are equal (and nothing failed).</summary>
        public int ChunksWanted { get { return (int)c.chunks_wanted; } }
        public int ChunksReady { get { return (int)c.chunks_ready; } }
        /// <summary>Of the wanted, those whose loads failed for good (their Failed event said
        /// no retry): they stay unready while wanted, so loading is over when ready and
        /// failed make up the wanted, for pieces and chunks both.</summary>
        public int PiecesFailed { get { return (int)c.pieces_failed; } }
        public int ChunksFailed { get { return (int)c.chunks_failed; } }
        /// <summary>The updates Settle made since creation, and the longest of them in
        /// microseconds: a loading screen's work, kept out of the Update figures above, which
        /// count the game's own Update calls alone.</summary>
        public int SettleUpdates { get { return (int)Math.Min(c.settle_updates, (uint)int.MaxValue); } }
        public int SettleUpdateMaxUs { get { return (int)c.settle_update_max_us; } }
        /// <summary>Placed thing chunks of every band: wanted, ready, failed for good; and
        /// microseconds the last update spent on them.</summary>
        public int ThingsWanted { get { return (int)c.things_wanted; } }
        public int ThingsReady { get { return (int)c.things_ready; } }
        public int ThingsFailed { get { return (int)c.things_failed; } }
        public int ThingsLastUs { get { return (int)c.things_last_us; } }
    }

    /// <summary>What lies at a point of a flat world (its region's maps there).</summary>
    public readonly struct Ground
    {
        readonly relief_ground c;
        internal Ground(relief_ground c) { this.c = c; }

        /// <summary>Whether a resident region covers the point; every other member is zero
        /// when false.</summary>
        public bool Found { get { return c.found != 0; } }
        /// <summary>The Terrain3D control word.</summary>
        public uint Control { get { return c.control; } }
        public int BaseTexture { get { return c.base_texture; } }
        public int OverlayTexture { get { return c.overlay_texture; } }
        /// <summary>Overlay blend, 0…255.</summary>
        public int Blend { get { return c.blend; } }
        public int UvRotation { get { return c.uv_rotation; } }
        public int UvScale { get { return c.uv_scale; } }
        public bool Hole { get { return c.hole != 0; } }
        public bool Navigation { get { return c.navigation != 0; } }
        public bool Autoshader { get { return c.autoshader != 0; } }
        public bool HasBiome { get { return c.has_biome != 0; } }
        /// <summary>The biome layer's id (<see cref="World.BiomeName"/> names it).</summary>
        public int BiomeId { get { return (int)c.biome; } }
        /// <summary>The id as relief's baked class (worlds from `relief bake`).</summary>
        public Biome Biome { get { return (Biome)c.biome; } }
        public bool HasLake { get { return c.has_lake != 0; } }
        public int Lake { get { return (int)c.lake; } }
        public int RegionX { get { return c.region_x; } }
        public int RegionZ { get { return c.region_z; } }
    }

    /// <summary>The nearest river to a point of a flat world, within a radius.</summary>
    public readonly struct RiverAt
    {
        readonly relief_river c;
        internal RiverAt(relief_river c) { this.c = c; }

        /// <summary>Whether a reach lies within the radius.</summary>
        public bool Found { get { return c.found != 0; } }
        public int Reach { get { return (int)c.reach; } }
        /// <summary>The nearest point on the reach's centreline (x, z), world metres.</summary>
        public double NearestX { get { return c.nearest_x; } }
        public double NearestZ { get { return c.nearest_z; } }
        public ReachKind Kind { get { return (ReachKind)c.kind; } }
        /// <summary>Whether the channel holds water there.</summary>
        public bool HasWater { get { return c.has_water != 0; } }
        public float Width { get { return c.width_m; } }
        /// <summary>Metres from the point to the centreline.</summary>
        public float Distance { get { return c.distance_m; } }
        /// <summary>The bed's height, metres.</summary>
        public float Bed { get { return c.bed_m; } }
    }

    /// <summary>The nearest river to a point on a planet.</summary>
    public readonly struct PlanetRiverAt
    {
        readonly relief_planet_river c;
        internal PlanetRiverAt(relief_planet_river c) { this.c = c; }

        public bool Found { get { return c.found != 0; } }
        public int Reach { get { return (int)c.reach; } }
        /// <summary>The nearest point on the reach, planet frame.</summary>
        public unsafe Double3 Nearest { get { fixed (double* p = c.nearest) return Double3.From(p); } }
        public ReachKind Kind { get { return (ReachKind)c.kind; } }
        public bool HasWater { get { return c.has_water != 0; } }
        public float Width { get { return c.width_m; } }
        public float Distance { get { return c.distance_m; } }
        public float Bed { get { return c.bed_m; } }
    }

    /// <summary>The nearest lake to a point, within a radius (flat worlds and planets).</summary>
    public readonly struct LakeAt
    {
        readonly relief_lake c;
        internal LakeAt(relief_lake c) { this.c = c; }

        public bool Found { get { return c.found != 0; } }
        public int Lake { get { return (int)c.lake; } }
        /// <summary>Whether the point is on the lake.</summary>
        public bool Inside { get { return c.inside != 0; } }
        /// <summary>The water level, metres.</summary>
        public float Level { get { return c.level_m; } }
        /// <summary>Metres to the shore (0 inside).</summary>
        public float Distance { get { return c.distance_m; } }
    }

    /// <summary>A rectangle of a far-ground level that changed, in the level's toroidal
    /// storage: cells x .. x + Width, z .. z + Depth (wrapping), of <see cref="Level"/>.</summary>
    public readonly struct DirtyRect
    {
        readonly relief_dirty_rect c;
        internal DirtyRect(relief_dirty_rect c) { this.c = c; }

        /// <summary>A rectangle from its parts (for tests and tools).</summary>
        public DirtyRect(int level, int x, int z, int width, int depth)
        {
            c = new relief_dirty_rect { level = (uint)level, x = (uint)x, z = (uint)z, width = (uint)width, depth = (uint)depth };
        }

        public int Level { get { return (int)c.level; } }
        public int X { get { return (int)c.x; } }
        public int Z { get { return (int)c.z; } }
        public int Width { get { return (int)c.width; } }
        public int Depth { get { return (int)c.depth; } }
    }

    /// <summary>A far-ground level's window (relief_level_view; its heights are read through
    /// <see cref="Runtime.LevelHeights"/>). Cell (i, j) of the
    /// window lies at plane position (i, j) × Spacing and is stored at texel
    /// (j mod Size) · Size + (i mod Size).</summary>
    public readonly struct LevelInfo
    {
        readonly relief_level_view c;
        internal LevelInfo(relief_level_view c) { this.c = c; }
        internal IntPtr Heights { get { return c.heights; } }

        /// <summary>Which level (0 is the finest).</summary>
        public int Level { get { return (int)c.level; } }
        /// <summary>Cells along a side.</summary>
        public int Size { get { return (int)c.size; } }
        /// <summary>Whether every cell holds a height yet.</summary>
        public bool Filled { get { return c.filled != 0; } }
        /// <summary>The window's first cell, in cells of this level.</summary>
        public long OriginI { get { return c.origin_i; } }
        public long OriginJ { get { return c.origin_j; } }
        /// <summary>Metres per cell.</summary>
        public double Spacing { get { return c.spacing; } }
        /// <summary>The plane the level lies on: identity axes on a flat world; on a planet the
        /// tangent plane near the focus (origin on the sphere, X, up and Z axes).</summary>
        public unsafe Double3 PlaneOrigin { get { fixed (double* p = c.plane_origin) return Double3.From(p); } }
        public unsafe Double3 PlaneX { get { fixed (double* p = c.plane_x) return Double3.From(p); } }
        public unsafe Double3 PlaneUp { get { fixed (double* p = c.plane_up) return Double3.From(p); } }
        public unsafe Double3 PlaneZ { get { fixed (double* p = c.plane_z) return Double3.From(p); } }
    }
}
