// A region's splat (GroundSplat), engine-free: read back the way its documentation says Unity
// reads it (layer 4·t + c in control texture t, channel c; texel (x, y) at (y·res + x)·4), and
// checked against what each sample's own control word, biome or slope says, and against the
// library's own ground query on the baked world.
using System;
using NUnit.Framework;
using Relief;

namespace Relief.Tests
{
    [TestFixture]
    public class GroundSplatTests
    {
        const int N = 32;

        static byte[][] Textures(int size, int layers)
        {
            int res = GroundSplat.Resolution(size);
            var t = new byte[GroundSplat.Textures(layers)][];
            for (int i = 0; i < t.Length; i++)
                t[i] = new byte[res * res * 4];
            return t;
        }

        /// <summary>Layer <paramref name="layer"/>'s weight at texel (x, y), 0…255.</summary>
        static int Weight(byte[][] t, int res, int x, int y, int layer)
        {
            return t[layer / 4][(y * res + x) * 4 + layer % 4];
        }

        /// <summary>The sample texel <paramref name="i"/> shows, from the contract alone: it
        /// lies at i / (res − 1) of the extent and shows the nearest sample, the last clamped.</summary>
        static int Sample(int i, int size)
        {
            int res = GroundSplat.Resolution(size);
            double at = i * (double)size / (res - 1);
            int s = (int)Math.Floor(at + 0.5);
            return s < size ? s : size - 1;
        }

        static uint Word(int baseId, int overlayId, int blend)
        {
            return (uint)baseId << 27 | (uint)overlayId << 22 | (uint)blend << 14;
        }

        [Test]
        public void EveryTexelsWeightsAddUpTo255()
        {
            var rng = new Random(7);
            foreach (int layers in new[] { 1, 3, 4, 5, 10, 32 })
            {
                var h = new float[N * N];
                var control = new uint[N * N];
                for (int k = 0; k < h.Length; k++)
                {
                    h[k] = (float)(rng.NextDouble() * 40.0);
                    // Any word at all: ids past the layers, autoshader or not, holes.
                    control[k] = (uint)rng.Next() ^ (uint)rng.Next() << 16;
                }
                if (layers == 5)
                    h[17] = float.NaN; // a hole beside autoshader samples
                var t = Textures(N, layers);
                GroundSplat.Fill(h, control, ReadOnlySpan<byte>.Empty, N, 1.0, layers, t);
                for (int y = 0; y < N; y++)
                    for (int x = 0; x < N; x++)
                    {
                        int sum = 0;
                        for (int l = 0; l < GroundSplat.Textures(layers) * 4; l++)
                        {
                            int w = Weight(t, N, x, y, l);
                            if (l >= layers)
                                Assert.AreEqual(0, w, "channel {0} is past the {1} layers", l, layers);
                            sum += w;
                        }
                        Assert.AreEqual(255, sum, "texel ({0}, {1}) with {2} layers", x, y, layers);
                    }
            }
        }

        [Test]
        public void AControlWordShowsItsBaseAndOverlayByItsBlend()
        {
            const int layers = 10;
            var rng = new Random(11);
            var h = new float[N * N];
            var control = new uint[N * N];
            var want = new int[N * N, 3];
            for (int k = 0; k < control.Length; k++)
            {
                int b = rng.Next(32), o = rng.Next(32), blend = rng.Next(256);
                control[k] = Word(b, o, blend) | (uint)rng.Next(8) << 7 | (uint)rng.Next(16) << 10 | 2u; // uv, navigation: ignored
                want[k, 0] = b % layers;
                want[k, 1] = o % layers;
                want[k, 2] = blend;
            }
            var t = Textures(N, layers);
            GroundSplat.Fill(h, control, ReadOnlySpan<byte>.Empty, N, 1.0, layers, t);
            for (int t2 = 0; t2 < N * N; t2++)
            {
                int x = t2 % N, y = t2 / N, k = Sample(y, N) * N + Sample(x, N);
                int b = want[k, 0], o = want[k, 1], blend = want[k, 2];
                if (b == o)
                {
                    Assert.AreEqual(255, Weight(t, N, x, y, b), "sample {0}: one layer", k);
                    continue;
                }
                // Each rounded down, the shortfall (at most one per layer) to the heaviest.
                Assert.AreEqual(255 - blend, Weight(t, N, x, y, b), 1, "sample {0}: base", k);
                Assert.AreEqual(blend, Weight(t, N, x, y, o), 1, "sample {0}: overlay", k);
            }
        }

        [Test]
        public void WithoutControlWordsBiomesChooseTheLayerElseLayerZero()
        {
            const int layers = 6;
            var h = new float[N * N];
            var biome = new byte[N * N];
            for (int k = 0; k < biome.Length; k++)
                biome[k] = (byte)(k * 7 % 23);
            var t = Textures(N, layers);
            GroundSplat.Fill(h, ReadOnlySpan<uint>.Empty, biome, N, 2.0, layers, t);
            for (int y = 0; y < N; y++)
                for (int x = 0; x < N; x++)
                    Assert.AreEqual(255, Weight(t, N, x, y, biome[Sample(y, N) * N + Sample(x, N)] % layers), "texel ({0}, {1})", x, y);
            GroundSplat.Fill(h, ReadOnlySpan<uint>.Empty, ReadOnlySpan<byte>.Empty, N, 2.0, layers, t);
            for (int k = 0; k < biome.Length; k++)
                Assert.AreEqual(255, Weight(t, N, k % N, k / N, 0), "sample {0}: nothing says otherwise", k);
        }

        [Test]
        public void AutoshaderSamplesTurnToLayerOneOnSteepGround()
        {
            const int layers = 4;
            var control = new uint[N * N];
            for (int k = 0; k < control.Length; k++)
                control[k] = 1u; // Terrain3D's blank word: autoshader on
            var t = Textures(N, layers);
            foreach (double degrees in new[] { 0.0, 20.0, 37.5, 50.0, 70.0 })
            {
                // A plane rising along +X at this angle, 0.5 m between samples.
                double rise = Math.Tan(degrees * Math.PI / 180.0) * 0.5;
                var h = new float[N * N];
                for (int k = 0; k < h.Length; k++)
                    h[k] = (float)(rise * (k % N));
                GroundSplat.Fill(h, control, ReadOnlySpan<byte>.Empty, N, 0.5, layers, t);
                int steep = (int)(GroundSplat.AutoBlend((float)Math.Tan(degrees * Math.PI / 180.0)) * 255f);
                for (int k = 0; k < h.Length; k++)
                    Assert.AreEqual(steep, Weight(t, N, k % N, k / N, 1), 1, "{0}° sample {1}", degrees, k);
                if (degrees <= 30.0)
                    Assert.AreEqual(255, Weight(t, N, 5, 5, 0), "{0}° is gentle", degrees);
                if (degrees >= 45.0)
                    Assert.AreEqual(255, Weight(t, N, 5, 5, 1), "{0}° is steep", degrees);
            }
            Assert.AreEqual(0f, GroundSplat.AutoBlend(float.NaN));
        }

        [Test]
        public void TheAlphamapIsTheTexturesWeightsAsUnityIndexesThem()
        {
            const int layers = 6;
            var rng = new Random(3);
            var control = new uint[N * N];
            for (int k = 0; k < control.Length; k++)
                control[k] = Word(rng.Next(32), rng.Next(32), rng.Next(256));
            var t = Textures(N, layers);
            GroundSplat.Fill(new float[N * N], control, ReadOnlySpan<byte>.Empty, N, 1.0, layers, t);
            var a = new float[N, N, layers];
            GroundSplat.Alphamap(t, layers, a);
            for (int y = 0; y < N; y++)
                for (int x = 0; x < N; x++)
                {
                    float sum = 0;
                    for (int l = 0; l < layers; l++)
                    {
                        Assert.AreEqual(Weight(t, N, x, y, l) / 255f, a[y, x, l], 1e-6, "[{0}, {1}, {2}]", y, x, l);
                        sum += a[y, x, l];
                    }
                    Assert.AreEqual(1f, sum, 1e-4);
                }
            Assert.Throws<ArgumentException>(delegate { GroundSplat.Alphamap(t, layers, new float[N, N, layers - 1]); });
            Assert.Throws<ArgumentException>(delegate { GroundSplat.Alphamap(t, 9, new float[N, N, 9]); });
        }

        [Test]
        public void TheDefaultLayersAreEachSlotsColourTilingWithoutASeam()
        {
            Assert.AreEqual(10, GroundPalette.Names.Length, "one per slot a baked world paints");
            int n = GroundPalette.Size;
            var rgba = new byte[n * n * 4];
            var again = new byte[n * n * 4];
            var means = new double[10, 3];
            for (int slot = 0; slot < 10; slot++)
            {
                GroundPalette.Fill(slot, rgba);
                GroundPalette.Fill(slot, again);
                CollectionAssert.AreEqual(rgba, again, "slot {0} is the same every time", slot);
                int lo = 255, hi = 0;
                for (int k = 0; k < n * n; k++)
                {
                    Assert.AreEqual(255, rgba[4 * k + 3], "opaque");
                    for (int c = 0; c < 3; c++)
                        means[slot, c] += rgba[4 * k + c] / (double)(n * n);
                    lo = Math.Min(lo, rgba[4 * k + 1]);
                    hi = Math.Max(hi, rgba[4 * k + 1]);
                }
                Assert.Greater(hi - lo, 8, "slot {0} has texture, not flat paint", slot);
                // Seamless: the last column steps to the first no more than neighbours step.
                for (int y = 0; y < n; y++)
                    Assert.LessOrEqual(Math.Abs(rgba[(y * n + n - 1) * 4 + 1] - rgba[(y * n) * 4 + 1]), 12, "row {0} wraps", y);
            }
            // Grass is greener than rock, snow brighter than everything.
            Assert.Greater(means[0, 1] - means[0, 0], means[4, 1] - means[4, 0]);
            for (int slot = 0; slot < 10; slot++)
                if (slot != 6)
                    Assert.Greater(means[6, 0] + means[6, 1] + means[6, 2], means[slot, 0] + means[slot, 1] + means[slot, 2]);
            Assert.Throws<ArgumentOutOfRangeException>(delegate { GroundPalette.Fill(10, rgba); });
            Assert.Throws<ArgumentException>(delegate { GroundPalette.Fill(0, new byte[3]); });
        }

        [Test]
        public void BadBuffersAndSizesAreRefused()
        {
            var h = new float[N * N];
            Assert.Throws<ArgumentOutOfRangeException>(delegate { GroundSplat.Textures(0); });
            Assert.Throws<ArgumentOutOfRangeException>(delegate { GroundSplat.Textures(33); });
            Assert.Throws<ArgumentOutOfRangeException>(delegate { GroundSplat.Resolution(100); });
            Assert.AreEqual(2048, GroundSplat.Resolution(4096));
            Assert.AreEqual(512, GroundSplat.Resolution(512));
            Assert.Throws<ArgumentOutOfRangeException>(delegate { GroundSplat.SampleOf(512, 512); });
            for (int i = 0; i < 2048; i++)
                Assert.AreEqual(Sample(i, 4096), GroundSplat.SampleOf(i, 4096));
            Assert.Throws<ArgumentException>(delegate { GroundSplat.Fill(h, new uint[5], ReadOnlySpan<byte>.Empty, N, 1, 4, Textures(N, 4)); });
            Assert.Throws<ArgumentException>(delegate { GroundSplat.Fill(h, ReadOnlySpan<uint>.Empty, ReadOnlySpan<byte>.Empty, N, 1, 5, Textures(N, 4)); });
            Assert.Throws<ArgumentException>(delegate { GroundSplat.Fill(h, ReadOnlySpan<uint>.Empty, ReadOnlySpan<byte>.Empty, N, 1, 4, new byte[1][] { new byte[3] }); });
            Assert.Throws<ArgumentOutOfRangeException>(delegate { GroundSplat.Fill(h, ReadOnlySpan<uint>.Empty, ReadOnlySpan<byte>.Empty, N, double.NaN, 4, Textures(N, 4)); });
        }

        /// <summary>The baked world's regions, splatted, agree with the library's own ground
        /// query at every sample: the control word it reports there picks the layers.</summary>
        [Test]
        public void TheBakedWorldsSplatMatchesItsGroundQueries()
        {
            const int layers = 10; // the package's default set: slots 0 grass … 9 moss
            using (World world = World.Open(Fixtures.World))
            using (var rt = new Runtime(world, StreamingTests.PiecesOnly()))
            using (var terrain = new TerrainQueries(rt))
            {
                WorldInfo info = world.Info;
                int rx = (info.RegionMinX + info.RegionMaxX + 1) / 2, rz = (info.RegionMinZ + info.RegionMaxZ + 1) / 2;
                double extent = info.RegionSize * info.VertexSpacing;
                Assert.IsTrue(rt.Settle((rx + 0.5) * extent, 0, (rz + 0.5) * extent, 60000));
                int size = info.RegionSize, res = GroundSplat.Resolution(size);
                var h = new float[size * size];
                var control = new uint[size * size];
                int controls;
                using (RegionView v = rt.AcquireRegion(rx, rz))
                {
                    Assert.IsNotNull(v);
                    v.Height.CopyTo(h);
                    controls = v.Control.Length;
                    v.Control.CopyTo(control);
                }
                Assert.AreEqual(size * size, controls, "the baked world paints control words");
                var t = Textures(size, layers);
                GroundSplat.Fill(h, control, ReadOnlySpan<byte>.Empty, size, info.VertexSpacing, layers, t);
                Assert.AreEqual(size, res, "as many texels as samples");
                int painted = 0;
                // Texel (x, y) lies at (x, y) · extent / (res − 1) in the tile; the last row and
                // column lie on the neighbours' first samples and repeat the region's last.
                for (int y = 0; y < res - 1; y += 3)
                    for (int x = 0; x < res - 1; x += 3)
                    {
                        Ground g = terrain.Ground(rx * extent + x * extent / (res - 1), rz * extent + y * extent / (res - 1));
                        Assert.IsTrue(g.Found);
                        Assert.AreEqual(rx, g.RegionX);
                        Assert.AreEqual(rz, g.RegionZ);
                        Assert.IsFalse(g.Autoshader, "baked worlds paint every sample");
                        int b = g.BaseTexture % layers, o = g.OverlayTexture % layers;
                        if (b == o)
                            Assert.AreEqual(255, Weight(t, res, x, y, b));
                        else
                        {
                            Assert.AreEqual(255 - g.Blend, Weight(t, res, x, y, b), 1, "base at ({0}, {1})", x, y);
                            Assert.AreEqual(g.Blend, Weight(t, res, x, y, o), 1, "overlay at ({0}, {1})", x, y);
                        }
                        if (b != 0 || g.Blend > 0)
                            painted++;
                    }
                Assert.Greater(painted, 0, "the region shows more than grass");
            }
        }
    }
}
