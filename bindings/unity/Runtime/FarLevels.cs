using System;

namespace Relief
{
    /// <summary>Far-ground levels (clipmap levels, or a planet's LOD rings) as Unity textures,
    /// engine-free: which levels an update changed, and what a shader needs to read a level's
    /// toroidal storage. Unity uploads a texture's mip level whole (<c>SetPixelData</c>, then
    /// <c>Apply(false)</c>; there is no sub-rectangle upload), so a level any dirty rectangle
    /// touches is uploaded as it is stored — <c>size²</c> RFloat texels, no reordering — and
    /// an untouched level costs nothing.</summary>
    public static class FarLevels
    {
        /// <summary>Marks in <paramref name="dirty"/> (one flag per level) each level a
        /// non-empty rectangle of <paramref name="rects"/> touches; returns how many are marked.
        /// Flags already set stay set, so a frame's rectangles can be gathered in batches.
        /// Rectangles naming a level past the span are ignored.</summary>
        public static int DirtyLevels(ReadOnlySpan<DirtyRect> rects, Span<bool> dirty)
        {
            foreach (var r in rects)
                if (r.Level >= 0 && r.Level < dirty.Length && r.Width > 0 && r.Depth > 0)
                    dirty[r.Level] = true;
            int n = 0;
            foreach (bool d in dirty)
                if (d) n++;
            return n;
        }

        /// <summary>What a shader needs to read level texels by plane position: texel (u, v)
        /// of the stored texture holds world cell (i, j) with u = i mod size, v = j mod size
        /// (non-negative), and the window holds cells <c>origin .. origin + size</c>. Returns
        /// (origin_i · spacing, origin_j · spacing, spacing, size) — the window's corner in
        /// plane metres, metres per cell and cells per side — for a <c>Vector4</c> uniform.
        /// The corner is returned in doubles; subtract a floating origin before narrowing.</summary>
        public static void Window(LevelInfo level, Span<double> window)
        {
            window[0] = level.OriginI * level.Spacing;
            window[1] = level.OriginJ * level.Spacing;
            window[2] = level.Spacing;
            window[3] = level.Size;
        }

        /// <summary>The stored texel holding world cell (<paramref name="i"/>,
        /// <paramref name="j"/>) of a level of <paramref name="size"/> cells a side: what the
        /// shader computes from the window, here for tests and CPU readers.</summary>
        public static int Texel(long i, long j, uint size)
        {
            long s = size;
            long u = ((i % s) + s) % s, v = ((j % s) + s) % s;
            return (int)(v * s + u);
        }
    }
}
