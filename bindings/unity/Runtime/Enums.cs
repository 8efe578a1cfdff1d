using System;

namespace Relief
{
    /// <summary>What a relief call returned (the C ABI's RELIEF_STATUS_*).</summary>
    public enum ReliefStatus : uint
    {
        Ok = 0,
        /// <summary>A NULL, undersized or out-of-range argument; the message names it.</summary>
        InvalidArgument = 1,
        /// <summary>A file, entry or resident piece that isn't there.</summary>
        NotFound = 2,
        /// <summary>Bytes that aren't what they claim to be (a damaged or truncated file).</summary>
        Corrupt = 3,
        /// <summary>A format or ABI version this library doesn't speak.</summary>
        UnsupportedVersion = 4,
        /// <summary>Reading failed (disk, network).</summary>
        Io = 5,
        /// <summary>A bug in relief, caught at the boundary: dispose the handles the call used.</summary>
        Panic = 6,
    }

    /// <summary>What a <see cref="StreamEvent"/> reports (RELIEF_EVENT_*).</summary>
    public enum EventKind : uint
    {
        /// <summary>A region (flat world) or tile (planet) is resident: X, Z (and Face).</summary>
        Loaded = 0,
        /// <summary>A region or tile left memory.</summary>
        Unloaded = 1,
        /// <summary>A region or tile failed to load; <see cref="StreamEvent.WillRetry"/> says
        /// whether relief tries again.</summary>
        Failed = 2,
        /// <summary>A collision chunk (Face, X, Z) is built.</summary>
        ChunkReady = 3,
        /// <summary>A collision chunk was dropped.</summary>
        ChunkDropped = 4,
        /// <summary>A collision chunk failed to build.</summary>
        ChunkFailed = 5,
        /// <summary>Far-ground levels changed: X rectangles to fetch with GetDirty.</summary>
        LevelsDirty = 6,
        /// <summary>A planet's ring thread panicked (a bug in relief): the Update that queued
        /// it threw a ReliefException with Status Panic; the levels start again from scratch
        /// and everything else streamed on.</summary>
        LevelsFailed = 7,
        /// <summary>The queue was full: Bytes events were dropped, every one until this was
        /// polled. Rebuild from <see cref="Runtime.ListLoaded"/> and upload every level.</summary>
        Overflow = 8,
        /// <summary>A chunk of placed things (<see cref="StreamEvent.Band"/>, Face, X, Z) is
        /// ready: <see cref="Runtime.AcquireThings"/>.</summary>
        ThingsReady = 9,
        /// <summary>A thing chunk left its band's drop radius.</summary>
        ThingsDropped = 10,
        /// <summary>A thing chunk failed to build.</summary>
        ThingsFailed = 11,
    }

    /// <summary>How far from the focus a kind of thing streams (RELIEF_BAND_*): grass near,
    /// bushes and rocks in the middle, trees far; each band in chunks of its own size.</summary>
    public enum ThingBand : uint
    {
        Near = 0,
        Mid = 1,
        Far = 2,
    }

    /// <summary>A placed thing's collision shape (RELIEF_SHAPE_*).</summary>
    public enum ThingShape : uint
    {
        None = 0,
        /// <summary>Dims: radius, total height; standing along the thing's up.</summary>
        Capsule = 1,
        /// <summary>Dims: radius.</summary>
        Sphere = 2,
        /// <summary>Dims: half extents.</summary>
        Box = 3,
    }

    /// <summary>One of a runtime's streams, for <see cref="Runtime.GetStreamStats"/>
    /// (RELIEF_STREAM_*).</summary>
    public enum StreamKind : uint
    {
        /// <summary>The regions (flat world) or tiles (planet).</summary>
        Pieces = 0,
        /// <summary>The collision chunks.</summary>
        Chunks = 1,
        /// <summary>The near band's thing chunks; a band's stream is Things + its
        /// <see cref="ThingBand"/> (<see cref="Runtime.ThingStream"/>).</summary>
        Things = 2,
    }

    /// <summary>Parts a <see cref="Runtime"/> leaves out (RELIEF_RUNTIME_*).</summary>
    [Flags]
    public enum RuntimeFlags : uint
    {
        None = 0,
        /// <summary>No collision chunks (a flat world drawn with Unity Terrains, whose own
        /// colliders serve).</summary>
        NoCollision = 1,
        /// <summary>No far-ground levels (a headless server).</summary>
        NoLevels = 2,
        /// <summary>No placed things.</summary>
        NoThings = 4,
    }

    /// <summary>Where a height came from (RELIEF_ORIGIN_*).</summary>
    public enum HeightOrigin : uint
    {
        /// <summary>A resident region or tile: full resolution.</summary>
        Region = 0,
        /// <summary>The world's overview: coarse, where nothing is resident.</summary>
        Overview = 1,
        /// <summary>Outside the world.</summary>
        Outside = 2,
    }

    /// <summary>How much a message matters (RELIEF_LOG_*): relief's own messages
    /// (<see cref="ReliefLog"/>) and the <see cref="StreamingDriver{TTile, TMesh}"/>'s.
    /// Lower is more severe.</summary>
    public enum LogLevel : uint
    {
        /// <summary>Something failed for good: a load that gave up, a caught panic; the
        /// driver: streaming stopped (what was shown stays).</summary>
        Error = 0,
        /// <summary>Something failed and will be retried (a load, a request); the driver: one
        /// piece failed, streaming goes on.</summary>
        Warn = 1,
        /// <summary>What relief did, once per notable step.</summary>
        Info = 2,
        /// <summary>Every failed call's message, and detail.</summary>
        Debug = 3,
    }

    /// <summary>What a river reach is (RELIEF_REACH_*).</summary>
    public enum ReachKind : uint
    {
        Creek = 0,
        River = 1,
    }

    /// <summary>A planet's per-sample fields (RELIEF_PLANET_FIELD_*).</summary>
    public enum PlanetField : uint
    {
        /// <summary>The biome id.</summary>
        Biome = 0,
        /// <summary>Metres of sediment (v7 planets).</summary>
        Sediment = 1,
        /// <summary>Precipitation, mm/yr (v7 planets).</summary>
        Precipitation = 2,
    }

    /// <summary>The 36 ground classes relief's baker writes (`relief bake`, flat worlds and
    /// planets alike): the id is the biome layer's byte, and the world's
    /// <see cref="World.BiomeName"/> of that id is the lower-case, spaced member name ("sea
    /// floor" for <see cref="SeaFloor"/>). A world imported from Terrain3D names its own ids
    /// (by ground texture): read those with BiomeName, not this enum.</summary>
    public enum Biome : byte
    {
        SeaFloor = 0,
        Shelf = 1,
        Beach = 2,
        LakeBed = 3,
        Wetland = 4,
        BareRock = 5,
        Snow = 6,
        Tundra = 7,
        Taiga = 8,
        Grassland = 9,
        Shrubland = 10,
        TemperateForest = 11,
        TemperateRainforest = 12,
        Desert = 13,
        Savanna = 14,
        TropicalSeasonalForest = 15,
        TropicalRainforest = 16,
        // Bake version 4 (flat) and planet bake version 4 on.
        Reef = 17,
        RockyReef = 18,
        Seagrass = 19,
        TidalFlat = 20,
        SaltMarsh = 21,
        Mangrove = 22,
        Estuary = 23,
        LakeShore = 24,
        Swamp = 25,
        Floodplain = 26,
        SaltFlat = 27,
        Scree = 28,
        Canyon = 29,
        AlpineMeadow = 30,
        Moraine = 31,
        Ice = 32,
        ConiferForest = 33,
        Steppe = 34,
        Dunes = 35,
    }
}
