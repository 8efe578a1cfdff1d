// A region as a Unity Terrain tile's data (TerrainTiles), engine-free: heights [y, x] of 2^k+1
// with the neighbours' edges (RegionEdges), normalized to the world's range; the hole mask (true = ground);
// the tile's placement. Each expectation is worked out here from the sample's own position.
using System;
using NUnit.Framework;
using Relief;

namespace Relief.Tests
{
    [TestFixture]
    public class TerrainTileTests
    {
        const int N = 32;

        /// <summary>A region whose every height says where it is: 1000·region + 10·y + x/10.</summary>
        static float[] Region(int rx, int rz)
        {
            var h = new float[N * N];
            for (int y = 0; y < N; y++)
                for (int x = 0; x < N; x++)
                    h[y * N + x] = 1000f * (rx + 3 * rz) + 10f * y + x / 10f;
            return h;
        }

        static float Metres(float share, float min, float max) { return min + share * (max - min); }

        static RegionEdges Edges(float[] region)
        {
            var e = new RegionEdges(N);
            e.Fill(region);
            return e;
        }

        [Test]
        public void TheTileIsTheRegionPlusItsNeighboursFirstColumnAndRow()
        {
            float min = -500f, max = 4500f;
            var heights = new float[N + 1, N + 1];
            TerrainTiles.Heights(Region(0, 0), Edges(Region(0, 0)), Edges(Region(1, 0)), Edges(Region(0, 1)), Edges(Region(1, 1)), min, max, heights);
            for (int y = 0; y <= N; y++)
                for (int x = 0; x <= N; x++)
                {
                    // Sample (x, y) of the tile is sample (x mod N, y mod N) of region (x / N, y / N).
                    int rx = x / N, rz = y / N;
                    float want = Region(rx, rz)[(y % N) * N + x % N];
                    Assert.AreEqual(want, Metres(heights[y, x], min, max), 1e-3, "[{0}, {1}]", y, x);
                }
        }

        [Test]
        public void MissingNeighboursRepeatTheEdgeUntilTheyArrive()
        {
            float min = 0f, max = 5000f;
            var own = Region(0, 0);
            var heights = new float[N + 1, N + 1];
            TerrainTiles.Heights(own, Edges(own), null, null, null, min, max, heights);
            for (int i = 0; i < N; i++)
            {
                Assert.AreEqual(heights[i, N - 1], heights[i, N], "column {0} repeats", i);
                Assert.AreEqual(heights[N - 1, i], heights[N, i], "row {0} repeats", i);
            }
            Assert.AreEqual(heights[N - 1, N - 1], heights[N, N]);
            // The +X neighbour arrives: its column 0 replaces the repeat; the corner falls back
            // to its first sample of the last row.
            var column = new float[N + 1, 1];
            var east = Region(1, 0);
            TerrainTiles.EastColumn(Edges(own), Edges(east), null, null, min, max, column);
            for (int y = 0; y < N; y++)
                Assert.AreEqual(east[y * N], Metres(column[y, 0], min, max), 1e-3);
            Assert.AreEqual(east[(N - 1) * N], Metres(column[N, 0], min, max), 1e-3);
            var row = new float[1, N + 1];
            var north = Region(0, 1);
            TerrainTiles.NorthRow(Edges(own), Edges(east), Edges(north), null, min, max, row);
            for (int x = 0; x < N; x++)
                Assert.AreEqual(north[x], Metres(row[0, x], min, max), 1e-3);
            Assert.AreEqual(north[N - 1], Metres(row[0, N], min, max), 1e-3, "corner from the +Z neighbour");
        }

        [Test]
        public void HeightsAreClampedSharesAndHolesAreMaskedNotNaN()
        {
            Assert.AreEqual(0f, TerrainTiles.Normalize(-10f, 0f, 100f));
            Assert.AreEqual(1f, TerrainTiles.Normalize(110f, 0f, 100f));
            Assert.AreEqual(0.25f, TerrainTiles.Normalize(25f, 0f, 100f));
            Assert.AreEqual(0f, TerrainTiles.Normalize(float.NaN, 0f, 100f));
            Assert.AreEqual(0f, TerrainTiles.Normalize(5f, 5f, 5f), "a flat world");
            var h = Region(0, 0);
            h[3 * N + 4] = float.NaN;
            var control = new uint[N * N];
            control[7 * N + 1] = 1u | 4u;
            var surface = new bool[N, N];
            TerrainTiles.Holes(h, control, N, surface);
            for (int y = 0; y < N; y++)
                for (int x = 0; x < N; x++)
                    Assert.AreEqual(!((y == 3 && x == 4) || (y == 7 && x == 1)), surface[y, x], "[{0}, {1}]", y, x);
            var heights = new float[N + 1, N + 1];
            TerrainTiles.Heights(h, Edges(h), null, null, null, 0f, 5000f, heights);
            Assert.AreEqual(0f, heights[3, 4]);
        }

        [Test]
        public void PlacementAndSizesAreChecked()
        {
            Assert.AreEqual(513, TerrainTiles.Resolution(512));
            Assert.Throws<ArgumentOutOfRangeException>(delegate { TerrainTiles.Resolution(500); });
            Assert.Throws<ArgumentOutOfRangeException>(delegate { TerrainTiles.Resolution(8192); });
            Assert.Throws<ArgumentException>(delegate { TerrainTiles.Heights(new float[10], new RegionEdges(N), null, null, null, 0, 1, new float[N + 1, N + 1]); });
            Assert.Throws<ArgumentException>(delegate { TerrainTiles.Heights(Region(0, 0), Edges(Region(0, 0)), null, null, null, 0, 1, new float[N, N]);
            });
            Assert.Throws<ArgumentException>(delegate { TerrainTiles.EastColumn(new RegionEdges(N), new RegionEdges(2 * N), null, null, 0, 1, new float[N + 1, 1]); });
            Assert.Throws<ArgumentException>(delegate { new RegionEdges(N).Fill(new float[N]); });
            double x, y, z, sx, sy, sz;
            TerrainTiles.Placement(-2, 3, 512, 2.0, -40f, 960f, out x, out y, out z, out sx, out sy, out sz);
            Assert.AreEqual(new[] { -2048.0, -40.0, 3072.0, 1024.0, 1000.0, 1024.0 }, new[] { x, y, z, sx, sy, sz });
        }
    }
}
