// What the components and samples draw and print, engine-free: the far-ground rings and the
// on-screen readout.
using System;
using NUnit.Framework;
using Relief;
using Relief.Native;

namespace Relief.Tests
{
    [TestFixture]
    public class FarRingTests
    {
        [TestCase(1, 8, 4.0)]
        [TestCase(3, 16, 2.0)]
        [TestCase(4, 32, 16.0)]
        public void RingsTileTheOuterSquareOnceWithQuadsFacingUp(int levels, int size, double spacing)
        {
            int quads = FarRings.QuadCount(levels, size);
            var v = new float[12 * quads];
            var idx = new int[6 * quads];
            Assert.AreEqual(quads, FarRings.Build(levels, size, spacing, v, idx));

            // The outer square: the coarsest level's quads, QuadsPerSide of them.
            double quad0 = 2 * spacing, outer = FarRings.QuadsPerSide(size) * quad0 * (1 << (levels - 1));
            Assert.AreEqual(FarRings.Step(levels, spacing) * FarRings.QuadsPerSide(size), outer, 1e-9);
            int cells = (int)Math.Round(outer / quad0);
            var cover = new int[cells, cells];
            for (int q = 0; q < quads; q++)
            {
                float x0 = v[12 * q], z0 = v[12 * q + 2], x1 = v[12 * q + 6], z1 = v[12 * q + 8];
                // Every level-0 cell centre the quad covers, counted.
                for (int j = 0; j < cells; j++)
                    for (int i = 0; i < cells; i++)
                    {
                        double cx = -outer / 2 + (i + 0.5) * quad0, cz = -outer / 2 + (j + 0.5) * quad0;
                        if (cx > x0 && cx < x1 && cz > z0 && cz < z1)
                            cover[j, i]++;
                    }
            }
            for (int j = 0; j < cells; j++)
                for (int i = 0; i < cells; i++)
                    Assert.AreEqual(1, cover[j, i], "cell ({0}, {1}) of {2}² covered once", i, j, cells);

            for (int t = 0; t < 2 * quads; t++)
            {
                int a = idx[3 * t], b = idx[3 * t + 1], c = idx[3 * t + 2];
                // Unity's normal for a clockwise triangle: Cross(b − a, c − a); up is +Y.
                double bx = v[3 * b] - v[3 * a], bz = v[3 * b + 2] - v[3 * a + 2];
                double cx = v[3 * c] - v[3 * a], cz = v[3 * c + 2] - v[3 * a + 2];
                double crossY = bz * cx - bx * cz;
                Assert.Greater(crossY, 0, "triangle {0} faces up", t);
            }
        }

        [Test]
        public void TheMeshFollowsInStepsOfItsCoarsestQuad()
        {
            double step = FarRings.Step(6, 16);
            Assert.AreEqual(1024, step);
            Assert.AreEqual(1024, FarRings.Snap(1000.3, step));
            Assert.AreEqual(-2048, FarRings.Snap(-1600, step));
            Assert.AreEqual(0, FarRings.Snap(511, step));
        }

        [Test]
        public void BadShapesAreRefused()
        {
            Assert.Throws<ArgumentOutOfRangeException>(delegate { FarRings.Build(9, 16, 1, new float[1 << 20], new int[1 << 20]); });
            Assert.Throws<ArgumentOutOfRangeException>(delegate { FarRings.Build(2, 24, 1, new float[1 << 20], new int[1 << 20]); });
            Assert.Throws<ArgumentException>(delegate { FarRings.Build(2, 16, 1, new float[10], new int[1 << 20]); });
        }
    }

    [TestFixture]
    public class ReadoutTests
    {
        static LakeAt Lake(bool found, bool inside, uint id, float level, float distance)
        {
            return new LakeAt(new relief_lake { found = found ? 1u : 0u, inside = inside ? 1u : 0u, lake = id, level_m = level, distance_m = distance });
        }

        [Test]
        public void NothingNearReadsAsSuch()
        {
            string s = Readout.Describe(false, default(Ground), null, false, 0, 0, ReachKind.Creek, false, default(LakeAt));
            Assert.AreEqual("ground: not loaded\nriver: none near\nlake: none near", s);
        }

        [Test]
        public void WaterLinesSayWhatIsThere()
        {
            string s = Readout.DescribePlanet(-12.5, 100.25, 311.6f, true, Biome.TropicalRainforest, null, true, 42.4f, 3.26f,
                ReachKind.Creek, true, Lake(true, true, 7, 120.55f, 0));
            Assert.AreEqual("12.5000° S, 100.2500° E, 312 m\nground: tropical rainforest\ncreek: 42 m away, 3.3 m wide\nlake: in lake 7, surface at 120.6 m", s);
            s = Readout.DescribePlanet(3, -4, 0, false, Biome.Snow, null, true, 10, 20, ReachKind.River, true, Lake(true, false, 2, 0, 88));
            StringAssert.Contains("3.0000° N, 4.0000° W", s);
            StringAssert.Contains("ground: not loaded", s);
            StringAssert.Contains("river: 10 m away, 20.0 m wide", s);
            StringAssert.Contains("lake: lake 2 88 m away", s);
        }

        [Test]
        public void TheGroundLineNamesTheWorldsBiomeAtTheCentre()
        {
            using (World world = World.Open(Fixtures.World))
            using (var rt = new Runtime(world))
            using (var q = new TerrainQueries(rt))
            {
                Double3 c = world.Info.Centre;
                Assert.IsTrue(rt.Settle(c.X, c.Y, c.Z, 60000));
                Ground g = q.Ground(c.X, c.Z);
                Assert.IsTrue(g.Found && g.HasBiome);
                string s = Readout.Describe(true, g, world.BiomeName(g.BiomeId), false, 0, 0, ReachKind.River, false, default(LakeAt));
                StringAssert.StartsWith("ground: " + Readout.Name(g.Biome) + "\n", s);
            }
        }
    }
}
