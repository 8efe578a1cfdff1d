// The far ground as the shader lifts it (FarLift, the CPU twin of ReliefFarGround.hlsl) over
// the baked world's own levels: where a ring of quads meets the ring of quads twice their size,
// every vertex of the finer ring's outer edge lands exactly on a vertex of the coarser ring's
// inner edge, so the ground has no cracks. Without the morph it does, which the last test shows.
using System;
using System.Collections.Generic;
using NUnit.Framework;
using Relief;

namespace Relief.Tests
{
    [TestFixture]
    public class FarLiftTests
    {
        /// <summary>Lifts every vertex of the mesh over the world's levels with the camera at
        /// <paramref name="dx"/>, <paramref name="dz"/> from the world's centre; returns
        /// (ring-edge vertices checked, those with no coarse vertex at the same place and
        /// height).</summary>
        static int[] Seams(double dx, double dz, bool morph, double spacing = 0)
        {
            RuntimeConfig config = RuntimeConfig.Default();
            if (spacing > 0)
                config.LevelSpacing = spacing;
            using (World world = World.Open(Fixtures.World))
            using (var rt = new Runtime(world, config))
            {
                Double3 c = world.Info.Centre;
                double x = c.X + dx, z = c.Z + dz;
                Assert.IsTrue(rt.Settle(x, 0, z, 60000));
                int levels = Math.Min(config.LevelCount, FarLift.MaxLevels), size = config.LevelSize;
                double step = FarRings.Step(levels, config.LevelSpacing);
                // Where FarGroundMesh puts the mesh: the camera snapped to the coarsest quad.
                LevelInfo first = rt.Level(0);
                Double3 rel = new Double3(x, 0, z) - first.PlaneOrigin;
                double gx = FarRings.Snap(rel.Dot(first.PlaneX), step), gz = FarRings.Snap(rel.Dot(first.PlaneZ), step);
                var lift = new FarLift(levels, size, config.LevelSpacing);
                for (int k = 0; k < levels; k++)
                    lift.SetLevel(k, rt.LevelHeights(k).ToArray(), rt.Level(k), gx, gz);

                int quads = FarRings.QuadCount(levels, size);
                var v = new float[12 * quads];
                FarRings.Build(levels, size, config.LevelSpacing, v, new int[6 * quads]);
                float half = FarLift.RingHalf(size);
                // Each ring's lifted vertices by where they land.
                var landed = new Dictionary<long, float>[levels];
                for (int k = 0; k < levels; k++)
                    landed[k] = new Dictionary<long, float>();
                var outerEdge = new List<int>[levels];
                for (int k = 0; k < levels; k++)
                    outerEdge[k] = new List<int>();
                for (int i = 0; i < 4 * quads; i++)
                {
                    float vx = v[3 * i], ring = v[3 * i + 1], vz = v[3 * i + 2];
                    int k = (int)ring;
                    float qx, qz;
                    float h = lift.Lift(vx, ring, vz, out qx, out qz, morph);
                    landed[k][Key(qx, qz)] = h;
                    float quad = FarLift.RingQuad(config.LevelSpacing) * (1 << k);
                    // The ring's outer edge, as FarRings builds it: index ± half times the quad.
                    if (Math.Max(Math.Abs(vx), Math.Abs(vz)) == (int)half * quad)
                        outerEdge[k].Add(i);
                }
                int checkedVertices = 0, open = 0;
                for (int k = 0; k + 1 < levels; k++)
                {
                    Assert.IsNotEmpty(outerEdge[k]);
                    foreach (int i in outerEdge[k])
                    {
                        float qx, qz;
                        float h = lift.Lift(v[3 * i], v[3 * i + 1], v[3 * i + 2], out qx, out qz, morph);
                        float coarse;
                        checkedVertices++;
                        if (!landed[k + 1].TryGetValue(Key(qx, qz), out coarse) || coarse != h)
                            open++;
                    }
                }
                return new[] { checkedVertices, open };
            }
        }

        static long Key(float x, float z)
        {
            return (long)BitConverter.SingleToInt32Bits(x) << 32 | (uint)BitConverter.SingleToInt32Bits(z);
        }

        // The default spacing, and spacings no float holds exactly (0.3, 1/3): the morph and the
        // mesh make the same float products, so the seams close for any.
        [TestCase(0.0, 0.0, 0.0)]
        [TestCase(317.25, -1203.5, 0.0)]
        [TestCase(41.0, 7.5, 0.3)]
        [TestCase(-13.0, 29.0, 1.0 / 3.0)]
        public void RingsMeetWithoutCracksOverTheWorldsOwnLevels(double dx, double dz, double spacing)
        {
            int[] r = Seams(dx, dz, true, spacing);
            Assert.Greater(r[0], 100, "ring edges checked");
            Assert.AreEqual(0, r[1], "of {0} vertices on ring edges, {1} land off the coarser ring", r[0], r[1]);
        }

        [Test]
        public void WithoutTheMorphTheRingsCrack()
        {
            int[] r = Seams(0.0, 0.0, false);
            // Every other vertex of a finer ring's edge is a T-junction on the coarser ring.
            Assert.Greater(r[1], r[0] / 4, "{0} of {1} ring-edge vertices open", r[1], r[0]);
        }

        [Test]
        public void InsideARingVerticesStayPutAndTheHeightIsTheLevelsOwnBetweenCells()
        {
            var lift = new FarLift(2, 16, 1.0);
            // A level whose cell (i, j) holds 10·i + j, window corner at (−8, −8) from the mesh.
            var info = new LevelInfo(new Relief.Native.relief_level_view { size = 16, origin_i = -8, origin_j = -8, spacing = 1 });
            var h = new float[256];
            for (int j = 0; j < 16; j++)
                for (int i = 0; i < 16; i++)
                    h[FarLevels.Texel(i - 8, j - 8, 16)] = 10f * (i - 8) + (j - 8);
            lift.SetLevel(0, h, info, 0, 0);
            var coarse = new LevelInfo(new Relief.Native.relief_level_view { size = 16, origin_i = -8, origin_j = -8, spacing = 2 });
            lift.SetLevel(1, new float[256], coarse, 0, 0);
            float qx, qz;
            // A vertex of ring 0 well inside it (its quads are 2 m): where it is.
            lift.Lift(2f, 0f, -4f, out qx, out qz);
            Assert.AreEqual(2f, qx);
            Assert.AreEqual(-4f, qz);
            // Cell i's centre is at i + 0.5 m: a point a quarter cell past it is a quarter of
            // the way to the next (ring 1, the outermost, never morphs).
            float got = lift.Lift(1.75f, 1f, -2.25f, out qx, out qz);
            Assert.AreEqual(1.75f, qx);
            Assert.AreEqual(-2.25f, qz);
            Assert.AreEqual(10f * 1.25f + (-2.75f), got, 1e-4);
            Assert.Throws<ArgumentException>(delegate { lift.SetLevel(0, new float[3], info, 0, 0); });
            Assert.Throws<ArgumentOutOfRangeException>(delegate { new FarLift(9, 16, 1); });
        }
    }
}
