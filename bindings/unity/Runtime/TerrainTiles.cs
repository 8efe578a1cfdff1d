using System;

namespace Relief
{
    /// <summary>A flat world's region as the data of a Unity <c>Terrain</c> tile, computed
    /// without the engine (so it is tested under Mono and can run on a worker thread). Unity
    /// wants a heightmap of 2^k + 1 samples a side (33 … 4097), indexed <c>[y, x]</c> with y
    /// along world +Z, each 0…1 of <c>TerrainData.size.y</c>; a hole mask of the region's own
    /// size, true where there is ground. A region of n samples becomes a tile of n + 1: its
    /// last row and column are the +Z and +X neighbours' first, so adjacent tiles meet without a
    /// seam.</summary>
    public static class TerrainTiles
    {
        /// <summary>The heightmap resolution for regions of <paramref name="regionSize"/>
        /// samples: one more (513 for 512). Unity takes 33 … 4097, so regions of 32 … 4096.</summary>
        public static int Resolution(int regionSize)
        {
            if (regionSize < 32 || regionSize > 4096 || (regionSize & (regionSize - 1)) != 0)
                throw new ArgumentOutOfRangeException(nameof(regionSize), regionSize, "Unity terrains take regions of 32 … 4096 samples, a power of two");
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

        /// <summary>Fills <paramref name="heights"/> (<c>[y, x]</c>, Resolution² of
        /// <paramref name="size"/>) for a region's <paramref name="region"/> heights (size²,
        /// row-major, X fastest), normalized to the world's [<paramref name="min"/>,
        /// <paramref name="max"/>]. Column <c>size</c> is the +X neighbour's column 0
        /// (<paramref name="east"/>), row <c>size</c> the +Z neighbour's row 0
        /// (<paramref name="north"/>), the corner <see cref="Corner"/>. A neighbour not
        /// resident is an empty span: its edge repeats the region's own last column or row
        /// until <see cref="EastColumn"/> and <see cref="NorthRow"/> fill it in.</summary>
        public static void Heights(ReadOnlySpan<float> region, int size, ReadOnlySpan<float> east,
            ReadOnlySpan<float> north, ReadOnlySpan<float> northEast, float min, float max, float[,] heights)
        {
            int res = Resolution(size);
            Check(region, size, nameof(region));
            if (heights == null || heights.GetLength(0) != res || heights.GetLength(1) != res)
                throw new ArgumentException($"heights must be [{res}, {res}]", nameof(heights));
            for (int y = 0; y < size; y++)
                for (int x = 0; x < size; x++)
                    heights[y, x] = Normalize(region[y * size + x], min, max);
            var column = new float[res, 1];
            EastColumn(region, size, east, north, northEast, min, max, column);
            for (int y = 0; y < res; y++)
                heights[y, size] = column[y, 0];
            var row = new float[1, res];
            NorthRow(region, size, east, north, northEast, min, max, row);
            for (int x = 0; x < size; x++)
                heights[size, x] = row[0, x];
        }

        /// <summary>The tile's column <c>size</c> (<c>[y, 0]</c>, Resolution rows), for
        /// <c>SetHeightsDelayLOD(size, 0, column)</c> when the +X neighbour arrives: the
        /// neighbour's column 0, then the corner (<see cref="Corner"/>).</summary>
        public static void EastColumn(ReadOnlySpan<float> region, int size, ReadOnlySpan<float> east,
            ReadOnlySpan<float> north, ReadOnlySpan<float> northEast, float min, float max, float[,] column)
        {
            int res = Resolution(size);
            CheckAll(region, size, east, north, northEast);
            if (column == null || column.GetLength(0) != res || column.GetLength(1) != 1)
                throw new ArgumentException($"column must be [{res}, 1]", nameof(column));
            for (int y = 0; y < size; y++)
                column[y, 0] = Normalize(east.IsEmpty ? region[y * size + size - 1] : east[y * size], min, max);
            column[size, 0] = Normalize(Corner(region, size, east, north, northEast), min, max);
        }

        /// <summary>The tile's row <c>size</c> (<c>[0, x]</c>, Resolution columns), for
        /// <c>SetHeightsDelayLOD(0, size, row)</c> when the +Z neighbour arrives: the
        /// neighbour's row 0, then the corner (<see cref="Corner"/>).</summary>
        public static void NorthRow(ReadOnlySpan<float> region, int size, ReadOnlySpan<float> east,
            ReadOnlySpan<float> north, ReadOnlySpan<float> northEast, float min, float max, float[,] row)
        {
            int res = Resolution(size);
            CheckAll(region, size, east, north, northEast);
            if (row == null || row.GetLength(0) != 1 || row.GetLength(1) != res)
                throw new ArgumentException($"row must be [1, {res}]", nameof(row));
            for (int x = 0; x < size; x++)
                row[0, x] = Normalize(north.IsEmpty ? region[(size - 1) * size + x] : north[x], min, max);
            row[0, size] = Normalize(Corner(region, size, east, north, northEast), min, max);
        }

        /// <summary>The tile's far corner: the +X+Z neighbour's first sample; without it the
        /// nearest sample a resident neighbour has (the +Z neighbour's last of row 0, the +X
        /// neighbour's first of its last row), else the region's own last.</summary>
        public static float Corner(ReadOnlySpan<float> region, int size, ReadOnlySpan<float> east,
            ReadOnlySpan<float> north, ReadOnlySpan<float> northEast)
        {
            return !northEast.IsEmpty ? northEast[0]
                : !north.IsEmpty ? north[size - 1]
                : !east.IsEmpty ? east[(size - 1) * size]
                : region[size * size - 1];
        }

        /// <summary>Fills Unity's hole mask (<c>[y, x]</c>, size²; <b>true = ground</b>) from a
        /// region's heights and control words: a hole where the control word's hole bit (bit
        /// 2) is set or the height is NaN. <paramref name="control"/> may be empty.</summary>
        public static void Holes(ReadOnlySpan<float> region, ReadOnlySpan<uint> control, int size, bool[,] surface)
        {
            Check(region, size, nameof(region));
            if (!control.IsEmpty && control.Length != size * size)
                throw new ArgumentException($"control must hold {size}² words", nameof(control));
            if (surface == null || surface.GetLength(0) != size || surface.GetLength(1) != size)
                throw new ArgumentException($"surface must be [{size}, {size}]", nameof(surface));
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

        static void CheckAll(ReadOnlySpan<float> region, int size, ReadOnlySpan<float> east,
            ReadOnlySpan<float> north, ReadOnlySpan<float> northEast)
        {
            Check(region, size, nameof(region));
            if (!east.IsEmpty) Check(east, size, nameof(east));
            if (!north.IsEmpty) Check(north, size, nameof(north));
            if (!northEast.IsEmpty) Check(northEast, size, nameof(northEast));
        }

        static void Check(ReadOnlySpan<float> map, int size, string name)
        {
            if (map.Length != size * size)
                throw new ArgumentException($"{name} must hold {size}² heights, not {map.Length}", name);
        }
    }
}
