using System;
using System.Runtime.InteropServices;
using Relief.Native;

namespace Relief
{
    /// <summary>Everything streamed around a focus, for a flat world or a planet: regions or
    /// tiles, collision chunks and far-ground levels, driven by one Update a frame with one
    /// event stream. Call Update, Settle and PollEvents from one thread (the main thread);
    /// views, stats and queries from any.</summary>
    public sealed class Runtime : IDisposable
    {
        public readonly RuntimeHandle Handle;
        /// <summary>The flat world streamed, or null on a planet.</summary>
        public readonly World World;
        /// <summary>The planet streamed, or null on a flat world.</summary>
        public readonly Planet Planet;

        /// <summary>The defaults of every part (nested struct sizes set): change what you
        /// need, e.g. flags = RELIEF_RUNTIME_NO_LEVELS for a headless server.</summary>
        public static relief_runtime_config DefaultConfig()
        {
            Abi.Require();
            relief_runtime_config c;
            ReliefException.Check(NativeMethods.relief_runtime_config_default(out c));
            return c;
        }

        public Runtime(World world) : this(world, DefaultConfig()) { }

        public Runtime(World world, relief_runtime_config config)
        {
            World = world;
            ReliefException.Check(NativeMethods.relief_runtime_create(world.Handle, ref config, out Handle));
        }

        /// <summary>Streams a planet (positions are the planet frame, metres).</summary>
        public Runtime(Planet planet) : this(planet, DefaultConfig()) { }

        public Runtime(Planet planet, relief_runtime_config config)
        {
            Planet = planet;
            ReliefException.Check(NativeMethods.relief_planet_runtime_create(planet.Handle, ref config, out Handle));
        }

        /// <summary>One frame around the focus; never blocks.</summary>
        public void Update(double x, double y, double z)
        {
            ReliefException.Check(NativeMethods.relief_runtime_update(Handle, x, y, z));
        }

        /// <summary>One frame: pieces and collision follow the focus (the player), the levels
        /// follow the camera. Never blocks.</summary>
        public void Update(double fx, double fy, double fz, double cx, double cy, double cz)
        {
            ReliefException.Check(NativeMethods.relief_runtime_update_with_camera(Handle, fx, fy, fz, cx, cy, cz));
        }

        /// <summary>Blocks until every piece and chunk the focus wants is ready, or the
        /// timeout; true if everything settled. For loading screens, not frames.</summary>
        public bool Settle(double x, double y, double z, uint timeoutMs)
        {
            uint settled;
            ReliefException.Check(NativeMethods.relief_runtime_settle(Handle, x, y, z, timeoutMs, out settled));
            return settled != 0;
        }

        /// <summary>Moves pending events (RELIEF_EVENT_*) into <paramref name="events"/>;
        /// returns how many.</summary>
        public unsafe int PollEvents(Span<relief_event> events)
        {
            UIntPtr n;
            fixed (relief_event* p = &MemoryMarshal.GetReference(events))
                ReliefException.Check(NativeMethods.relief_runtime_poll_events(Handle, p, (UIntPtr)sizeof(relief_event), (UIntPtr)events.Length, out n));
            return (int)n;
        }

        public relief_runtime_stats Stats
        {
            get
            {
                var s = new relief_runtime_stats();
                s.struct_size = (uint)Marshal.SizeOf(typeof(relief_runtime_stats));
                ReliefException.Check(NativeMethods.relief_runtime_get_stats(Handle, ref s));
                return s;
            }
        }

        /// <summary>Copies the last update's level rectangles; <paramref name="rects"/> must
        /// hold them all (the LEVELS_DIRTY event's x). Returns the count.</summary>
        public unsafe int GetDirty(Span<relief_dirty_rect> rects)
        {
            UIntPtr n;
            fixed (relief_dirty_rect* p = &MemoryMarshal.GetReference(rects))
                ReliefException.Check(NativeMethods.relief_runtime_get_dirty(Handle, p, (UIntPtr)sizeof(relief_dirty_rect), (UIntPtr)rects.Length, out n));
            return (int)n;
        }

        /// <summary>Level k's view; its heights are valid until the next update.</summary>
        public relief_clipmap_level Level(uint k)
        {
            var level = new relief_clipmap_level();
            level.struct_size = (uint)Marshal.SizeOf(typeof(relief_clipmap_level));
            ReliefException.Check(NativeMethods.relief_runtime_get_level(Handle, k, ref level));
            return level;
        }

        /// <summary>Level k's heights, toroidal: cell (i, j) at (j mod size) * size + (i mod size).</summary>
        public ReadOnlySpan<float> LevelHeights(uint k)
        {
            return Clipmap.HeightsOf(Level(k));
        }

        /// <summary>Resident region (x, z), read in place until disposed; null if not resident.</summary>
        public RegionView AcquireRegion(int x, int z)
        {
            var view = new relief_region_view();
            view.struct_size = (uint)Marshal.SizeOf(typeof(relief_region_view));
            uint status = NativeMethods.relief_runtime_acquire_region(Handle, x, z, ref view);
            if (status == NativeMethods.RELIEF_STATUS_NOT_FOUND)
                return null;
            ReliefException.Check(status);
            return new RegionView(view);
        }

        /// <summary>Resident planet tile, read in place until disposed; null if not resident.</summary>
        public TileView AcquireTile(uint face, uint tx, uint ty)
        {
            var view = new relief_tile_view();
            view.struct_size = (uint)Marshal.SizeOf(typeof(relief_tile_view));
            uint status = NativeMethods.relief_runtime_acquire_tile(Handle, face, tx, ty, ref view);
            if (status == NativeMethods.RELIEF_STATUS_NOT_FOUND)
                return null;
            ReliefException.Check(status);
            return new TileView(view);
        }

        /// <summary>The collision chunk under a position.</summary>
        public unsafe void ChunkAt(double x, double y, double z, out uint face, out int chunkX, out int chunkZ)
        {
            double* p = stackalloc double[3];
            p[0] = x;
            p[1] = y;
            p[2] = z;
            ReliefException.Check(NativeMethods.relief_runtime_chunk_at(Handle, p, out face, out chunkX, out chunkZ));
        }

        /// <summary>Built chunk (face, x, z), read in place until disposed; null if not built.</summary>
        public ChunkView AcquireChunk(uint face, int x, int z)
        {
            var view = new relief_chunk_view();
            view.struct_size = (uint)Marshal.SizeOf(typeof(relief_chunk_view));
            uint status = NativeMethods.relief_runtime_acquire_chunk(Handle, face, x, z, ref view);
            if (status == NativeMethods.RELIEF_STATUS_NOT_FOUND)
                return null;
            ReliefException.Check(status);
            return new ChunkView(view);
        }

        public void Dispose() { Handle.Dispose(); }
    }
}
