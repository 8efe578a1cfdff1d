// A chunk of placed things as an engine draws and collides it, worked out without the engine:
// its runs cut into instanced draws with the box each covers (for culling), and each collider
// as a position, a rotation and a size. Done once per chunk when it is shown; the draws
// themselves read the chunk's matrices in place.
using System;

namespace Relief
{
    /// <summary>One instanced draw of a chunk: <see cref="Count"/> things of kind
    /// <see cref="Kind"/> from index <see cref="Start"/>, standing within the box
    /// <see cref="MinX"/>…<see cref="MaxZ"/> (metres, relative to the chunk's
    /// <see cref="ThingsView.Origin"/>), none scaled more than <see cref="MaxScale"/>. A
    /// mesh reaching <c>r</c> metres from its origin draws within the box grown by
    /// <c>r · MaxScale</c> on every side.</summary>
    public readonly struct ThingBatch
    {
        public readonly int Kind, Start, Count;
        public readonly float MinX, MinY, MinZ, MaxX, MaxY, MaxZ, MaxScale;

        public ThingBatch(int kind, int start, int count, float minX, float minY, float minZ, float maxX, float maxY, float maxZ, float maxScale)
        {
            Kind = kind; Start = start; Count = count;
            MinX = minX; MinY = minY; MinZ = minZ; MaxX = maxX; MaxY = maxY; MaxZ = maxZ; MaxScale = maxScale;
        }
    }

    /// <summary>Where one thing's collider goes: <see cref="Position"/> (the shape's centre,
    /// metres relative to the chunk's <see cref="ThingsView.Origin"/>) and
    /// <see cref="Rotation"/> (a Unity Quaternion's x, y, z, w taking the collider's X, Y, Z to
    /// the thing's axes), sized by the thing's scale already: a capsule's
    /// <see cref="Radius"/> and total <see cref="Height"/> along its Y, a sphere's
    /// <see cref="Radius"/>, a box's half extents <see cref="HalfX"/>, <see cref="HalfY"/>,
    /// <see cref="HalfZ"/> (its size is twice those).</summary>
    public readonly struct ThingShapePlacement
    {
        /// <summary>The thing's index in its chunk.</summary>
        public readonly int Thing;
        public readonly ThingShape Shape;
        public readonly Double3 Position;
        public readonly Rotation Rotation;
        public readonly float Radius, Height, HalfX, HalfY, HalfZ;

        public ThingShapePlacement(int thing, ThingShape shape, Double3 position, Rotation rotation, float radius, float height, float halfX, float halfY, float halfZ)
        {
            Thing = thing; Shape = shape; Position = position; Rotation = rotation;
            Radius = radius; Height = height; HalfX = halfX; HalfY = halfY; HalfZ = halfZ;
        }
    }

    /// <summary>The engine-free half of drawing and colliding a <see cref="ThingsView"/>.</summary>
    public static class ThingLayout
    {
        /// <summary>The most instances one draw takes here: Graphics.DrawMeshInstanced's
        /// documented limit (1023, which its C# checks against a native value).
        /// Graphics.RenderMeshInstanced checks no count in C# (UnityCsReference 2021.3,
        /// Runtime/Export/Graphics/Graphics.cs) and its page names no limit, so ReliefThings
        /// cuts its draws to this and rests on no platform's own splitting.</summary>
        public const int MaxInstancesPerDraw = 1023;

        // Scratch for reading a chunk's arrays once, per thread (the main thread in practice).
        [ThreadStatic] static float[] positions, scales;
        [ThreadStatic] static ThingCollider[] colliders;

        /// <summary>The chunk's runs as draws of at most <paramref name="maxPerDraw"/> things
        /// each, in run order, each with its box.</summary>
        public static ThingBatch[] Batches(ThingsView view, int maxPerDraw = MaxInstancesPerDraw)
        {
            if (view == null) throw new ArgumentNullException("view");
            if (maxPerDraw < 1) throw new ArgumentOutOfRangeException("maxPerDraw", maxPerDraw, "at least one thing a draw");
            int n = view.Count;
            ThingRun[] runs = view.Runs;
            int count = 0;
            foreach (ThingRun r in runs)
                count += (r.Count + maxPerDraw - 1) / maxPerDraw;
            var batches = new ThingBatch[count];
            if (n == 0)
                return batches;
            float[] p = Grow(ref positions, 3 * n), s = Grow(ref scales, n);
            view.Positions.CopyTo(p);
            view.Scales.CopyTo(s);
            int b = 0;
            foreach (ThingRun r in runs)
                for (int start = r.Start; start < r.Start + r.Count; start += maxPerDraw)
                {
                    int end = Math.Min(start + maxPerDraw, r.Start + r.Count);
                    float x0 = float.PositiveInfinity, y0 = x0, z0 = x0, x1 = float.NegativeInfinity, y1 = x1, z1 = x1, scale = 0f;
                    for (int i = start; i < end; i++)
                    {
                        float x = p[3 * i], y = p[3 * i + 1], z = p[3 * i + 2];
                        if (x < x0) x0 = x;
                        if (x > x1) x1 = x;
                        if (y < y0) y0 = y;
                        if (y > y1) y1 = y;
                        if (z < z0) z0 = z;
                        if (z > z1) z1 = z;
                        if (s[i] > scale) scale = s[i];
                    }
                    batches[b++] = new ThingBatch(r.Kind, start, end - start, x0, y0, z0, x1, y1, z1, scale);
                }
            return batches;
        }

        /// <summary>Every collider of the chunk placed, in the view's order.</summary>
        public static ThingShapePlacement[] Shapes(ThingsView view)
        {
            if (view == null) throw new ArgumentNullException("view");
            ViewSpan<ThingCollider> span = view.Colliders;
            int n = span.Length;
            var shapes = new ThingShapePlacement[n];
            if (n == 0)
                return shapes;
            if (colliders == null || colliders.Length < n)
                colliders = new ThingCollider[Math.Max(n, 2 * (colliders != null ? colliders.Length : 0))];
            span.CopyTo(colliders);
            for (int i = 0; i < n; i++)
                shapes[i] = Place(colliders[i]);
            return shapes;
        }

        /// <summary>One collider placed: its 3 × 4 transform's last column is the position, its
        /// rotation columns the thing's axes (<see cref="ChunkMeshes.Placement"/>'s
        /// quaternion), its dims the size.</summary>
        public static ThingShapePlacement Place(ThingCollider c)
        {
            // (No stackalloc initializers: C# 7.3, past what Unity and Mono both take here.)
            Span<double> origin = stackalloc double[3];
            Span<double> axisX = stackalloc double[3];
            Span<double> up = stackalloc double[3];
            Span<double> axisZ = stackalloc double[3];
            origin[0] = c.M03; origin[1] = c.M13; origin[2] = c.M23;
            axisX[0] = c.M00; axisX[1] = c.M10; axisX[2] = c.M20;
            up[0] = c.M01; up[1] = c.M11; up[2] = c.M21;
            axisZ[0] = c.M02; axisZ[1] = c.M12; axisZ[2] = c.M22;
            Span<double> position = stackalloc double[3];
            Span<double> q = stackalloc double[4];
            ChunkMeshes.Placement(origin, axisX, up, axisZ, 0, 0, position, q);
            var at = new Double3(position[0], position[1], position[2]);
            var rotation = new Rotation(q[0], q[1], q[2], q[3]);
            switch (c.Shape)
            {
                case ThingShape.Capsule:
                    return new ThingShapePlacement((int)c.Thing, c.Shape, at, rotation, c.Dim0, c.Dim1, 0, 0, 0);
                case ThingShape.Sphere:
                    return new ThingShapePlacement((int)c.Thing, c.Shape, at, rotation, c.Dim0, 0, 0, 0, 0);
                case ThingShape.Box:
                    return new ThingShapePlacement((int)c.Thing, c.Shape, at, rotation, 0, 0, c.Dim0, c.Dim1, c.Dim2);
                default:
                    return new ThingShapePlacement((int)c.Thing, ThingShape.None, at, rotation, 0, 0, 0, 0, 0);
            }
        }

        static float[] Grow(ref float[] a, int n)
        {
            if (a == null || a.Length < n)
                a = new float[Math.Max(n, 2 * (a != null ? a.Length : 0))];
            return a;
        }
    }
}
