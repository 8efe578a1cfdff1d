using System;

namespace Relief
{
    /// <summary>The package's default ground layers, engine-free: one small tiling texture per
    /// texture slot a baked world paints (docs/formats.md: 0 grass, 1 dry grass, 2 forest floor,
    /// 3 dirt, 4 rock, 5 sand, 6 snow, 7 mud, 8 gravel, 9 moss), each its slot's colour with a
    /// little value noise so the ground reads as a surface, not paint. The Unity components turn
    /// them into TerrainLayers when the scene names none of its own.</summary>
    public static class GroundPalette
    {
        /// <summary>Slot names, in slot order.</summary>
        public static readonly string[] Names =
        {
            "grass", "dry grass", "forest floor", "dirt", "rock", "sand", "snow", "mud", "gravel", "moss",
        };

        // Linear-ish sRGB bytes per slot.
        static readonly byte[,] Colours =
        {
            { 84, 115, 51 }, { 153, 140, 82 }, { 64, 56, 38 }, { 107, 84, 61 }, { 115, 112, 107 },
            { 194, 178, 133 }, { 237, 240, 245 }, { 77, 64, 51 }, { 133, 128, 120 }, { 71, 92, 46 },
        };

        /// <summary>Texels a side of each texture: tiles seamlessly (the noise wraps).</summary>
        public const int Size = 64;

        /// <summary>Fills <paramref name="rgba"/> (Size² · 4 bytes, row by row, RGBA32) with
        /// slot <paramref name="slot"/>'s texture. The same slot always gives the same bytes.</summary>
        public static void Fill(int slot, byte[] rgba)
        {
            if (slot < 0 || slot >= Names.Length)
                throw new ArgumentOutOfRangeException("slot", slot, "0 … " + (Names.Length - 1));
            if (rgba == null || rgba.Length != Size * Size * 4)
                throw new ArgumentException("rgba must hold " + Size + "² · 4 bytes", "rgba");
            for (int y = 0; y < Size; y++)
                for (int x = 0; x < Size; x++)
                {
                    // Two octaves of wrapping value noise: ±12 % around the slot's colour.
                    float n = 0.65f * Noise(slot, x, y, 8) + 0.35f * Noise(slot + 17, x, y, 4);
                    float scale = 0.88f + 0.24f * n;
                    int at = (y * Size + x) * 4;
                    for (int c = 0; c < 3; c++)
                        rgba[at + c] = (byte)Math.Min(255f, Colours[slot, c] * scale);
                    rgba[at + 3] = 255;
                }
        }

        /// <summary>Value noise in 0…1 on a lattice of <paramref name="cell"/> texels that wraps
        /// at Size, so the texture tiles without a seam.</summary>
        static float Noise(int seed, int x, int y, int cell)
        {
            int cells = Size / cell;
            int i = x / cell, j = y / cell;
            float fx = (x % cell) / (float)cell, fy = (y % cell) / (float)cell;
            fx = fx * fx * (3f - 2f * fx);
            fy = fy * fy * (3f - 2f * fy);
            float a = Hash(seed, i % cells, j % cells), b = Hash(seed, (i + 1) % cells, j % cells);
            float c = Hash(seed, i % cells, (j + 1) % cells), d = Hash(seed, (i + 1) % cells, (j + 1) % cells);
            float top = a + (b - a) * fx, bottom = c + (d - c) * fx;
            return top + (bottom - top) * fy;
        }

        static float Hash(int seed, int i, int j)
        {
            uint h = (uint)(seed * 374761393 + i * 668265263 + j * 2147483647);
            h = (h ^ (h >> 13)) * 1274126177u;
            h ^= h >> 16;
            return (h & 0xffff) / 65535f;
        }
    }
}
