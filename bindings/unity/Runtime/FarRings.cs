using System;

namespace Relief
{
    /// <summary>The far-ground mesh, engine-free: one ring of quads per level, each ring's
    /// quads twice the size of the ring inside it, level 0 a full square. A shader lifts each
    /// vertex to the height of the finest level whose window holds it (the levels' textures,
    /// <see cref="FarLevels"/>). The mesh follows the camera in steps of its coarsest quad
    /// (<see cref="Snap"/>), so vertices stay on the same cells and the ground doesn't swim.</summary>
    public static class FarRings
    {
        /// <summary>Quads along a level's side: each level's quads are two of its cells wide,
        /// so a ring covers half the level's window.</summary>
        public static int QuadsPerSide(int levelSize) { return levelSize / 2; }

        /// <summary>Quads the mesh holds for <paramref name="levels"/> levels of
        /// <paramref name="levelSize"/> cells.</summary>
        public static int QuadCount(int levels, int levelSize)
        {
            int side = QuadsPerSide(levelSize), half = side / 2;
            return side * side + (levels - 1) * (side * side - half * half);
        }

        /// <summary>Fills <paramref name="vertices"/> (x, ring, z per vertex: y carries the
        /// ring's level for the shader's morph, <see cref="FarLift"/>; 4 per quad, 12 floats) and <paramref name="indices"/> (6 per quad, clockwise from above: Unity's
        /// front face) with the rings, in metres around the mesh's origin. Returns the quads
        /// written.</summary>
        public static int Build(int levels, int levelSize, double baseSpacing, float[] vertices, int[] indices)
        {
            if (levels < 1 || levels > 8)
                throw new ArgumentOutOfRangeException("levels", levels, "1 … 8 levels");
            if (levelSize < 8 || (levelSize & (levelSize - 1)) != 0)
                throw new ArgumentOutOfRangeException("levelSize", levelSize, "a power of two, at least 8");
            int count = QuadCount(levels, levelSize);
            if (vertices == null || vertices.Length < 12 * count)
                throw new ArgumentException("vertices must hold " + 12 * count + " floats", "vertices");
            if (indices == null || indices.Length < 6 * count)
                throw new ArgumentException("indices must hold " + 6 * count + " ints", "indices");
            int side = QuadsPerSide(levelSize), half = side / 2, quarter = half / 2, q = 0;
            for (int k = 0; k < levels; k++)
            {
                // In floats, as the shader's morph computes (FarLift.RingQuad).
                float quad = FarLift.RingQuad(baseSpacing) * (1 << k);
                for (int j = -half; j < half; j++)
                    for (int i = -half; i < half; i++)
                    {
                        // Inside the ring: the finer level's square (half as wide) covers it.
                        bool inner = i >= -quarter && i < quarter && j >= -quarter && j < quarter;
                        if (k > 0 && inner)
                            continue;
                        Quad(vertices, indices, q++, i, j, quad, k);
                    }
            }
            return q;
        }

        /// <summary>Quad (i, j) of a ring of <paramref name="side"/>-metre quads: each corner
        /// its lattice index times the side, one float product.</summary>
        static void Quad(float[] v, int[] idx, int q, int i, int j, float side, int ring)
        {
            int b = 4 * q;
            Put(v, b, i * side, j * side, ring);
            Put(v, b + 1, (i + 1) * side, j * side, ring);
            Put(v, b + 2, (i + 1) * side, (j + 1) * side, ring);
            Put(v, b + 3, i * side, (j + 1) * side, ring);
            // a (x, z), b (x+1, z), c (x+1, z+1), d (x, z+1): a d c and a c b run clockwise
            // seen from above (+Y) in Unity's left-handed frame.
            int t = 6 * q;
            idx[t] = b; idx[t + 1] = b + 3; idx[t + 2] = b + 2;
            idx[t + 3] = b; idx[t + 4] = b + 2; idx[t + 5] = b + 1;
        }

        static void Put(float[] v, int vertex, float x, float z, int ring)
        {
            v[3 * vertex] = x;
            v[3 * vertex + 1] = ring;
            v[3 * vertex + 2] = z;
        }

        /// <summary>The mesh's step: its coarsest quad.</summary>
        public static double Step(int levels, double baseSpacing) { return baseSpacing * (1 << (levels - 1)) * 2.0; }

        /// <summary><paramref name="value"/> (a camera coordinate) snapped to the nearest
        /// multiple of <paramref name="step"/>: where the mesh's origin goes.</summary>
        public static double Snap(double value, double step) { return Math.Round(value / step) * step; }
    }
}
