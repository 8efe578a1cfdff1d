using System;
using System.Runtime.InteropServices;
using System.Text;
using Relief.Native;

namespace Relief
{
    /// <summary>An opened PLNT planet: header and tables only; tiles stream through a
    /// <see cref="Runtime"/>. Runtimes made from it keep what they need, so it may be disposed
    /// first.</summary>
    public sealed class Planet : IDisposable
    {
        internal readonly PlanetHandle Handle;
        public readonly PlanetInfo Info;

        Planet(PlanetHandle handle)
        {
            Handle = handle;
            var info = new relief_planet_info();
            info.struct_size = (uint)Marshal.SizeOf(typeof(relief_planet_info));
            ReliefException.Check(NativeMethods.relief_planet_get_info(handle, ref info));
            Info = new PlanetInfo(info);
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

        /// <summary>Opens a blob stored as <paramref name="length"/> bytes at
        /// <paramref name="offset"/> of the open file descriptor <paramref name="fd"/>, read in
        /// place: on Android, what <c>AssetManager.openFd</c> gives for a StreamingAssets file
        /// in the base APK or in an install-time asset pack (see
        /// <see cref="StreamingAssets.OpenPlanet"/>). relief duplicates the descriptor: close
        /// yours when this returns. Unix only (Android, iOS, Linux, macOS).</summary>
        public static Planet OpenFd(int fd, long offset, long length)
        {
            Abi.Require();
            FileRange.CheckRange(offset, length);
            PlanetHandle h;
            ReliefException.Check(NativeMethods.relief_planet_open_fd(fd, (ulong)offset, (ulong)length, out h));
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

        /// <summary>Biome <paramref name="id"/>'s name (relief's baked classes: <see cref="Biome"/>).</summary>
        public unsafe string BiomeName(int id)
        {
            UIntPtr length;
            ReliefException.Check(NativeMethods.relief_planet_get_biome_name(Handle, (uint)id, null, UIntPtr.Zero, out length));
            byte[] name = new byte[(int)length + 1];
            fixed (byte* p = name)
                ReliefException.Check(NativeMethods.relief_planet_get_biome_name(Handle, (uint)id, p, (UIntPtr)name.Length, out length));
            return Encoding.UTF8.GetString(name, 0, (int)length);
        }

        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>A planet's queries, from any thread. Positions are planet-frame metres; only
    /// their direction matters (a query answers for the ground under the position).</summary>
    public sealed class PlanetQueries : IDisposable
    {
        internal readonly PlanetTerrainHandle Handle;

        /// <summary>Queries over what a planet's runtime has resident (relief_runtime_create_planet_terrain);
        /// they may outlive the runtime.</summary>
        public PlanetQueries(Runtime runtime)
        {
            if (runtime == null) throw new ArgumentNullException("runtime");
            ReliefException.Check(NativeMethods.relief_runtime_create_planet_terrain(runtime.Handle, out Handle));
            ReadBasis();
        }

        /// <summary>The sea-level position under latitude/longitude (degrees).</summary>
        public unsafe Double3 PositionAt(double latitude, double longitude)
        {
            double* p = stackalloc double[3];
            ReliefException.Check(NativeMethods.relief_planet_terrain_position_at(Handle, latitude, longitude, p));
            return Double3.From(p);
        }

        // Longitude 0 and 90° on the equator, and the pole: the planet's own meridian basis,
        // read through PositionAt when the queries are made, so LatLon inverts it exactly.
        Double3 east, north, pole;

        void ReadBasis()
        {
            east = PositionAt(0, 0).Normalized;
            north = PositionAt(0, 90).Normalized;
            pole = PositionAt(90, 0).Normalized;
        }

        /// <summary>Latitude and longitude (degrees) of the ground under
        /// <paramref name="position"/>: the inverse of <see cref="PositionAt"/>. Longitude is in
        /// (−180, 180]; at a pole it is 0.</summary>
        public void LatLon(Double3 position, out double latitude, out double longitude)
        {
            Double3 d = position.Normalized;
            latitude = Math.Asin(Math.Max(-1.0, Math.Min(1.0, d.Dot(pole)))) * (180.0 / Math.PI);
            double x = d.Dot(east), y = d.Dot(north);
            longitude = x * x + y * y < 1e-24 ? 0 : Math.Atan2(y, x) * (180.0 / Math.PI);
        }

        /// <summary>The ground's height above the sea-level radius under
        /// <paramref name="position"/>, metres, and where it came from.</summary>
        public unsafe float Height(Double3 position, out HeightOrigin origin)
        {
            double* p = stackalloc double[3];
            Put(p, position);
            float h;
            uint o;
            ReliefException.Check(NativeMethods.relief_planet_terrain_height(Handle, p, out h, out o));
            origin = (HeightOrigin)o;
            return h;
        }

        public float Height(Double3 position)
        {
            HeightOrigin origin;
            return Height(position, out origin);
        }

        /// <summary>The ground's surface point under <paramref name="position"/>: the
        /// direction scaled to radius + height.</summary>
        public Double3 Surface(Double3 position, double radius)
        {
            return position.Normalized * (radius + Height(position));
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

        /// <summary>The ground's unit normal under <paramref name="position"/>, planet frame.</summary>
        public unsafe Double3 Normal(Double3 position, out HeightOrigin origin)
        {
            double* p = stackalloc double[3];
            float* n = stackalloc float[3];
            Put(p, position);
            uint o;
            ReliefException.Check(NativeMethods.relief_planet_terrain_normal(Handle, p, n, out o));
            origin = (HeightOrigin)o;
            return new Double3(n[0], n[1], n[2]);
        }

        /// <summary>A field at the nearest sample; false if its tile is not resident (or the
        /// planet is v6, for sediment and precipitation).</summary>
        public unsafe bool Sample(Double3 position, PlanetField field, out double value)
        {
            double* p = stackalloc double[3];
            Put(p, position);
            uint found;
            ReliefException.Check(NativeMethods.relief_planet_terrain_sample(Handle, p, (uint)field, out found, out value));
            return found != 0;
        }

        /// <summary>The nearest river within <paramref name="radius"/> metres.</summary>
        public unsafe PlanetRiverAt River(Double3 position, double radius)
        {
            double* p = stackalloc double[3];
            Put(p, position);
            var r = new relief_planet_river();
            r.struct_size = (uint)Marshal.SizeOf(typeof(relief_planet_river));
            ReliefException.Check(NativeMethods.relief_planet_terrain_river(Handle, p, radius, ref r));
            return new PlanetRiverAt(r);
        }

        /// <summary>The nearest lake within <paramref name="radius"/> metres.</summary>
        public unsafe LakeAt Lake(Double3 position, double radius)
        {
            double* p = stackalloc double[3];
            Put(p, position);
            var l = new relief_lake();
            l.struct_size = (uint)Marshal.SizeOf(typeof(relief_lake));
            ReliefException.Check(NativeMethods.relief_planet_terrain_lake(Handle, p, radius, ref l));
            return new LakeAt(l);
        }

        static unsafe void Put(double* p, Double3 v) { p[0] = v.X; p[1] = v.Y; p[2] = v.Z; }

        public void Dispose() { Handle.Dispose(); }
    }
}
