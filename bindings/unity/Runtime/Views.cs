// Zero-copy views of relief's memory that can't be read after the memory goes back.
//
// A view (a held region, tile or chunk; a runtime's levels) is a ViewOwner. Its maps are ViewSpans:
// ref structs that can't be stored on the heap and that enter the owner for every read. The
// owner lets go of relief's memory once: Dispose (any thread) or, forgotten, the finalizer of
// its handle (relief_region / relief_tile / relief_chunk, released by a SafeHandle). Dispose first
// closes the owner, then waits for reads in progress to leave, then frees; a read that
// enters after the close throws ObjectDisposedException. A ViewSpan holds its owner, so the
// finalizer can't run (and free) while a span of it is still in use.
using System;
using System.Runtime.InteropServices;
using System.Threading;
using Relief.Native;

namespace Relief
{
    /// <summary>Reads a view's span in place: <paramref name="span"/> is valid only during the
    /// call (the view can't be released meanwhile).</summary>
    public delegate void SpanReader<T, TState>(ReadOnlySpan<T> span, TState state);

    /// <summary>Something that lends relief's memory to <see cref="ViewSpan{T}"/>s.</summary>
    public abstract class ViewOwner
    {
        int readers;
        int closed;

        /// <summary>Whether the memory is still lent (false once disposed).</summary>
        public bool IsLive { get { return Volatile.Read(ref closed) == 0; } }

        internal void Enter()
        {
            Interlocked.Increment(ref readers);
            if (Volatile.Read(ref closed) != 0)
            {
                Interlocked.Decrement(ref readers);
                throw new ObjectDisposedException(GetType().Name, "the view was disposed: its memory went back to relief");
            }
        }

        internal void Exit() { Interlocked.Decrement(ref readers); }

        /// <summary>Whether an acquire call returned a held piece: false for NOT_FOUND (not
        /// resident, or not built), an exception for any other failure.</summary>
        internal static bool Held(uint status, SafeHandle h)
        {
            if (status == NativeMethods.RELIEF_STATUS_OK)
                return true;
            ReliefException e = status == NativeMethods.RELIEF_STATUS_NOT_FOUND ? null : ReliefException.Of(status);
            h.Dispose(); // holds nothing: relief left it untouched
            if (e != null)
                throw e;
            return false;
        }

        /// <summary>Throws, letting go of the held piece <paramref name="h"/>, unless its view was read.</summary>
        internal static void CheckView(uint status, SafeHandle h)
        {
            if (status == NativeMethods.RELIEF_STATUS_OK)
                return;
            ReliefException e = ReliefException.Of(status); // the message first: releasing may not keep it
            h.Dispose();
            throw e;
        }

        /// <summary>Closes the owner to new reads, waits for reads in progress, then runs
        /// <paramref name="free"/>, once; false if it was closed already.</summary>
        internal bool Close(Action free)
        {
            if (Interlocked.Exchange(ref closed, 1) != 0)
                return false;
            var spin = new SpinWait();
            while (Volatile.Read(ref readers) != 0)
                spin.SpinOnce();
            free();
            return true;
        }
    }

    /// <summary>A read-only span of relief's memory that checks, on every read, that its
    /// view is still live. Index it, copy it out, or <see cref="Read"/> it in place.</summary>
    public readonly ref struct ViewSpan<T> where T : struct
    {
        readonly ViewOwner owner;
        readonly IntPtr data;
        readonly int length;

        /// <summary>A span of a live owner's memory; throws ObjectDisposedException once the
        /// owner is closed (its pointers are gone).</summary>
        internal ViewSpan(ViewOwner owner, IntPtr data, int length)
        {
            if (!owner.IsLive)
                throw new ObjectDisposedException(owner.GetType().Name, "the view was disposed: its memory went back to relief");
            this.owner = owner;
            this.data = data;
            this.length = data == IntPtr.Zero ? 0 : length;
        }

        /// <summary>Elements (0 for a map the world doesn't have).</summary>
        public int Length { get { return length; } }
        public bool IsEmpty { get { return length == 0; } }

        /// <summary>Element <paramref name="index"/>; throws ObjectDisposedException once the
        /// view is disposed.</summary>
        public unsafe T this[int index]
        {
            get
            {
                owner.Enter();
                try
                {
                    if ((uint)index >= (uint)length)
                        throw new IndexOutOfRangeException();
                    return new ReadOnlySpan<T>((void*)data, length)[index];
                }
                finally { owner.Exit(); }
            }
        }

        /// <summary>Copies every element into <paramref name="destination"/> (at least
        /// <see cref="Length"/> long).</summary>
        public unsafe void CopyTo(Span<T> destination)
        {
            owner.Enter();
            try
            {
                if (destination.Length < length)
                    throw new ArgumentException("destination holds " + destination.Length + " elements, the view " + length, "destination");
                new ReadOnlySpan<T>((void*)data, length).CopyTo(destination);
            }
            finally { owner.Exit(); }
        }

        /// <summary>A managed copy.</summary>
        public T[] ToArray()
        {
            var a = new T[length];
            CopyTo(a);
            return a;
        }

        /// <summary>Calls <paramref name="reader"/> with the memory itself (no copy); the view
        /// can't be released until it returns.</summary>
        public unsafe void Read<TState>(TState state, SpanReader<T, TState> reader)
        {
            owner.Enter();
            try { reader(new ReadOnlySpan<T>((void*)data, length), state); }
            finally { owner.Exit(); }
        }
    }

    /// <summary>A resident region's maps, zero-copy: the region is held (relief_region) until
    /// Dispose, even if it unloads or the runtime is disposed meanwhile. Sample (i, j) is at
    /// index j · Size + i, i along +X, j along +Z, at world (OriginX + i · VertexSpacing,
    /// OriginZ + j · VertexSpacing).</summary>
    public sealed class RegionView : ViewOwner, IDisposable
    {
        readonly RegionHandle handle;
        readonly relief_region_view view;

        RegionView(RegionHandle handle, relief_region_view view) { this.handle = handle; this.view = view; }

        /// <summary>Holds region (x, z) of <paramref name="runtime"/> and reads its view;
        /// null if it isn't resident.</summary>
        internal static RegionView Acquire(RuntimeHandle runtime, int x, int z)
        {
            RegionHandle h;
            uint status = NativeMethods.relief_runtime_acquire_region(runtime, x, z, out h);
            if (!Held(status, h))
                return null;
            var v = new relief_region_view();
            v.struct_size = (uint)Marshal.SizeOf(typeof(relief_region_view));
            CheckView(NativeMethods.relief_region_get_view(h, ref v), h);
            return new RegionView(h, v);
        }

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
        /// <summary>Lake ids (0: no lake); empty if the world has none.</summary>
        public ViewSpan<ushort> Lake { get { return new ViewSpan<ushort>(this, view.lake, Count); } }

        /// <summary>Lets go of the region (relief_region_release); reads after this throw.
        /// Twice is fine.</summary>
        public void Dispose() { Close(handle.Dispose); }
    }

    /// <summary>A resident planet tile's fields, zero-copy: the tile is held (relief_tile) until
    /// Dispose. Sample (u, v) is at index v · Size + u, face sample (TileX · Size + u,
    /// TileY · Size + v).</summary>
    public sealed class TileView : ViewOwner, IDisposable
    {
        readonly TileHandle handle;
        readonly relief_tile_view view;

        TileView(TileHandle handle, relief_tile_view view) { this.handle = handle; this.view = view; }

        /// <summary>Holds tile (face, tx, ty) of <paramref name="runtime"/>; null if not resident.</summary>
        internal static TileView Acquire(RuntimeHandle runtime, int face, int tx, int ty)
        {
            TileHandle h;
            uint status = NativeMethods.relief_runtime_acquire_tile(runtime, (uint)face, (uint)tx, (uint)ty, out h);
            if (!Held(status, h))
                return null;
            var v = new relief_tile_view();
            v.struct_size = (uint)Marshal.SizeOf(typeof(relief_tile_view));
            CheckView(NativeMethods.relief_tile_get_view(h, ref v), h);
            return new TileView(h, v);
        }

        public int Face { get { return (int)view.face; } }
        public int TileX { get { return (int)view.tx; } }
        public int TileY { get { return (int)view.ty; } }
        /// <summary>Samples along a side.</summary>
        public int Size { get { return (int)view.size; } }
        int Count { get { return (int)(view.size * view.size); } }

        /// <summary>Heights above the sea-level radius, metres.</summary>
        public ViewSpan<float> Height { get { return new ViewSpan<float>(this, view.height, Count); } }
        /// <summary>Biome class ids (<see cref="Planet.BiomeName"/>).</summary>
        public ViewSpan<byte> Biome { get { return new ViewSpan<byte>(this, view.biome, Count); } }
        /// <summary>Lake ids (0: none).</summary>
        public ViewSpan<ushort> Lake { get { return new ViewSpan<ushort>(this, view.lake, Count); } }
        /// <summary>Metres of sediment; empty on v6 planets.</summary>
        public ViewSpan<float> Sediment { get { return new ViewSpan<float>(this, view.sediment, Count); } }
        /// <summary>mm/yr; empty on v6 planets.</summary>
        public ViewSpan<float> Precipitation { get { return new ViewSpan<float>(this, view.precipitation, Count); } }

        /// <summary>Lets go of the tile; reads after this throw. Twice is fine.</summary>
        public void Dispose() { Close(handle.Dispose); }
    }

    /// <summary>Which collision chunk: cube face (0 on flat worlds) and chunk (x, z).</summary>
    public readonly struct ChunkKey : IEquatable<ChunkKey>
    {
        public readonly int Face, X, Z;
        public ChunkKey(int face, int x, int z) { Face = face; X = x; Z = z; }
        public bool Equals(ChunkKey o) { return Face == o.Face && X == o.X && Z == o.Z; }
        public override bool Equals(object o) { return o is ChunkKey && Equals((ChunkKey)o); }
        public override int GetHashCode() { return (Face * 73856093) ^ (X * 19349663) ^ (Z * 83492791); }
        public override string ToString() { return string.Format("chunk ({0}, {1}) face {2}", X, Z, Face); }
    }

    /// <summary>One built collision chunk's heights (Samples², X fastest, NaN in holes) and its
    /// frame, zero-copy: the chunk is held (relief_chunk) until Dispose, even if it is dropped
    /// meanwhile. Sample (i, j) lies at Origin + (CornerX + i·Spacing)·AxisX + height·Up +
    /// (CornerZ + j·Spacing)·AxisZ: on a flat world the axes are the world's and Origin is 0;
    /// on a planet they are the chunk's tangent frame.</summary>
    public sealed class ChunkView : ViewOwner, IDisposable
    {
        readonly ChunkHandle handle;
        readonly relief_chunk_view view;

        ChunkView(ChunkHandle handle, relief_chunk_view view) { this.handle = handle; this.view = view; }

        /// <summary>Holds chunk <paramref name="key"/> of <paramref name="runtime"/>; null if
        /// not built.</summary>
        internal static ChunkView Acquire(RuntimeHandle runtime, ChunkKey key)
        {
            ChunkHandle h;
            uint status = NativeMethods.relief_runtime_acquire_chunk(runtime, (uint)key.Face, key.X, key.Z, out h);
            if (!Held(status, h))
                return null;
            var v = new relief_chunk_view();
            v.struct_size = (uint)Marshal.SizeOf(typeof(relief_chunk_view));
            CheckView(NativeMethods.relief_chunk_get_view(h, ref v), h);
            return new ChunkView(h, v);
        }

        public ChunkKey Key { get { return new ChunkKey((int)view.face, view.x, view.z); } }
        /// <summary>Samples along a side (cells + 1).</summary>
        public int Samples { get { return (int)view.samples; } }
        /// <summary>Lowest and highest non-hole height (both 0 if every sample is a hole).</summary>
        public float MinHeight { get { return view.min_height; } }
        public float MaxHeight { get { return view.max_height; } }
        /// <summary>Metres between samples.</summary>
        public double Spacing { get { return view.spacing; } }
        /// <summary>The chunk's centre and first sample in its frame (x, z), metres.</summary>
        public double CentreX { get { return view.centre_x; } }
        public double CentreZ { get { return view.centre_z; } }
        public double CornerX { get { return view.corner_x; } }
        public double CornerZ { get { return view.corner_z; } }
        public unsafe Double3 Origin { get { relief_chunk_view v = view; return Double3.From(v.origin); } }
        public unsafe Double3 AxisX { get { relief_chunk_view v = view; return Double3.From(v.axis_x); } }
        public unsafe Double3 Up { get { relief_chunk_view v = view; return Double3.From(v.up); } }
        public unsafe Double3 AxisZ { get { relief_chunk_view v = view; return Double3.From(v.axis_z); } }

        public ViewSpan<float> Heights { get { return new ViewSpan<float>(this, view.heights, (int)(view.samples * view.samples)); } }
        /// <summary>(Samples − 1)² bytes, one per cell, cell (i, j) at j·(Samples − 1) + i: what
        /// the ground is made of there, for a physics material or a footstep sound. On a flat
        /// world the Terrain3D texture slot (0–31) that shows most at sample (i, j); on a planet
        /// the ground class at the cell's centre (Planet.BiomeName names it). Unity's
        /// MeshCollider takes one physics material, so the package's colliders carry none per
        /// cell: at a raycast's hit point ask TerrainQueries.Ground (or PlanetQueries.Sample
        /// with PlanetField.Biome), which answers for the sample nearest the hit.</summary>
        public ViewSpan<byte> Materials { get { return new ViewSpan<byte>(this, view.materials, (int)((view.samples - 1) * (view.samples - 1))); } }

        /// <summary>Lets go of the chunk; reads after this throw. Twice is fine.</summary>
        public void Dispose() { Close(handle.Dispose); }
    }
}
