using System;
using System.Runtime.InteropServices;
using Relief.Native;

namespace Relief
{
    /// <summary>Regions (or a planet's tiles) streaming around a focus on relief's threads.
    /// Call Update and PollEvents from one thread (the main thread); everything else from any.
    /// <see cref="Runtime"/> drives this, collision and far ground in one call; use a Streamer
    /// alone for a server or a tool.</summary>
    public sealed class Streamer : IDisposable
    {
        internal readonly StreamerHandle Handle;
        /// <summary>The flat world streamed, or null for a planet streamer.</summary>
        public readonly World World;
        /// <summary>The planet whose tiles are streamed, or null for a flat world.</summary>
        public readonly Planet Planet;

        /// <summary>Streams <paramref name="world"/>'s regions with relief's defaults.</summary>
        public Streamer(World world) : this(world, StreamConfig.Default(StreamKind.Regions)) { }

        public Streamer(World world, StreamConfig config)
        {
            World = world;
            ReliefException.Check(NativeMethods.relief_streamer_create(world.Handle, ref config.c, out Handle));
        }

        /// <summary>Streams a planet's tiles (positions are the planet frame, metres).</summary>
        public Streamer(Planet planet) : this(planet, StreamConfig.Default(StreamKind.Regions)) { }

        public Streamer(Planet planet, StreamConfig config)
        {
            Planet = planet;
            ReliefException.Check(NativeMethods.relief_planet_streamer_create(planet.Handle, ref config.c, out Handle));
        }

        /// <summary>Moves the focus; never blocks. Once per frame.</summary>
        public void Update(double x, double y, double z)
        {
            ReliefException.Check(NativeMethods.relief_streamer_update(Handle, x, y, z));
        }

        /// <summary>Blocks until what the focus wants is loaded, or the timeout; true if
        /// everything settled. For loading screens, not frames.</summary>
        public bool Settle(double x, double y, double z, int timeoutMs)
        {
            uint settled;
            ReliefException.Check(NativeMethods.relief_streamer_settle(Handle, x, y, z, (uint)timeoutMs, out settled));
            return settled != 0;
        }

        /// <summary>Moves pending events into <paramref name="events"/>; returns how many.
        /// Call until it returns 0.</summary>
        public unsafe int PollEvents(Span<StreamEvent> events)
        {
            UIntPtr n;
            fixed (StreamEvent* p = &MemoryMarshal.GetReference(events))
                ReliefException.Check(NativeMethods.relief_streamer_poll_events(Handle, (relief_event*)p, (UIntPtr)sizeof(relief_event), (UIntPtr)events.Length, out n));
            return (int)n;
        }

        public StreamStats Stats
        {
            get
            {
                var s = new relief_stream_stats();
                s.struct_size = (uint)Marshal.SizeOf(typeof(relief_stream_stats));
                ReliefException.Check(NativeMethods.relief_streamer_get_stats(Handle, ref s));
                return new StreamStats(s);
            }
        }

        /// <summary>The resident region at location (x, z), read in place until the view is
        /// disposed; null if it isn't resident.</summary>
        public RegionView AcquireRegion(int x, int z)
        {
            var view = RegionView.Empty();
            uint status = NativeMethods.relief_region_acquire(Handle, x, z, ref view);
            return RegionView.From(status, view);
        }

        /// <summary>A resident planet tile, read in place until disposed; null if not resident.</summary>
        public TileView AcquireTile(int face, int tx, int ty)
        {
            var view = TileView.Empty();
            uint status = NativeMethods.relief_tile_acquire(Handle, (uint)face, (uint)tx, (uint)ty, ref view);
            return TileView.From(status, view);
        }

        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>A resident region's maps, zero-copy: valid until Dispose, even if the region
    /// unloads meanwhile. Sample (i, j) is at index j · Size + i, i along +X, j along +Z.</summary>
    public sealed class RegionView : ViewOwner, IDisposable
    {
        relief_region_view view;

        RegionView(relief_region_view view) { this.view = view; }
        ~RegionView() { Close(Free); }

        internal static relief_region_view Empty()
        {
            var v = new relief_region_view();
            v.struct_size = (uint)Marshal.SizeOf(typeof(relief_region_view));
            return v;
        }

        internal static RegionView From(uint status, relief_region_view view)
        {
            if (status == (uint)ReliefStatus.NotFound)
                return null;
            ReliefException.Check(status);
            return new RegionView(view);
        }

        void Free() { NativeMethods.relief_region_release(ref view); }

        /// <summary>The region's location (x, z) in regions.</summary>
        public int X { get { return view.x; } }
        public int Z { get { return view.z; } }
        /// <summary>Samples along a side.</summary>
        public int Size { get { return (int)view.size; } }
        public double VertexSpacing { get { return view.vertex_spacing; } }
        /// <summary>Sample (0, 0)'s world position (x, z), metres.</summary>
        public double OriginX { get { return view.origin_x; } }
        public double OriginZ { get { return view.origin_z; } }

        int Count { get { return (int)(view.size * view.size); } }

        /// <summary>Heights, metres; NaN in holes.</summary>
        public ViewSpan<float> Height { get { return new ViewSpan<float>(this, view.height, Count); } }
        /// <summary>Terrain3D control words; empty if the world has none.</summary>
        public ViewSpan<uint> Control { get { return new ViewSpan<uint>(this, view.control, Count); } }
        /// <summary>RGBA8, four bytes per sample; empty if the world has none.</summary>
        public ViewSpan<byte> Color { get { return new ViewSpan<byte>(this, view.color, Count * 4); } }
        /// <summary>Biome ids; empty if the world has none.</summary>
        public ViewSpan<byte> Biome { get { return new ViewSpan<byte>(this, view.biome, Count); } }
        /// <summary>Lake ids + 1 (0: no lake); empty if the world has none.</summary>
        public ViewSpan<ushort> Lake { get { return new ViewSpan<ushort>(this, view.lake, Count); } }

        /// <summary>Gives the memory back to relief; reads after this throw. Twice is fine.</summary>
        public void Dispose()
        {
            Close(Free);
            GC.SuppressFinalize(this);
        }
    }
}
