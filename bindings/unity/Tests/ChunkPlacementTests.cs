// Collision as the Unity package places it, over whole walks, against relief's own height
// queries: every vertex ChunkMeshes.Build makes for every chunk that became ready, turned and
// moved by ChunkMeshes.Placement as ChunkColliders does, lies on the ground the queries
// describe — on a flat world to a millimetre, on a planet (its own tangent frames) within a
// centimetre — and every cell's material is the ground query's texture there. Engine-free: no
// UnityEngine type is touched.
using System;
using System.Collections.Generic;
using NUnit.Framework;
using Relief;

namespace Relief.Tests
{
    [TestFixture]
    public class ChunkPlacementTests
    {
        /// <summary>Settles at each stop and hands every chunk whose ChunkReady came to
        /// <paramref name="each"/>, held (one dropped since its event is skipped, as the
        /// header allows).</summary>
        static int Walk(Runtime rt, IEnumerable<Double3> stops, Action<ChunkView> each)
        {
            var events = new StreamEvent[256];
            int chunks = 0;
            foreach (Double3 s in stops)
            {
                Assert.IsTrue(rt.Settle(s.X, s.Y, s.Z, 60000), "settled at {0}", s);
                int n;
                do
                {
                    n = rt.PollEvents(events);
                    for (int i = 0; i < n; i++)
                    {
                        if (events[i].Kind != EventKind.ChunkReady) continue;
                        using (ChunkView c = rt.AcquireChunk(new ChunkKey(events[i].Face, events[i].X, events[i].Z)))
                        {
                            if (c == null) continue;
                            each(c);
                            chunks++;
                        }
                    }
                } while (n == events.Length);
            }
            return chunks;
        }

        /// <summary>Every vertex of the chunk's collider where Unity puts it: the GameObject at
        /// Placement's position and rotation, the mesh's vertices in its local space. NaN for a
        /// hole's vertex (no triangle uses it).</summary>
        static List<double[]> ColliderVertices(ChunkView c)
        {
            int n = c.Samples;
            var vertices = new float[3 * ChunkMeshes.VertexCount(n)];
            var indices = new int[ChunkMeshes.MaxIndexCount(n)];
            float[] heights = c.Heights.ToArray();
            ChunkMeshes.Build(heights, n, c.Spacing, c.CornerX, c.CornerZ, c.CentreX, c.CentreZ, vertices, indices);
            Double3 o = c.Origin, ax = c.AxisX, up = c.Up, az = c.AxisZ;
            var position = new double[3];
            var rotation = new double[4];
            ChunkMeshes.Placement(new[] { o.X, o.Y, o.Z }, new[] { ax.X, ax.Y, ax.Z }, new[] { up.X, up.Y, up.Z },
                new[] { az.X, az.Y, az.Z }, c.CentreX, c.CentreZ, position, rotation);
            var world = new List<double[]>(n * n);
            var turned = new double[3];
            for (int k = 0; k < n * n; k++)
            {
                if (float.IsNaN(heights[k])) { world.Add(null); continue; }
                ChunkMeshes.Rotate(rotation, new double[] { vertices[3 * k], vertices[3 * k + 1], vertices[3 * k + 2] }, turned);
                world.Add(new[] { position[0] + turned[0], position[1] + turned[1], position[2] + turned[2] });
            }
            return world;
        }

        [Test]
        public void EveryFlatColliderVertexOfAWalkIsOnTheQueriedGround()
        {
            using (World world = World.Open(Fixtures.World))
            using (var rt = new Runtime(world))
            using (var terrain = new TerrainQueries(rt))
            {
                WorldInfo info = world.Info;
                double e = info.RegionExtent;
                double x0 = info.RegionMinX * e, z0 = info.RegionMinZ * e;
                double x1 = (info.RegionMaxX + 1) * e, z1 = (info.RegionMaxZ + 1) * e;
                var stops = new List<Double3>();
                // Corner to corner, then along both far edges.
                for (int k = 0; k <= 8; k++)
                    stops.Add(new Double3(x0 + (x1 - x0) * k / 8, 0, z0 + (z1 - z0) * k / 8));
                for (int k = 0; k <= 4; k++)
                {
                    stops.Add(new Double3(x1, 0, z1 - (z1 - z0) * k / 4));
                    stops.Add(new Double3(x1 - (x1 - x0) * k / 4, 0, z1));
                }
                int vertices = 0, cells = 0;
                double worst = 0;
                int chunks = Walk(rt, stops, c =>
                {
                    foreach (double[] p in ColliderVertices(c))
                    {
                        if (p == null) continue;
                        HeightOrigin origin;
                        float h = terrain.Height(p[0], p[2], out origin);
                        if (origin != HeightOrigin.Region) continue;
                        worst = Math.Max(worst, Math.Abs(p[1] - h));
                        vertices++;
                    }
                    // Each cell's material: the texture that shows most at its first sample.
                    int m = c.Samples - 1;
                    byte[] materials = c.Materials.ToArray();
                    Assert.AreEqual(m * m, materials.Length);
                    for (int j = 0; j < m; j++)
                        for (int i = 0; i < m; i++)
                        {
                            Ground g = terrain.Ground(c.CornerX + i * c.Spacing, c.CornerZ + j * c.Spacing);
                            if (!g.Found) continue;
                            int shown = g.Blend >= 128 ? g.OverlayTexture : g.BaseTexture;
                            Assert.AreEqual(shown, materials[j * m + i], "cell ({0}, {1}) of {2}", i, j, c.Key);
                            cells++;
                        }
                });
                Assert.Greater(cells, 100000);
                Console.WriteLine("{0} chunks, {1} vertices: worst {2} m", chunks, vertices, worst);
                Assert.Greater(chunks, 200);
                Assert.Greater(vertices, 100000);
                Assert.LessOrEqual(worst, 1e-3);
            }
        }

        [Test]
        public void EveryPlanetColliderVertexOfAFlightIsOnTheQueriedGround()
        {
            using (Planet planet = Planet.Open(Fixtures.Planet))
            {
                PlanetInfo info = planet.Info;
                RuntimeConfig config = RuntimeConfig.Default();
                config.LoadRadius = 3000;
                config.DropRadius = 4000;
                config.CollisionLoadRadius = 1500;
                config.CollisionDropRadius = 2000;
                // 8 samples a chunk: several near each stop, each a tangent frame of its own.
                config.ChunkSize = 8 * info.Spacing;
                using (var rt = new Runtime(planet, config))
                using (var queries = new PlanetQueries(rt))
                {
                    // Over a face edge to the (1, 1, 1) cube corner.
                    var from = new Double3(0.2, 0.3, 1).Normalized;
                    var to = new Double3(1, 1, 1).Normalized;
                    var stops = new List<Double3>();
                    for (int k = 0; k <= 10; k++)
                        stops.Add((from * (1 - k / 10.0) + to * (k / 10.0)).Normalized * info.Radius);
                    int vertices = 0;
                    double worst = 0;
                    int chunks = Walk(rt, stops, c =>
                    {
                        foreach (double[] p in ColliderVertices(c))
                        {
                            if (p == null) continue;
                            var at = new Double3(p[0], p[1], p[2]);
                            HeightOrigin origin;
                            float h = queries.Height(at, out origin);
                            if (origin != HeightOrigin.Region) continue;
                            worst = Math.Max(worst, Math.Abs(at.Length - info.Radius - h));
                            vertices++;
                        }
                    });
                    Console.WriteLine("{0} chunks, {1} vertices: worst {2} m", chunks, vertices, worst);
                    Assert.Greater(chunks, 20);
                    Assert.Greater(vertices, 1000);
                    Assert.LessOrEqual(worst, 0.01);
                }
            }
        }
    }
}
