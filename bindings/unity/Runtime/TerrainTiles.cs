using System;

namespace Relief
{
    /// <summary>The four edges of a region's heights: what its neighbours' Unity tiles need of
    /// it, and what its own tile falls back on while a neighbour is missing. Kept per resident
    /// region instead of the whole map (4 · size floats, not size²).</summary>
    public sealed class RegionEdges
    {
        /// <summary>Samples along a side.</summary>
        public readonly int Size;
        /// <summary>Column x = 0, by z (what the −X neighbour's tile needs).</summary>
        public readonly float[] West;
        /// <summary>Row z = 0, by x (what the −Z neighbour's tile needs).</summary>
        public readonly float[] South;
        /// <summary>Column x = size − 1, by z.</summary>
        public readonly float[] East;
        /// <summary>Row z = size − 1, by x.</summary>
        public readonly float[] North;

        public RegionEdges(int size)
        {
            if (size < 2) throw new ArgumentOutOfRangeException("size", size, "a region has at least 2 samples a side");
            Size = size;
            West = new float[size];
            South = new float[size];
            East = new float[size];
            North = new float[size];
        }

        /// <summary>Takes the edges of <paramref name="region"/> (Size², X fastest).</summary>
        public void Fill(ReadOnlySpan<float> region)
        {
            int n = Size;
            if (region.Length != n * n)
                throw new ArgumentException("region must hold " + n + "² heights, not " + region.Length, "region");
            for (int k = 0; k < n; k++)
            {
                West[k] = region[k * n];
                East[k] = region[k * n + n - 1];
                South[k] = region[k];
                North[k] = region[(n - 1) * n + k];
            }
        }
    }

    /// <summary>A flat world's region as the data of a Unity <c>Terrain</c> tile, computed
    /// without the engine (so it is tested under Mono and runs on a worker thread). Unity
    /// wants a heightmap of 2^k + 1 samples a side (33 … 4097), indexed <c>[y, x]</c> with y
    /// along world +Z, each 0…1 of <c>TerrainData.size.y</c>; and a hole mask of the region's
    /// own size, true where there is ground. A region of n samples becomes a tile of n + 1: its
    /// last column is the +X neighbour's first, its last row the +Z neighbour's first, so
    /// adjacent tiles meet without a seam. A neighbour not resident is null: the edge repeats the
    /// region's own last column or row until <see cref="EastColumn"/> and
    /// <see cref="NorthRow"/> fill it in.</summary>
    public static class TerrainTiles
    {
        /// <summary>The heightmap resolution for regions of <paramref name="regionSize"/>
        /// samples: one more (513 for 512). Unity takes 33 … 4097, so regions of 32 … 4096.</summary>
        public static int Resolution(int regionSize)
        {
            if (regionSize < 32 || regionSize > 4096 || (regionSize & (regionSize - 1)) != 0)
                throw new ArgumentOutOfRangeException("regionSize", regionSize, "Unity terrains take regions of 32 … 4096 samples, a power of two");
            return regionSize + 1;
        }

        /// <summary><paramref name="h"/> metres as a 0…1 share of [<paramref name="min"/>,
        /// <paramref name="max"/>], clamped; a hole (NaN) is 0 (the mask hides it).</summary>
        public static float Normalize(float h, float min, float max)
        {
            if (float.IsNaN(h) || !(max > min))
                return 0f;
            float t = (h - min) / (max - min);
            return t < 0f ? 0f : t > 1f ? 1f : t;
        }

        /// <summary>Fills <paramref name="heights"/> (<c>[y, x]</c>, Resolution²) from a
        /// region's heights (size², X fastest) and its edges <paramref name="own"/>, with the
        /// +X (<paramref name="east"/>), +Z (<paramref name="north"/>) and +X+Z
        /// (<paramref name="northEast"/>) neighbours' edges where resident (else null),
        /// normalized to the world's [<paramref name="min"/>, <paramref name="max"/>].</summary>
        public static void Heights(ReadOnlySpan<float> region, RegionEdges own, RegionEdges east,
            RegionEdges north, RegionEdges northEast, float min, float max, float[,] heights)
        {
            int size = own.Size, res = Resolution(size);
            if (region.Length != size * size)
                throw new ArgumentException("region must hold " + size + "² heights, not " + region.Length, "region");
            if (heights == null || heights.GetLength(0) != res || heights.GetLength(1) != res)
                throw new ArgumentException("heights must be [" + res + ", " + res + "]", "heights");
            for (int y = 0; y < size; y++)
                for (int x = 0; x < size; x++)
                    heights[y, x] = Normalize(region[y * size + x], min, max);
            CheckAll(own, east, north, northEast);
            for (int y = 0; y < size; y++)
                heights[y, size] = Normalize(east != null ? east.West[y] : own.East[y], min, max);
            for (int x = 0; x < size; x++)
                heights[size, x] = Normalize(north != null ? north.South[x] : own.North[x], min, max);
            heights[size, size] = Normalize(Corner(own, east, north, northEast), min, max);
        }

        /// <summary>The tile's column <c>size</c> (<c>[y, 0]</c>, Resolution rows), for
        /// <c>SetHeightsDelayLOD(size, 0, column)</c> when the +X neighbour arrives: its column
        /// 0, then the corner (<see cref="Corner"/>).</summary>
        public static void EastColumn(RegionEdges own, RegionEdges east, RegionEdges north,
            RegionEdges northEast, float min, float max, float[,] column)
        {
            int size = own.Size, res = Resolution(size);
            CheckAll(own, east, north, northEast);
            if (column == null || column.GetLength(0) != res || column.GetLength(1) != 1)
                throw new ArgumentException("column must be [" + res + ", 1]", "column");
            for (int y = 0; y < size; y++)
                column[y, 0] = Normalize(east != null ? east.West[y] : own.East[y], min, max);
            column[size, 0] = Normalize(Corner(own, east, north, northEast), min, max);
        }

        /// <summary>The tile's row <c>size</c> (<c>[0, x]</c>, Resolution columns), for
        /// <c>SetHeightsDelayLOD(0, size, row)</c> when the +Z neighbour arrives: its row 0,
        /// then the corner (<see cref="Corner"/>).</summary>
        public static void NorthRow(RegionEdges own, RegionEdges east, RegionEdges north,
            RegionEdges northEast, float min, float max, float[,] row)
        {
            int size = own.Size, res = Resolution(size);
            CheckAll(own, east, north, northEast);
            if (row == null || row.GetLength(0) != 1 || row.GetLength(1) != res)
                throw new ArgumentException("row must be [1, " + res + "]", "row");
            for (int x = 0; x < size; x++)
                row[0, x] = Normalize(north != null ? north.South[x] : own.North[x], min, max);
            row[0, size] = Normalize(Corner(own, east, north, northEast), min, max);
        }

        /// <summary>The tile's far corner, metres: the +X+Z neighbour's first sample; without
        /// it the nearest sample a resident neighbour has (the +Z neighbour's last of row 0,
        /// the +X neighbour's first of its last row), else the region's own last.</summary>
        public static float Corner(RegionEdges own, RegionEdges east, RegionEdges north, RegionEdges northEast)
        {
            int last = own.Size - 1;
            return northEast != null ? northEast.South[0]
                : north != null ? north.South[last]
                : east != null ? east.West[last]
                : own.North[last];
        }

        /// <summary>Fills Unity's hole mask (<c>[y, x]</c>, size²; <b>true = ground</b>) from a
        /// region's heights and control words: a hole where the control word's hole bit (bit
        /// 2) is set or the height is NaN. <paramref name="control"/> may be empty.</summary>
        public static void Holes(ReadOnlySpan<float> region, ReadOnlySpan<uint> control, int size, bool[,] surface)
        {
            if (region.Length != size * size)
                throw new ArgumentException("region must hold " + size + "² heights, not " + region.Length, "region");
            if (!control.IsEmpty && control.Length != size * size)
                throw new ArgumentException("control must hold " + size + "² words", "control");
            if (surface == null || surface.GetLength(0) != size || surface.GetLength(1) != size)
                throw new ArgumentException("surface must be [" + size + ", " + size + "]", "surface");
            for (int y = 0; y < size; y++)
                for (int x = 0; x < size; x++)
                {
                    int k = y * size + x;
                    bool hole = float.IsNaN(region[k]) || (!control.IsEmpty && (control[k] & 4u) != 0);
                    surface[y, x] = !hole;
                }
        }

        /// <summary>Where the tile of region (<paramref name="locX"/>, <paramref name="locZ"/>)
        /// goes: the Terrain's position (its corner, at the world's lowest height) and
        /// <c>TerrainData.size</c> (the region's extent, the height span, the extent).</summary>
        public static void Placement(int locX, int locZ, int size, double spacing, float min, float max,
            out double x, out double y, out double z, out double sizeX, out double sizeY, out double sizeZ)
        {
            double extent = size * spacing;
            x = locX * extent;
            z = locZ * extent;
            y = min;
            sizeX = sizeZ = extent;
            sizeY = max > min ? max - min : 1.0;
        }

        static void CheckAll(RegionEdges own, RegionEdges east, RegionEdges north, RegionEdges northEast)
        {
            if (own == null) throw new ArgumentNullException("own");
            SameSize(own, east);
            SameSize(own, north);
            SameSize(own, northEast);
        }

        static void SameSize(RegionEdges own, RegionEdges neighbour)
        {
            if (neighbour != null && neighbour.Size != own.Size)
                throw new ArgumentException("a neighbour's edges are " + neighbour.Size + " long, the region's " + own.Size);
        }
    }
}
