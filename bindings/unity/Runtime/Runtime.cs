using System;
using System.Runtime.InteropServices;
using Relief.Native;

namespace Relief
{
    /// <summary>Everything streamed around a focus, for a flat world or a planet: regions or
    /// tiles, collision chunks and far-ground levels, driven by one Update a frame with one
    /// event stream. Call Update, Settle and PollEvents from one thread (the main thread);
    /// views, stats and queries from any. The Unity components (Relief.Unity) drive one of
    /// these; use it directly for a custom integration or a server.</summary>
    public sealed class Runtime : ViewOwner, IDisposable
    {
        internal readonly RuntimeHandle Handle;
        /// <summary>The flat world streamed, or null on a planet.</summary>
        public readonly World World;
        /// <summary>The planet streamed, or null on a flat world.</summary>
        public readonly Planet Planet;

        /// <summary>Streams a flat world with relief's defaults.</summary>
        public Runtime(World world) : this(world, RuntimeConfig.Default()) { }

        public Runtime(World world, RuntimeConfig config)
        {
            if (world == null) throw new ArgumentNullException("world");
            World = world;
            ReliefException.Check(NativeMethods.relief_runtime_create(world.Handle, ref config.c, out Handle));
        }

        /// <summary>Streams a planet (positions are the planet frame, metres).</summary>
        public Runtime(Planet planet) : this(planet, RuntimeConfig.Default()) { }

        public Runtime(Planet planet, RuntimeConfig config)
        {
            if (planet == null) throw new ArgumentNullException("planet");
            Planet = planet;
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
            relief_clipmap_level level = LevelOf(k);
            return new ViewSpan<float>(this, level.heights, (int)(level.size * level.size));
        }

        relief_clipmap_level LevelOf(int k)
        {
            var level = new relief_clipmap_level();
            level.struct_size = (uint)Marshal.SizeOf(typeof(relief_clipmap_level));
            ReliefException.Check(NativeMethods.relief_runtime_get_level(Handle, (uint)k, ref level));
            return level;
        }

        /// <summary>Resident region (x, z), read in place until disposed; null if not resident.</summary>
        public RegionView AcquireRegion(int x, int z)
        {
            var view = RegionView.Empty();
            uint status = NativeMethods.relief_runtime_acquire_region(Handle, x, z, ref view);
            return RegionView.From(status, view);
        }

        /// <summary>Resident planet tile, read in place until disposed; null if not resident.</summary>
        public TileView AcquireTile(int face, int tx, int ty)
        {
            var view = TileView.Empty();
            uint status = NativeMethods.relief_runtime_acquire_tile(Handle, (uint)face, (uint)tx, (uint)ty, ref view);
            return TileView.From(status, view);
        }

        /// <summary>The collision chunk under a position.</summary>
        public unsafe ChunkKey ChunkAt(Double3 position)
        {
            double* p = stackalloc double[3];
            p[0] = position.X; p[1] = position.Y; p[2] = position.Z;
            uint face;
            int x, z;
            ReliefException.Check(NativeMethods.relief_runtime_chunk_at(Handle, p, out face, out x, out z));
            return new ChunkKey((int)face, x, z);
        }

        /// <summary>Built chunk <paramref name="key"/>, read in place until disposed; null if
        /// not built.</summary>
        public ChunkView AcquireChunk(ChunkKey key)
        {
            var view = ChunkView.Empty();
            uint status = NativeMethods.relief_runtime_acquire_chunk(Handle, (uint)key.Face, key.X, key.Z, ref view);
            return ChunkView.From(status, view);
        }

        /// <summary>Stops streaming and frees everything the runtime holds; views acquired from
        /// it stay readable until they are disposed. Twice is fine.</summary>
        public void Dispose()
        {
            Close(Handle.Dispose);
        }
    }
}
