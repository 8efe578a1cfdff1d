using System;

namespace Relief
{
    /// <summary>What the far-ground shader does to a vertex of <see cref="FarRings"/>' mesh,
    /// line for line on the CPU (Components/Shaders/ReliefFarGround.hlsl is the GPU side): the
    /// uniforms it is given (<see cref="Window"/>) and the height it lifts a vertex to
    /// (<see cref="Lift"/>). Tests hold the mesh to it: every vertex where two rings meet lands
    /// exactly where the coarser ring's vertex lands, so the ground has no cracks.
    ///
    /// <para>Three steps, each as in the shader:</para>
    /// <list type="number">
    /// <item><b>Morph.</b> Toward its outer edge a ring's odd vertices slide onto the coarser
    /// ring's lattice (two quads apart); on the edge itself they sit on it, so the T-junctions
    /// where a ring of quads meets the ring of quads twice their size close up.</item>
    /// <item><b>Level.</b> The finest level whose window holds the point with two cells to
    /// spare (the bilinear footprint and the normal's neighbours).</item>
    /// <item><b>Height.</b> Bilinear between the four texels around the point, fetched by
    /// index (<c>Texture2D.Load</c>) and blended by hand: levels are 32-bit float textures,
    /// which GLES3, WebGL 2 and many mobile GPUs cannot filter, but every GPU can fetch.</item>
    /// </list></summary>
    public sealed class FarLift
    {
        /// <summary>Levels the shader reads (its eight textures).</summary>
        public const int MaxLevels = 8;
        /// <summary>From this share of a ring's half-width out, its odd vertices start to slide.</summary>
        public const float MorphFrom = 0.75f;
        /// <summary>Over this share they slide all the way (so from 95 % out they sit on the
        /// coarser lattice).</summary>
        public const float MorphOver = 0.2f;

        readonly int levelCount;
        readonly float ringQuad, ringHalf;
        readonly float[][] levels = new float[MaxLevels][];
        readonly float[] windows = new float[4 * MaxLevels], phases = new float[2 * MaxLevels];

        /// <summary>A lift for <paramref name="levelCount"/> levels of
        /// <paramref name="levelSize"/> cells, level 0's cells <paramref name="baseSpacing"/>
        /// metres: the mesh <see cref="FarRings.Build"/> makes for the same three.</summary>
        public FarLift(int levelCount, int levelSize, double baseSpacing)
        {
            if (levelCount < 1 || levelCount > MaxLevels)
                throw new ArgumentOutOfRangeException("levelCount", levelCount, "1 … 8 levels");
            this.levelCount = levelCount;
            ringQuad = RingQuad(baseSpacing);
            ringHalf = RingHalf(levelSize);
        }

        /// <summary>The shader's <c>_RingQuad</c>: ring 0's quad, metres (two level-0 cells).
        /// Ring k's is this float times 2^k, and its vertices this times their index, in
        /// floats (<see cref="FarRings.Build"/>), so a morphed vertex and the coarser ring's
        /// land on the same float.</summary>
        public static float RingQuad(double baseSpacing) { return (float)(baseSpacing * 2.0); }

        /// <summary>The shader's <c>_RingHalf</c>: quads from the mesh's centre to any ring's
        /// outer edge.</summary>
        public static float RingHalf(int levelSize) { return FarRings.QuadsPerSide(levelSize) / 2; }

        /// <summary>Level <paramref name="level"/>'s uniforms once the mesh sits at plane point
        /// (<paramref name="gridX"/>, <paramref name="gridZ"/>): <paramref name="window"/> gets
        /// the window's corner relative to the mesh (x, z), metres per cell and cells a side
        /// (<c>_LevelWindows[k]</c>); <paramref name="phase"/> gets the texel holding the
        /// window's first cell (<c>_LevelPhases[k].xy</c>). Reduced in doubles, so what the GPU
        /// gets stays small and floats keep centimetres anywhere in the world.</summary>
        public static void Window(LevelInfo level, double gridX, double gridZ, Span<float> window, Span<float> phase)
        {
            window[0] = (float)(level.OriginI * level.Spacing - gridX);
            window[1] = (float)(level.OriginJ * level.Spacing - gridZ);
            window[2] = (float)level.Spacing;
            window[3] = level.Size;
            phase[0] = Wrap(level.OriginI, level.Size);
            phase[1] = Wrap(level.OriginJ, level.Size);
        }

        static float Wrap(long origin, int size) { return ((origin % size) + size) % size; }

        /// <summary>Gives level <paramref name="k"/> its texture (size² floats, relief's
        /// storage as it is) and its uniforms, as the shader gets them.</summary>
        public void SetLevel(int k, float[] heights, LevelInfo level, double gridX, double gridZ)
        {
            if (k < 0 || k >= levelCount)
                throw new ArgumentOutOfRangeException("k", k, "a level below " + levelCount);
            if (heights == null || heights.Length != level.Size * level.Size)
                throw new ArgumentException("level " + k + " holds " + level.Size + "² heights", "heights");
            levels[k] = heights;
            Window(level, gridX, gridZ, new Span<float>(windows, 4 * k, 4), new Span<float>(phases, 2 * k, 2));
        }

        /// <summary>Where the shader puts mesh vertex (<paramref name="x"/>,
        /// <paramref name="ring"/>, <paramref name="z"/>): the plane point after the morph
        /// (<paramref name="qx"/>, <paramref name="qz"/>, relative to the mesh) and the height
        /// there. The final position is a function of these three alone.</summary>
        public float Lift(float x, float ring, float z, out float qx, out float qz, bool morph = true)
        {
            qx = x;
            qz = z;
            if (morph)
                Morph(ring, ref qx, ref qz);
            return Height(qx, qz, LevelAt(qx, qz));
        }

        // reliefMorph in the shader.
        void Morph(float ring, ref float x, ref float z)
        {
            if (ring >= levelCount - 1)
                return; // the outermost ring meets nothing coarser
            float quad = ringQuad * (1 << (int)ring);
            float d = Math.Max(Math.Abs(x), Math.Abs(z)) / (quad * ringHalf);
            float m = Saturate((d - MorphFrom) / MorphOver);
            float nx = (float)Math.Round(x / quad), nz = (float)Math.Round(z / quad);
            x = (nx - Odd(nx) * m) * quad;
            z = (nz - Odd(nz) * m) * quad;
        }

        static float Odd(float n) { return n - 2f * (float)Math.Floor(n * 0.5f); }

        static float Saturate(float v) { return v < 0f ? 0f : v > 1f ? 1f : v; }

        // reliefLevelAt in the shader.
        int LevelAt(float x, float z)
        {
            for (int k = 0; k < levelCount; k++)
            {
                float cx = windows[4 * k], cz = windows[4 * k + 1], s = windows[4 * k + 2], n = windows[4 * k + 3];
                float lo = 2f * s, hi = s * (n - 2f);
                if (x - cx >= lo && z - cz >= lo && x - cx < hi && z - cz < hi)
                    return k;
            }
            return levelCount - 1;
        }

        // reliefHeight in the shader: texel i's centre is half a cell into cell i.
        float Height(float x, float z, int k)
        {
            float s = windows[4 * k + 2];
            int size = (int)windows[4 * k + 3];
            float tx = (x - windows[4 * k]) / s - 0.5f + phases[2 * k];
            float tz = (z - windows[4 * k + 1]) / s - 0.5f + phases[2 * k + 1];
            float fx0 = (float)Math.Floor(tx), fz0 = (float)Math.Floor(tz);
            float fx = tx - fx0, fz = tz - fz0;
            int i0 = (((int)fx0 % size) + size) % size, j0 = (((int)fz0 % size) + size) % size;
            int i1 = (i0 + 1) % size, j1 = (j0 + 1) % size;
            float[] t = levels[k];
            if (t == null)
                throw new InvalidOperationException("level " + k + " has no heights yet");
            float a = t[j0 * size + i0], b = t[j0 * size + i1], c = t[j1 * size + i0], d = t[j1 * size + i1];
            return Lerp(Lerp(a, b, fx), Lerp(c, d, fx), fz);
        }

        static float Lerp(float a, float b, float t) { return a + (b - a) * t; }
    }
}
