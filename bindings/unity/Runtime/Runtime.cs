using System;
using System.Runtime.InteropServices;
using Relief.Native;

namespace Relief
{
    /// <summary>Everything streamed around a focus, for a flat world or a planet
    /// (relief_runtime): regions or tiles, collision chunks and far-ground levels, driven by
    /// one Update a frame with one event stream. Call Update, Settle, PollEvents, GetDirty and
    /// Level/LevelHeights from one thread (the main thread); views, stats and queries from any.
    /// The Unity components (Relief.Unity) drive one of these; use it directly for a custom
    /// integration or a server.</summary>
    public sealed class Runtime : ViewOwner, IDisposable
    {
        internal readonly RuntimeHandle Handle;
        /// <summary>The flat world streamed, or null on a planet.</summary>
        public readonly World World;
        /// <summary>The planet streamed, or null on a flat world.</summary>
        public readonly Planet Planet;

        /// <summary>Streams a flat world with relief's defaults.</summary>
        public Runtime(World world) : this(world, RuntimeConfig.Default()) { }

        /// <summary>Streams a flat world with <paramref name="config"/> (start from
        /// <see cref="RuntimeConfig.Default"/>). Loader threads start now; nothing loads until
        /// the first Update.</summary>
        public Runtime(World world, RuntimeConfig config)
        {
            if (world == null) throw new ArgumentNullException("world");
            World = world;
            config.c.struct_size = RuntimeConfig.StructSize;
            ReliefException.Check(NativeMethods.relief_runtime_create(world.Handle, ref config.c, out Handle));
        }

        /// <summary>Streams a planet (positions are the planet frame, metres).</summary>
        public Runtime(Planet planet) : this(planet, RuntimeConfig.Default()) { }

        public Runtime(Planet planet, RuntimeConfig config)
        {
            if (planet == null) throw new ArgumentNullException("planet");
            Planet = planet;
            config.c.struct_size = RuntimeConfig.StructSize;
            ReliefException.Check(NativeMethods.relief_planet_runtime_create(planet.Handle, ref config.c, out Handle));
        }

        /// <summary>One frame around the focus; never blocks.</summary>
        public void Update(double x, double y, double z)
        {
            ReliefException.Check(NativeMethods.relief_runtime_update(Handle, x, y, z));
        }

        /// <summary>One frame: pieces and collision follow the focus (the player), the levels
        /// follow the camera. Never blocks.</summary>
        public void Update(Double3 focus, Double3 camera)
        {
            ReliefException.Check(NativeMethods.relief_runtime_update_with_camera(Handle, focus.X, focus.Y, focus.Z, camera.X, camera.Y, camera.Z));
        }

        /// <summary>Blocks until every piece and chunk the focus wants is ready, or the
        /// timeout; true if everything settled. For loading screens, not frames.</summary>
        public bool Settle(double x, double y, double z, int timeoutMs)
        {
            uint settled;
            ReliefException.Check(NativeMethods.relief_runtime_settle(Handle, x, y, z, (uint)timeoutMs, out settled));
            return settled != 0;
        }

        /// <summary>Moves pending events into <paramref name="events"/>; returns how many.
        /// Call until it returns 0.</summary>
        public unsafe int PollEvents(Span<StreamEvent> events)
        {
            UIntPtr n;
            fixed (StreamEvent* p = &MemoryMarshal.GetReference(events))
                ReliefException.Check(NativeMethods.relief_runtime_poll_events(Handle, (relief_event*)p, (UIntPtr)sizeof(relief_event), (UIntPtr)events.Length, out n));
            return (int)n;
        }

        /// <summary>What is loaded now, one Loaded (Pieces) or ChunkReady (Chunks) event per
        /// item, into <paramref name="events"/>, which must hold them all (an empty span asks
        /// for the count); returns the count. After an Overflow event, the state to rebuild
        /// from (relief_runtime_list_loaded).</summary>
        public unsafe int ListLoaded(StreamKind stream, Span<StreamEvent> events)
        {
            UIntPtr n;
            fixed (StreamEvent* p = &MemoryMarshal.GetReference(events))
                ReliefException.Check(NativeMethods.relief_runtime_list_loaded(Handle, (uint)stream, events.Length == 0 ? null : (relief_event*)p, (UIntPtr)sizeof(relief_event), (UIntPtr)events.Length, out n));
            return (int)n;
        }

        /// <summary>A snapshot of the whole runtime: timings, level cells and loading progress.</summary>
        public RuntimeStats Stats
        {
            get
            {
                var s = new relief_runtime_stats();
                s.struct_size = (uint)Marshal.SizeOf(typeof(relief_runtime_stats));
                ReliefException.Check(NativeMethods.relief_runtime_get_stats(Handle, ref s));
                return new RuntimeStats(s);
            }
        }

        /// <summary>A snapshot of one of the runtime's two streams: the regions or tiles
        /// (<see cref="StreamKind.Pieces"/>) or the collision chunks (<see cref="StreamKind.Chunks"/>,
        /// an error on a runtime made with <see cref="RuntimeFlags.NoCollision"/>).</summary>
        public StreamStats GetStreamStats(StreamKind stream)
        {
            var s = new relief_stream_stats();
            s.struct_size = (uint)Marshal.SizeOf(typeof(relief_stream_stats));
            ReliefException.Check(NativeMethods.relief_runtime_get_stream_stats(Handle, (uint)stream, ref s));
            return new StreamStats(s);
        }

        /// <summary>Copies the last update's level rectangles into <paramref name="rects"/>,
        /// which must hold them all (the LevelsDirty event's X); returns the count.</summary>
        public unsafe int GetDirty(Span<DirtyRect> rects)
        {
            UIntPtr n;
            fixed (DirtyRect* p = &MemoryMarshal.GetReference(rects))
                ReliefException.Check(NativeMethods.relief_runtime_get_dirty(Handle, (relief_dirty_rect*)p, (UIntPtr)sizeof(relief_dirty_rect), (UIntPtr)rects.Length, out n));
            return (int)n;
        }

        /// <summary>Level <paramref name="k"/>'s window.</summary>
        public LevelInfo Level(int k)
        {
            return new LevelInfo(LevelOf(k));
        }

        /// <summary>Level <paramref name="k"/>'s heights (Size², toroidal), read in place:
        /// they change with the next update and can't be read once the runtime is disposed.</summary>
        public ViewSpan<float> LevelHeights(int k)
        {
            relief_level_view level = LevelOf(k);
            return new ViewSpan<float>(this, level.heights, (int)(level.size * level.size));
        }

        relief_level_view LevelOf(int k)
        {
            var level = new relief_level_view();
            level.struct_size = (uint)Marshal.SizeOf(typeof(relief_level_view));
            ReliefException.Check(NativeMethods.relief_runtime_get_level(Handle, (uint)k, ref level));
            return level;
        }

        /// <summary>Holds resident region (x, z) of a flat world: read in place until the view
        /// is disposed, even if the region unloads meanwhile; null if it isn't resident (wait
        /// for its Loaded event). Any thread.</summary>
        public RegionView AcquireRegion(int x, int z)
        {
            return RegionView.Acquire(Handle, x, z);
        }

        /// <summary>Holds resident planet tile (face, tx, ty), read in place until disposed;
        /// null if not resident. Any thread.</summary>
        public TileView AcquireTile(int face, int tx, int ty)
        {
            return TileView.Acquire(Handle, face, tx, ty);
        }

        /// <summary>The collision chunk containing <paramref name="position"/> (world metres,
        /// y ignored, on a flat world; the planet frame on a planet), built or not.</summary>
        public unsafe ChunkKey ChunkAt(Double3 position)
        {
            double* p = stackalloc double[3];
            p[0] = position.X; p[1] = position.Y; p[2] = position.Z;
            uint face;
            int x, z;
            ReliefException.Check(NativeMethods.relief_runtime_chunk_at(Handle, p, out face, out x, out z));
            return new ChunkKey((int)face, x, z);
        }

        /// <summary>Holds built collision chunk <paramref name="key"/>, read in place until
        /// disposed; null if not built (wait for its ChunkReady event). Any thread.</summary>
        public ChunkView AcquireChunk(ChunkKey key)
        {
            return ChunkView.Acquire(Handle, key);
        }

        /// <summary>Holds placed thing chunk <paramref name="key"/> (after its ThingsReady
        /// event), read in place until disposed; null if it is not placed (or was dropped
        /// since).</summary>
        public ThingsView AcquireThings(ThingKey key)
        {
            return ThingsView.Acquire(Handle, key);
        }

        /// <summary>The kinds of thing the world's things.json names (none on a planet, or with
        /// <see cref="RuntimeFlags.NoThings"/>): index them by a ThingRun's Kind.</summary>
        public ThingKind[] ThingKinds
        {
            get
            {
                uint n;
                ReliefException.Check(NativeMethods.relief_runtime_thing_kind_count(Handle, out n));
                var kinds = new ThingKind[n];
                for (uint i = 0; i < n; ++i)
                {
                    var c = new relief_thing_kind();
                    c.struct_size = (uint)Marshal.SizeOf(typeof(relief_thing_kind));
                    ReliefException.Check(NativeMethods.relief_runtime_get_thing_kind(Handle, i, ref c));
                    kinds[i] = new ThingKind((int)i, c);
                }
                return kinds;
            }
        }

        /// <summary>Writes the placed things within <paramref name="radius"/> metres of
        /// <paramref name="position"/> (planar), nearest first, into <paramref name="hits"/> and
        /// returns how many there are in all (more than hits.Length when they did not all
        /// fit). Only placed chunks' things are found.</summary>
        public unsafe int ThingsWithin(Double3 position, double radius, Span<ThingHit> hits)
        {
            double* p = stackalloc double[3];
            p[0] = position.X; p[1] = position.Y; p[2] = position.Z;
            int room = hits.Length;
            relief_thing_hit* raw = stackalloc relief_thing_hit[Math.Min(room, 64)];
            UIntPtr n;
            if (room > 64)
            {
                var heap = new relief_thing_hit[room];
                fixed (relief_thing_hit* h = heap)
                {
                    ReliefException.Check(NativeMethods.relief_runtime_things_within(Handle, p, radius, h, (UIntPtr)sizeof(relief_thing_hit), (UIntPtr)room, out n));
                    for (int i = 0; i < Math.Min((int)n, room); ++i)
                        hits[i] = new ThingHit(h[i]);
                }
                return (int)n;
            }
            ReliefException.Check(NativeMethods.relief_runtime_things_within(Handle, p, radius, room == 0 ? null : raw, (UIntPtr)sizeof(relief_thing_hit), (UIntPtr)room, out n));
            for (int i = 0; i < Math.Min((int)n, room); ++i)
                hits[i] = new ThingHit(raw[i]);
            return (int)n;
        }

        /// <summary>The stream of <paramref name="band"/>'s thing chunks, for GetStreamStats and
        /// ListLoaded.</summary>
        public static StreamKind ThingStream(ThingBand band)
        {
            return StreamKind.Things + (uint)band;
        }

        /// <summary>Stops streaming and frees everything the runtime holds; views acquired from
        /// it stay readable until they are disposed. Twice is fine.</summary>
        public void Dispose()
        {
            Close(Handle.Dispose);
        }
    }
}
