using System;

namespace Relief
{
    /// <summary>A flat world's region as the splat (alphamap) of a Unity <c>Terrain</c> tile,
    /// computed without the engine so it runs on a worker thread and is tested under Mono.
    ///
    /// <para>Which layer a sample shows comes from the world's own data, first found of:</para>
    /// <list type="bullet">
    /// <item>its <b>Terrain3D control word</b>: the base texture weighted 1 − blend/255, the
    /// overlay texture blend/255. A word with the autoshader bit set (Terrain3D's blank, 0x1)
    /// shows layer 0 on gentle ground and layer 1 on steep ground, blended between 30° and
    /// 45° of slope;</item>
    /// <item>its <b>biome</b> id;</item>
    /// <item>else layer 0.</item>
    /// </list>
    /// <para>A texture or biome id past the layers wraps (<see cref="LayerOf"/>). Baked worlds
    /// paint slots 0 grass … 9 moss (docs/formats.md), the order of the package's default
    /// layers.</para>
    ///
    /// <para>The result is what Unity keeps for a terrain's splat: one RGBA32 control texture
    /// per four layers (layer <c>4·t + c</c> in texture t, channel c), <see cref="Resolution"/>
    /// texels a side, row y along world +Z, X fastest. Texel i lies at i / (res − 1) of the
    /// tile's extent, as Unity places alphamap texels, and shows the region's sample nearest
    /// there (<see cref="SampleOf"/>); a texel's weights over all layers add up to exactly
    /// 255.</para></summary>
    public static class GroundSplat
    {
        /// <summary>Layers one control texture holds (R, G, B, A).</summary>
        public const int LayersPerTexture = 4;
        /// <summary>The largest splat made: Unity takes up to 4096, but a 4096-texel splat of
        /// ten layers is 200 MB of textures per tile.</summary>
        public const int MaxResolution = 2048;
        /// <summary>The most layers a splat takes (Terrain3D's 5-bit texture ids).</summary>
        public const int MaxLayers = 32;

        /// <summary>The alphamap resolution for regions of <paramref name="regionSize"/>
        /// samples: as many texels as samples, at most 2048 (a 4096 region shows every other
        /// sample).</summary>
        public static int Resolution(int regionSize)
        {
            TerrainTiles.Resolution(regionSize); // the same sizes a tile takes
            return Math.Min(regionSize, MaxResolution);
        }

        /// <summary>Control textures for <paramref name="layers"/> layers.</summary>
        public static int Textures(int layers)
        {
            CheckLayers(layers);
            return (layers + LayersPerTexture - 1) / LayersPerTexture;
        }

        /// <summary>The layer a texture or biome id shows: the id itself, wrapped.</summary>
        public static int LayerOf(int id, int layers)
        {
            CheckLayers(layers);
            return ((id % layers) + layers) % layers;
        }

        /// <summary>How much of the overlay a Terrain3D autoshader sample shows at
        /// <paramref name="slope"/> (rise over run): 0 up to 30°, 1 from 45°, smooth between.</summary>
        public static float AutoBlend(float slope)
        {
            if (!(slope > 0f))
                return 0f; // flat, or NaN beside a hole
            const float lo = 0.57735027f, hi = 1f; // tan 30°, tan 45°
            float t = (slope - lo) / (hi - lo);
            t = t < 0f ? 0f : t > 1f ? 1f : t;
            return t * t * (3f - 2f * t);
        }

        /// <summary>Fills <paramref name="textures"/> (<see cref="Textures"/> arrays of
        /// Resolution² · 4 bytes each) from a region's heights (size², X fastest), control words
        /// and biomes (each size² or empty), for <paramref name="layers"/> layers.
        /// <paramref name="spacing"/> is metres between samples (for the autoshader's slope).</summary>
        public static void Fill(ReadOnlySpan<float> heights, ReadOnlySpan<uint> control, ReadOnlySpan<byte> biome,
            int size, double spacing, int layers, byte[][] textures)
        {
            int res = Resolution(size), count = Textures(layers), n = size * size;
            if (heights.Length != n)
                throw new ArgumentException("heights must hold " + size + "² values, not " + heights.Length, "heights");
            if (!control.IsEmpty && control.Length != n)
                throw new ArgumentException("control must hold " + size + "² words or none", "control");
            if (!biome.IsEmpty && biome.Length != n)
                throw new ArgumentException("biome must hold " + size + "² ids or none", "biome");
            if (!(spacing > 0))
                throw new ArgumentOutOfRangeException("spacing", spacing, "metres between samples, more than 0");
            if (textures == null || textures.Length != count)
                throw new ArgumentException("textures must hold " + count + " arrays for " + layers + " layers", "textures");
            foreach (byte[] t in textures)
                if (t == null || t.Length != res * res * LayersPerTexture)
                    throw new ArgumentException("each texture must hold " + res + "² · 4 bytes", "textures");

            var weight = new float[layers]; // once per region, on a worker
            for (int ty = 0; ty < res; ty++)
            {
                int sy = Nearest(ty, size, res);
                for (int tx = 0; tx < res; tx++)
                {
                    Array.Clear(weight, 0, layers);
                    Add(heights, control, biome, size, spacing, Nearest(tx, size, res), sy, layers, weight);
                    Store(weight, textures, (ty * res + tx) * LayersPerTexture);
                }
            }
        }

        /// <summary>The control textures as Unity's <c>TerrainData.SetAlphamaps</c> takes
        /// them: <paramref name="alphamap"/> is <c>[y, x, layer]</c> (Resolution, Resolution,
        /// <paramref name="layers"/>), each weight the texture's byte / 255, so a texel's weights
        /// add up to 1.</summary>
        public static void Alphamap(byte[][] textures, int layers, float[,,] alphamap)
        {
            if (textures == null || textures.Length != Textures(layers) || textures[0] == null)
                throw new ArgumentException("textures must hold " + Textures(layers) + " arrays for " + layers + " layers", "textures");
            int res = (int)Math.Round(Math.Sqrt(textures[0].Length / LayersPerTexture));
            if (alphamap == null || alphamap.GetLength(0) != res || alphamap.GetLength(1) != res || alphamap.GetLength(2) != layers)
                throw new ArgumentException("alphamap must be [" + res + ", " + res + ", " + layers + "]", "alphamap");
            const float unit = 1f / 255f;
            for (int l = 0; l < layers; l++)
            {
                byte[] t = textures[l / LayersPerTexture];
                if (t == null || t.Length != res * res * LayersPerTexture)
                    throw new ArgumentException("each texture must hold " + res + "² · 4 bytes", "textures");
                int c = l % LayersPerTexture;
                for (int y = 0; y < res; y++)
                    for (int x = 0; x < res; x++)
                        alphamap[y, x, l] = t[(y * res + x) * LayersPerTexture + c] * unit;
            }
        }

        /// <summary>The region sample texel <paramref name="texel"/> shows along an axis.
        /// Unity puts alphamap texel i at i / (res − 1) of the tile's extent (its first and
        /// last texels on the tile's edges, as its heights), so the texel shows the sample
        /// nearest there; the last, on the +X or +Z neighbour's first sample, repeats the
        /// region's own last.</summary>
        public static int SampleOf(int texel, int regionSize)
        {
            int res = Resolution(regionSize);
            if (texel < 0 || texel >= res)
                throw new ArgumentOutOfRangeException("texel", texel, "0 … " + (res - 1));
            return Nearest(texel, regionSize, res);
        }

        /// <summary><see cref="SampleOf"/> for arguments already checked (Fill's loop).</summary>
        static int Nearest(int texel, int regionSize, int res)
        {
            int s = (int)Math.Round((double)texel * regionSize / (res - 1));
            return Math.Min(s, regionSize - 1);
        }

        /// <summary>Adds sample (x, y)'s layer weights.</summary>
        static void Add(ReadOnlySpan<float> heights, ReadOnlySpan<uint> control, ReadOnlySpan<byte> biome,
            int size, double spacing, int x, int y, int layers, float[] weight)
        {
            int k = y * size + x;
            if (!control.IsEmpty)
            {
                uint word = control[k];
                int baseId, overlayId;
                float blend;
                if ((word & 1u) != 0)
                {
                    baseId = 0;
                    overlayId = 1;
                    blend = AutoBlend(Slope(heights, size, spacing, x, y));
                }
                else
                {
                    baseId = (int)(word >> 27 & 0x1f);
                    overlayId = (int)(word >> 22 & 0x1f);
                    blend = (word >> 14 & 0xff) / 255f;
                }
                weight[LayerOf(baseId, layers)] += 1f - blend;
                weight[LayerOf(overlayId, layers)] += blend;
            }
            else
                weight[biome.IsEmpty ? 0 : LayerOf(biome[k], layers)] = 1f;
        }

        /// <summary>Rise over run at (x, y): central differences, one-sided at the region's edge.</summary>
        static float Slope(ReadOnlySpan<float> h, int size, double spacing, int x, int y)
        {
            int x0 = Math.Max(x - 1, 0), x1 = Math.Min(x + 1, size - 1);
            int y0 = Math.Max(y - 1, 0), y1 = Math.Min(y + 1, size - 1);
            double dx = (h[y * size + x1] - h[y * size + x0]) / ((x1 - x0) * spacing);
            double dz = (h[y1 * size + x] - h[y0 * size + x]) / ((y1 - y0) * spacing);
            return (float)Math.Sqrt(dx * dx + dz * dz);
        }

        /// <summary>Writes one texel's weights (summing to 1) as bytes summing to exactly 255:
        /// each rounded down, the shortfall to the heaviest layer.</summary>
        static void Store(float[] weight, byte[][] textures, int at)
        {
            int total = 0, heaviest = 0;
            for (int l = 0; l < textures.Length * LayersPerTexture; l++)
            {
                int b = 0;
                if (l < weight.Length)
                {
                    float w = weight[l];
                    b = w <= 0f ? 0 : w >= 1f ? 255 : (int)(w * 255f);
                    if (w > weight[heaviest])
                        heaviest = l;
                }
                textures[l / LayersPerTexture][at + l % LayersPerTexture] = (byte)b;
                total += b;
            }
            byte[] t = textures[heaviest / LayersPerTexture];
            int c = at + heaviest % LayersPerTexture;
            t[c] = (byte)(t[c] + 255 - total);
        }

        static void CheckLayers(int layers)
        {
            if (layers < 1 || layers > MaxLayers)
                throw new ArgumentOutOfRangeException("layers", layers, "1 … " + MaxLayers + " layers");
        }
    }
}
