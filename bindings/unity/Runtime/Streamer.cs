using System;
using System.Runtime.InteropServices;
using Relief.Native;

namespace Relief
{
    /// <summary>Regions streaming around a focus on relief's threads. Call Update and
    /// PollEvents from one thread (the main thread); everything else from any.</summary>
    public sealed class Streamer : IDisposable
    {
        public readonly StreamerHandle Handle;
        /// <summary>The flat world streamed, or null for a planet streamer.</summary>
        public readonly World World;
        /// <summary>The planet whose tiles are streamed, or null for a flat world.</summary>
        public readonly Planet Planet;

        /// <summary>Defaults for regions (RELIEF_STREAM_KIND_REGIONS) or collision chunks
        /// (RELIEF_STREAM_KIND_COLLISION): change what you need and pass it on.</summary>
        public static relief_stream_config DefaultConfig(uint kind)
        {
            Abi.Require();
            relief_stream_config c;
            ReliefException.Check(NativeMethods.relief_stream_config_default(kind, out c));
            return c;
        }

        public Streamer(World world) : this(world, DefaultConfig(NativeMethods.RELIEF_STREAM_KIND_REGIONS)) { }

        public Streamer(World world, relief_stream_config config)
        {
            World = world;
            ReliefException.Check(NativeMethods.relief_streamer_create(world.Handle, ref config, out Handle));
        }

        /// <summary>Streams a planet's tiles (positions are the planet frame, metres).</summary>
        public Streamer(Planet planet) : this(planet, DefaultConfig(NativeMethods.RELIEF_STREAM_KIND_REGIONS)) { }

        public Streamer(Planet planet, relief_stream_config config)
        {
            Planet = planet;
            ReliefException.Check(NativeMethods.relief_planet_streamer_create(planet.Handle, ref config, out Handle));
        }

        /// <summary>A resident planet tile, read in place until disposed; null if not resident.</summary>
        public TileView AcquireTile(uint face, uint tx, uint ty)
        {
            var view = new relief_tile_view();
            view.struct_size = (uint)Marshal.SizeOf(typeof(relief_tile_view));
            uint status = NativeMethods.relief_tile_acquire(Handle, face, tx, ty, ref view);
            if (status == NativeMethods.RELIEF_STATUS_NOT_FOUND)
                return null;
            ReliefException.Check(status);
            return new TileView(view);
        }

        /// <summary>Moves the focus; never blocks. Once per frame.</summary>
        public void Update(double x, double y, double z)
        {
            ReliefException.Check(NativeMethods.relief_streamer_update(Handle, x, y, z));
        }

        /// <summary>Blocks until what the focus wants is loaded, or the timeout; true if
        /// everything settled. For loading screens, not frames.</summary>
        public bool Settle(double x, double y, double z, uint timeoutMs)
        {
            uint settled;
            ReliefException.Check(NativeMethods.relief_streamer_settle(Handle, x, y, z, timeoutMs, out settled));
            return settled != 0;
        }

        /// <summary>Moves pending events into <paramref name="events"/>; returns how many.</summary>
        public unsafe int PollEvents(Span<relief_event> events)
        {
            UIntPtr n;
            fixed (relief_event* p = &MemoryMarshal.GetReference(events))
                ReliefException.Check(NativeMethods.relief_streamer_poll_events(Handle, p, (UIntPtr)sizeof(relief_event), (UIntPtr)events.Length, out n));
            return (int)n;
        }

        public relief_stream_stats Stats
        {
            get
            {
                var s = new relief_stream_stats();
                s.struct_size = (uint)Marshal.SizeOf(typeof(relief_stream_stats));
                ReliefException.Check(NativeMethods.relief_streamer_get_stats(Handle, ref s));
                return s;
            }
        }

        /// <summary>The resident region at location (x, z), read in place until the view is
        /// disposed; null if it isn't resident.</summary>
        public RegionView AcquireRegion(int x, int z)
        {
            var view = new relief_region_view();
            view.struct_size = (uint)Marshal.SizeOf(typeof(relief_region_view));
            uint status = NativeMethods.relief_region_acquire(Handle, x, z, ref view);
            if (status == NativeMethods.RELIEF_STATUS_NOT_FOUND)
                return null;
            ReliefException.Check(status);
            return new RegionView(view);
        }

        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>A resident region's maps, zero-copy: valid until Dispose, even if the region
    /// unloads. Sample (i, j) is at index j * Size + i.</summary>
    public sealed class RegionView : IDisposable
    {
        relief_region_view view;

        internal RegionView(relief_region_view view) { this.view = view; }
        ~RegionView() { NativeMethods.relief_region_release(ref view); }

        public relief_region_view Raw { get { return view; } }
        public int X { get { return view.x; } }
        public int Z { get { return view.z; } }
        public int Size { get { return (int)view.size; } }
        int Count { get { return Live() * Live(); } }

        int Live()
        {
            if (view.token == IntPtr.Zero)
                throw new ObjectDisposedException("RegionView");
            return (int)view.size;
        }

        /// <summary>Heights, metres (Godot FORMAT_RF).</summary>
        public unsafe ReadOnlySpan<float> Height { get { int n = Count; return new ReadOnlySpan<float>((void*)view.height, n); } }
        /// <summary>Terrain3D control words; empty if the world has none.</summary>
        public unsafe ReadOnlySpan<uint> Control { get { int n = Count; return new ReadOnlySpan<uint>((void*)view.control, view.control == IntPtr.Zero ? 0 : n); } }
        /// <summary>RGBA8, four bytes per sample; empty if the world has none.</summary>
        public unsafe ReadOnlySpan<byte> Color { get { int n = Count * 4; return new ReadOnlySpan<byte>((void*)view.color, view.color == IntPtr.Zero ? 0 : n); } }
        public unsafe ReadOnlySpan<byte> Biome { get { int n = Count; return new ReadOnlySpan<byte>((void*)view.biome, view.biome == IntPtr.Zero ? 0 : n); } }
        public unsafe ReadOnlySpan<ushort> Lake { get { int n = Count; return new ReadOnlySpan<ushort>((void*)view.lake, view.lake == IntPtr.Zero ? 0 : n); } }

        public void Dispose()
        {
            NativeMethods.relief_region_release(ref view);
            GC.SuppressFinalize(this);
        }
    }
}
