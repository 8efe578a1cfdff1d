using System;
using System.Runtime.InteropServices;
using System.Text;
using Relief.Native;

namespace Relief
{
    /// <summary>An opened PLNT planet: header and tables only; tiles stream through a
    /// <see cref="Streamer"/>. Streamers made from it keep what they need.</summary>
    public sealed class Planet : IDisposable
    {
        public readonly PlanetHandle Handle;
        public readonly relief_planet_info Info;

        Planet(PlanetHandle handle)
        {
            Handle = handle;
            var info = new relief_planet_info();
            info.struct_size = (uint)Marshal.SizeOf(typeof(relief_planet_info));
            ReliefException.Check(NativeMethods.relief_planet_get_info(handle, ref info));
            Info = info;
        }

        /// <summary>Opens a planet blob on a server by http:// or https:// URL: each tile's
        /// fields are fetched side by side as it streams, through the disk cache, which also
        /// opens the planet offline. Blocks for the opening requests. <paramref name="options"/>
        /// null: the defaults.</summary>
        public static Planet OpenUrl(string url, HttpOptions options = null)
        {
            Abi.Require();
            PlanetHandle h;
            using (var pinned = new HttpOptions.Pinned(options))
                ReliefException.Check(NativeMethods.relief_planet_open_url(ReliefException.CString(url), ref pinned.Options, out h));
            return new Planet(h);
        }

        /// <summary>Opens a blob by path (read in place with positioned reads).</summary>
        public static Planet Open(string path)
        {
            Abi.Require();
            PlanetHandle h;
            ReliefException.Check(NativeMethods.relief_planet_open(ReliefException.CString(path), out h));
            return new Planet(h);
        }

        /// <summary>Opens a blob stored as <paramref name="length"/> bytes at
        /// <paramref name="offset"/> of the file at <paramref name="path"/>, read in place:
        /// on Android, a planet kept uncompressed inside the APK (see
        /// <see cref="StreamingAssets"/>). A range past the file's end is an error.</summary>
        public static Planet OpenFileRange(string path, long offset, long length)
        {
            Abi.Require();
            FileRange.CheckRange(offset, length);
            PlanetHandle h;
            ReliefException.Check(NativeMethods.relief_planet_open_file_range(ReliefException.CString(path), (ulong)offset, (ulong)length, out h));
            return new Planet(h);
        }

        /// <summary>Opens a blob held in memory; relief copies the bytes.</summary>
        public static unsafe Planet OpenMemory(ReadOnlySpan<byte> blob)
        {
            Abi.Require();
            PlanetHandle h;
            fixed (byte* p = &MemoryMarshal.GetReference(blob))
                ReliefException.Check(NativeMethods.relief_planet_open_memory(p, (UIntPtr)blob.Length, out h));
            return new Planet(h);
        }

        /// <summary>Opens a blob through <paramref name="reader"/> (Android StreamingAssets),
        /// which relief keeps and calls from its threads until everything made from it is gone.</summary>
        public static Planet OpenReader(IPackReader reader)
        {
            Abi.Require();
            var r = World.ReaderFor(reader);
            PlanetHandle h;
            ReliefException.Check(NativeMethods.relief_planet_open_reader(ref r, out h));
            return new Planet(h);
        }

        public unsafe string BiomeName(uint id)
        {
            UIntPtr length;
            ReliefException.Check(NativeMethods.relief_planet_get_biome_name(Handle, id, null, UIntPtr.Zero, out length));
            byte[] name = new byte[(int)length + 1];
            fixed (byte* p = name)
                ReliefException.Check(NativeMethods.relief_planet_get_biome_name(Handle, id, p, (UIntPtr)name.Length, out length));
            return Encoding.UTF8.GetString(name, 0, (int)length);
        }

        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>A resident planet tile's fields, zero-copy until Dispose.</summary>
    public sealed class TileView : IDisposable
    {
        relief_tile_view view;

        internal TileView(relief_tile_view view) { this.view = view; }
        ~TileView() { NativeMethods.relief_tile_release(ref view); }

        public relief_tile_view Raw { get { return view; } }

        int Count
        {
            get
            {
                if (view.token == IntPtr.Zero)
                    throw new ObjectDisposedException("TileView");
                return (int)(view.size * view.size);
            }
        }

        public unsafe ReadOnlySpan<float> Height { get { int n = Count; return new ReadOnlySpan<float>((void*)view.height, n); } }
        public unsafe ReadOnlySpan<byte> Biome { get { int n = Count; return new ReadOnlySpan<byte>((void*)view.biome, n); } }
        public unsafe ReadOnlySpan<ushort> Lake { get { int n = Count; return new ReadOnlySpan<ushort>((void*)view.lake, n); } }
        /// <summary>Metres of sediment; empty on v6 planets.</summary>
        public unsafe ReadOnlySpan<float> Sediment { get { int n = Count; return new ReadOnlySpan<float>((void*)view.sediment, view.sediment == IntPtr.Zero ? 0 : n); } }
        /// <summary>mm/yr; empty on v6 planets.</summary>
        public unsafe ReadOnlySpan<float> Precipitation { get { int n = Count; return new ReadOnlySpan<float>((void*)view.precipitation, view.precipitation == IntPtr.Zero ? 0 : n); } }

        public void Dispose()
        {
            NativeMethods.relief_tile_release(ref view);
            GC.SuppressFinalize(this);
        }
    }

    /// <summary>A planet's queries, from any thread. Positions are planet-frame metres
    /// (x, y, z); only their direction matters.</summary>
    public sealed class PlanetTerrain : IDisposable
    {
        public readonly PlanetTerrainHandle Handle;

        public PlanetTerrain(Streamer streamer)
        {
            ReliefException.Check(NativeMethods.relief_planet_terrain_create(streamer.Handle, out Handle));
        }

        /// <summary>Queries over what a planet's runtime streams.</summary>
        public PlanetTerrain(Runtime runtime)
        {
            ReliefException.Check(NativeMethods.relief_runtime_create_planet_terrain(runtime.Handle, out Handle));
        }

        /// <summary>The sea-level position under latitude/longitude (degrees) into
        /// <paramref name="position"/> (3 doubles).</summary>
        public unsafe void PositionAt(double latitude, double longitude, Span<double> position)
        {
            if (position.Length < 3)
                throw new ArgumentException("position needs 3 doubles");
            fixed (double* p = &MemoryMarshal.GetReference(position))
                ReliefException.Check(NativeMethods.relief_planet_terrain_position_at(Handle, latitude, longitude, p));
        }

        public unsafe float Height(ReadOnlySpan<double> position, out uint origin)
        {
            float h;
            fixed (double* p = &MemoryMarshal.GetReference(position))
                ReliefException.Check(NativeMethods.relief_planet_terrain_height(Handle, Need3(p, position.Length), out h, out origin));
            return h;
        }

        /// <summary>Heights for positions (3 doubles each); returns how many came from tiles.</summary>
        public unsafe int Heights(ReadOnlySpan<double> xyz, Span<float> heights)
        {
            UIntPtr n;
            fixed (double* p = &MemoryMarshal.GetReference(xyz))
            fixed (float* o = &MemoryMarshal.GetReference(heights))
                ReliefException.Check(NativeMethods.relief_planet_terrain_heights(Handle, p, (UIntPtr)(xyz.Length / 3), o, (UIntPtr)heights.Length, out n));
            return (int)n;
        }

        public unsafe uint Normal(ReadOnlySpan<double> position, Span<float> normal)
        {
            if (normal.Length < 3)
                throw new ArgumentException("normal needs 3 floats");
            uint origin;
            fixed (double* p = &MemoryMarshal.GetReference(position))
            fixed (float* o = &MemoryMarshal.GetReference(normal))
                ReliefException.Check(NativeMethods.relief_planet_terrain_normal(Handle, Need3(p, position.Length), o, out origin));
            return origin;
        }

        /// <summary>A field (RELIEF_PLANET_FIELD_*) at the nearest sample; false if its tile is
        /// not resident (or the planet is v6, for sediment and precipitation).</summary>
        public unsafe bool Sample(ReadOnlySpan<double> position, uint field, out double value)
        {
            uint found;
            fixed (double* p = &MemoryMarshal.GetReference(position))
                ReliefException.Check(NativeMethods.relief_planet_terrain_sample(Handle, Need3(p, position.Length), field, out found, out value));
            return found != 0;
        }

        public unsafe relief_planet_river River(ReadOnlySpan<double> position, double radius)
        {
            var r = new relief_planet_river();
            r.struct_size = (uint)Marshal.SizeOf(typeof(relief_planet_river));
            fixed (double* p = &MemoryMarshal.GetReference(position))
                ReliefException.Check(NativeMethods.relief_planet_terrain_river(Handle, Need3(p, position.Length), radius, ref r));
            return r;
        }

        public unsafe relief_lake Lake(ReadOnlySpan<double> position, double radius)
        {
            var l = new relief_lake();
            l.struct_size = (uint)Marshal.SizeOf(typeof(relief_lake));
            fixed (double* p = &MemoryMarshal.GetReference(position))
                ReliefException.Check(NativeMethods.relief_planet_terrain_lake(Handle, Need3(p, position.Length), radius, ref l));
            return l;
        }

        static unsafe double* Need3(double* p, int length)
        {
            if (length < 3)
                throw new ArgumentException("a position is 3 doubles");
            return p;
        }

        public void Dispose() { Handle.Dispose(); }
    }
}
