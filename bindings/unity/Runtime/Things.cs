// Placed things (trees, rocks, grass) as relief streams them: a chunk held and read in place
// in the layouts engines take (ThingsView), the kinds a world has (ThingKind), and the things
// near a point (ThingHit). Engine-free: Components/ draws them.
using System;
using System.Runtime.InteropServices;
using Relief.Native;

namespace Relief
{
    /// <summary>A chunk of placed things: its band, then its square on that band's grid (face
    /// 0 on flat worlds).</summary>
    public readonly struct ThingKey : IEquatable<ThingKey>
    {
        public readonly ThingBand Band;
        public readonly int Face, X, Z;
        public ThingKey(ThingBand band, int face, int x, int z) { Band = band; Face = face; X = x; Z = z; }
        public bool Equals(ThingKey o) { return Band == o.Band && Face == o.Face && X == o.X && Z == o.Z; }
        public override bool Equals(object o) { return o is ThingKey && Equals((ThingKey)o); }
        public override int GetHashCode() { return ((int)Band * 2654435) ^ (Face * 73856093) ^ (X * 19349663) ^ (Z * 83492791); }
        public override string ToString() { return string.Format("{0} things ({1}, {2}) face {3}", Band, X, Z, Face); }
    }

    /// <summary>The things of one kind in a chunk: Count of them from index Start.</summary>
    public readonly struct ThingRun
    {
        public readonly int Kind, Start, Count;
        internal ThingRun(relief_thing_run c) { Kind = (int)c.kind; Start = (int)c.start; Count = (int)c.count; }
    }

    /// <summary>One thing's collision shape, sized by its scale: Dims as <see cref="ThingShape"/>
    /// says; Transform a 3 × 4 row-major matrix (rotation and the shape's centre, no scale) in
    /// the chunk's frame.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct ThingCollider
    {
        /// <summary>The thing's index in its chunk.</summary>
        public uint Thing;
        public ThingShape Shape;
        public float Dim0, Dim1, Dim2;
        public float M00, M01, M02, M03, M10, M11, M12, M13, M20, M21, M22, M23;
    }

    /// <summary>A held chunk of placed things, read in place until Dispose (even if the chunk is
    /// dropped meanwhile). Thing i's data is at index i of each span; runs group them by kind.
    /// Rows are Godot's MultiMesh layout (12 floats a thing), Matrices Unity's Matrix4x4
    /// (16 floats a thing, column-major): <c>Graphics.RenderMeshInstanced</c> takes a run's
    /// matrices as they are. Positions and transforms are relative to Origin (0 on a flat
    /// world).</summary>
    public sealed class ThingsView : ViewOwner, IDisposable
    {
        readonly ThingsHandle handle;
        readonly relief_things_view view;

        ThingsView(ThingsHandle handle, relief_things_view view) { this.handle = handle; this.view = view; }

        /// <summary>Holds chunk <paramref name="key"/>; null if it is not placed.</summary>
        internal static ThingsView Acquire(RuntimeHandle runtime, ThingKey key)
        {
            ThingsHandle h;
            uint status = NativeMethods.relief_runtime_acquire_things(runtime, (uint)key.Band, (uint)key.Face, key.X, key.Z, out h);
            if (!Held(status, h))
                return null;
            var v = new relief_things_view();
            v.struct_size = (uint)Marshal.SizeOf(typeof(relief_things_view));
            CheckView(NativeMethods.relief_things_get_view(h, ref v), h);
            return new ThingsView(h, v);
        }

        public ThingKey Key { get { return new ThingKey((ThingBand)view.band, (int)view.face, view.x, view.z); } }
        public int Count { get { return (int)view.count; } }
        public unsafe Double3 Origin { get { relief_things_view v = view; return Double3.From(v.origin); } }
        /// <summary>The runs, one per kind present, in kind order.</summary>
        public unsafe ThingRun[] Runs
        {
            get
            {
                var runs = new ThingRun[view.run_count];
                Enter();
                try
                {
                    var p = (relief_thing_run*)view.runs;
                    for (int i = 0; i < runs.Length; ++i)
                        runs[i] = new ThingRun(p[i]);
                }
                finally { Exit(); }
                return runs;
            }
        }
        public ViewSpan<ulong> Ids { get { return new ViewSpan<ulong>(this, view.ids, Count); } }
        /// <summary>3 floats a thing: where it stands, on the ground.</summary>
        public ViewSpan<float> Positions { get { return new ViewSpan<float>(this, view.positions, Count * 3); } }
        public ViewSpan<float> Scales { get { return new ViewSpan<float>(this, view.scales, Count); } }
        /// <summary>12 floats a thing: Godot's MultiMesh buffer.</summary>
        public ViewSpan<float> Rows { get { return new ViewSpan<float>(this, view.rows, Count * 12); } }
        /// <summary>16 floats a thing: Unity's Matrix4x4, column-major.</summary>
        public ViewSpan<float> Matrices { get { return new ViewSpan<float>(this, view.matrices, Count * 16); } }
        /// <summary>Shapes of the things whose kind has one, in thing order.</summary>
        public ViewSpan<ThingCollider> Colliders { get { return new ViewSpan<ThingCollider>(this, view.colliders, (int)view.collider_count); } }

        /// <summary>The address of <see cref="Matrices"/>' first float, for an engine that
        /// draws from relief's memory in place (Unity:
        /// <c>NativeArrayUnsafeUtility.ConvertExistingDataToNativeArray&lt;Matrix4x4&gt;((void*)address, Count, Allocator.None)</c>,
        /// as Relief.Unity's ReliefThings does). The memory stays valid, and unchanged, until
        /// this view is disposed; unlike a <see cref="ViewSpan{T}"/> nothing checks a read
        /// through it, so stop every use of it (a NativeArray over it included) before
        /// Dispose. Zero for a chunk without things. Throws ObjectDisposedException once
        /// disposed.</summary>
        public IntPtr MatricesAddress
        {
            get
            {
                if (!IsLive)
                    throw new ObjectDisposedException(GetType().Name, "the view was disposed: its memory went back to relief");
                return Count == 0 ? IntPtr.Zero : view.matrices;
            }
        }

        /// <summary>Lets go of the chunk; reads after this throw. Twice is fine.</summary>
        public void Dispose() { Close(handle.Dispose); }
    }

    /// <summary>A kind of thing from the world's things.json: map its Name to a mesh or
    /// prefab.</summary>
    public readonly struct ThingKind
    {
        public readonly int Index;
        public readonly string Name;
        public readonly ThingBand Band;
        public readonly float Footprint, Spacing;
        public readonly ThingShape Shape;
        public readonly float Dim0, Dim1, Dim2, ShapeCentre;
        public readonly bool AlignToSlope;

        internal unsafe ThingKind(int index, relief_thing_kind c)
        {
            Index = index;
            Name = ReliefException.Utf8(c.name);
            Band = (ThingBand)c.band;
            Footprint = c.footprint_m;
            Spacing = c.spacing_m;
            Shape = (ThingShape)c.shape;
            Dim0 = c.shape_dims[0];
            Dim1 = c.shape_dims[1];
            Dim2 = c.shape_dims[2];
            ShapeCentre = c.shape_centre_m;
            AlignToSlope = c.align_to_slope != 0;
        }
    }

    /// <summary>A thing near a point (<see cref="Runtime.ThingsWithin"/>).</summary>
    public readonly struct ThingHit
    {
        public readonly ulong Id;
        public readonly int Kind;
        /// <summary>Its chunk, and its index there.</summary>
        public readonly ThingKey Chunk;
        public readonly int Index;
        /// <summary>Where it stands (world metres), and how far from the point (planar on a flat world, along the sea-level sphere on a planet).</summary>
        public readonly Double3 Position;
        public readonly double Distance;

        internal unsafe ThingHit(relief_thing_hit c)
        {
            Id = c.id;
            Kind = (int)c.kind;
            Chunk = new ThingKey((ThingBand)c.band, (int)c.face, c.x, c.z);
            Index = (int)c.index;
            Position = Double3.From(c.position);
            Distance = c.distance;
        }
    }
}
