// A collision chunk as a Unity mesh (ChunkMeshes), engine-free: every vertex lands where
// relief's chunk contract puts its sample (flat and in tilted planet frames), triangles face
// up as Unity's clockwise winding has it, and holes leave their cells out.
using System;
using NUnit.Framework;
using Relief;

namespace Relief.Tests
{
    [TestFixture]
    public class ChunkMeshTests
    {
        static double[] Cross(double[] a, double[] b)
        {
            return new[] { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0] };
        }

        static double[] Unit(double[] v)
        {
            double l = Math.Sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            return new[] { v[0] / l, v[1] / l, v[2] / l };
        }

        [Test]
        public void TrianglesFaceUpAndHolesLeaveTheirCellsOut()
        {
            int n = 5;
            var h = new float[n * n];
            var rng = new Random(7);
            for (int k = 0; k < h.Length; k++) h[k] = (float)(rng.NextDouble() * 0.8);
            var v = new float[3 * n * n];
            var idx = new int[ChunkMeshes.MaxIndexCount(n)];
            int count = ChunkMeshes.Build(h, n, 1.0, 100, 200, 102, 202, v, idx);
            Assert.AreEqual(6 * (n - 1) * (n - 1), count);
            for (int t = 0; t < count; t += 3)
            {
                double[] p0 = { v[3 * idx[t]], v[3 * idx[t] + 1], v[3 * idx[t] + 2] };
                double[] p1 = { v[3 * idx[t + 1]], v[3 * idx[t + 1] + 1], v[3 * idx[t + 1] + 2] };
                double[] p2 = { v[3 * idx[t + 2]], v[3 * idx[t + 2] + 1], v[3 * idx[t + 2] + 2] };
                // Unity's face normal for (v0, v1, v2) is cross(v1 - v0, v2 - v0); clockwise seen
                // from above (in Unity's left-handed space) makes it point up.
                var normal = Cross(new[] { p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2] }, new[] { p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2] });
                Assert.Greater(normal[1], 0, "triangle {0}", t / 3);
            }
            // Vertex (i, j) at corner − centre + (i, j)·spacing, its height as Y.
            Assert.AreEqual(new[] { -2f, h[0], -2f }, new[] { v[0], v[1], v[2] });
            int k7 = 2 * n + 3;
            Assert.AreEqual(new[] { 1f, h[k7], 0f }, new[] { v[3 * k7], v[3 * k7 + 1], v[3 * k7 + 2] });
            // The first cell splits along (i+1, j)–(i, j+1), as HeightMapShape3D does.
            CollectionAssert.AreEquivalent(new[] { 0, n, 1 }, new[] { idx[0], idx[1], idx[2] });
            // A hole at (2, 2) removes the four cells around it.
            h[2 * n + 2] = float.NaN;
            count = ChunkMeshes.Build(h, n, 1.0, 100, 200, 102, 202, v, idx);
            Assert.AreEqual(6 * ((n - 1) * (n - 1) - 4), count);
            for (int t = 0; t < count; t++) Assert.AreNotEqual(2 * n + 2, idx[t]);
            Assert.AreEqual(0f, v[3 * (2 * n + 2) + 1]);
            Assert.Throws<ArgumentException>(delegate { ChunkMeshes.Build(h, n, 1, 0, 0, 0, 0, new float[3], idx); });
            Assert.Throws<ArgumentException>(delegate { ChunkMeshes.Build(new float[3], n, 1, 0, 0, 0, 0, v, idx); });
        }

        [Test]
        public void EveryVertexLandsWhereTheChunkSaysItsSampleLiesInAnyFrame()
        {
            var rng = new Random(11);
            for (int trial = 0; trial < 50; trial++)
            {
                // A planet chunk's frame: any unit up, axis_x perpendicular, axis_z = axis_x × up.
                var up = Unit(new[] { rng.NextDouble() - 0.5, rng.NextDouble() - 0.5, rng.NextDouble() - 0.5 });
                var axisX = Unit(Cross(up, new[] { rng.NextDouble() - 0.5, rng.NextDouble() - 0.5, rng.NextDouble() - 0.5 }));
                var axisZ = Cross(axisX, up);
                if (trial == 0) { up = new[] { 0.0, 1, 0 }; axisX = new[] { 1.0, 0, 0 }; axisZ = new[] { 0.0, 0, 1 }; }
                double[] origin = { rng.NextDouble() * 1e5, rng.NextDouble() * 1e5, rng.NextDouble() * 1e5 };
                int n = 4;
                double spacing = 19.5, cornerX = -29.25, cornerZ = 10.0, centreX = 0.0, centreZ = 39.25;
                var h = new float[n * n];
                for (int k = 0; k < h.Length; k++) h[k] = (float)(rng.NextDouble() * 300 - 100);
                var v = new float[3 * n * n];
                var idx = new int[ChunkMeshes.MaxIndexCount(n)];
                ChunkMeshes.Build(h, n, spacing, cornerX, cornerZ, centreX, centreZ, v, idx);
                var pos = new double[3];
                var q = new double[4];
                ChunkMeshes.Placement(origin, axisX, up, axisZ, centreX, centreZ, pos, q);
                var r = new double[3];
                ChunkMeshes.Rotate(q, new[] { 1.0, 0, 0 }, r);
                for (int c = 0; c < 3; c++) Assert.AreEqual(axisX[c], r[c], 1e-9);
                ChunkMeshes.Rotate(q, new[] { 0.0, 1, 0 }, r);
                for (int c = 0; c < 3; c++) Assert.AreEqual(up[c], r[c], 1e-9);
                for (int j = 0; j < n; j++)
                    for (int i = 0; i < n; i++)
                    {
                        int k = j * n + i;
                        ChunkMeshes.Rotate(q, new double[] { v[3 * k], v[3 * k + 1], v[3 * k + 2] }, r);
                        for (int c = 0; c < 3; c++)
                        {
                            double want = origin[c] + (cornerX + i * spacing) * axisX[c] + h[k] * up[c] + (cornerZ + j * spacing) * axisZ[c];
                            Assert.AreEqual(want, pos[c] + r[c], 1e-3, "trial {0} sample ({1}, {2})", trial, i, j);
                        }
                    }
            }
        }
    }
}
