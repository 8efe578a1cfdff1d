// The streaming components' logic (StreamingDriver) against the real library, with an engine
// made of arrays: what a Unity scene would hold after each frame is checked against relief's
// own answers for the same ground.
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using NUnit.Framework;
using Relief;

namespace Relief.Tests
{
    sealed class FakeTile
    {
        public int Resolution;
        public float[,] Heights;
        public bool[,] Surface;
        public byte[][] Splat;
        public TilePlacement Placement;
        public bool Shown, Destroyed;
        public int Shows, Syncs;
        public FakeTile Left, Top, Right, Bottom;
    }

    sealed class FakeMesh
    {
        public float[] Vertices;
        public int[] Indices;
        public int VertexCount, IndexCount, Bakes, BakeThread;
        public bool Baked, Shown, Destroyed;
        public ChunkPlacement Placement;
    }

    /// <summary>An engine that keeps what it's given, and notes any call on the wrong thread.</summary>
    sealed class FakeEngine : IReliefEngine<FakeTile, FakeMesh>
    {
        readonly int main = Thread.CurrentThread.ManagedThreadId;
        public readonly List<FakeTile> Tiles = new List<FakeTile>();
        public readonly List<FakeMesh> Meshes = new List<FakeMesh>();
        public readonly Dictionary<int, float[]> Levels = new Dictionary<int, float[]>();
        public readonly List<string> Errors = new List<string>(), Warnings = new List<string>(), WrongThread = new List<string>();
        public int Uploads;

        void OnMain(string call) { if (Thread.CurrentThread.ManagedThreadId != main) lock (WrongThread) WrongThread.Add(call); }

        public FakeTile NewTile(int resolution)
        {
            OnMain("NewTile");
            var t = new FakeTile { Resolution = resolution, Heights = new float[resolution, resolution], Surface = new bool[resolution - 1, resolution - 1] };
            Tiles.Add(t);
            return t;
        }
        public void ShowTile(FakeTile t, TilePlacement p) { OnMain("ShowTile"); t.Placement = p; t.Shown = true; t.Shows++; }
        public void SetTileHeights(FakeTile t, int xBase, int yBase, float[,] h)
        {
            OnMain("SetTileHeights");
            for (int y = 0; y < h.GetLength(0); y++)
                for (int x = 0; x < h.GetLength(1); x++)
                    t.Heights[yBase + y, xBase + x] = h[y, x];
        }
        public void SetTileHoles(FakeTile t, bool[,] s) { OnMain("SetTileHoles"); Array.Copy(s, t.Surface, s.Length); }
        public void SetTileSplat(FakeTile t, byte[][] c)
        {
            OnMain("SetTileSplat");
            t.Splat = new byte[c.Length][];
            for (int i = 0; i < c.Length; i++) t.Splat[i] = (byte[])c[i].Clone();
        }
        public void SyncTile(FakeTile t) { OnMain("SyncTile"); t.Syncs++; }
        public void SetTileNeighbors(FakeTile t, FakeTile left, FakeTile top, FakeTile right, FakeTile bottom)
        {
            OnMain("SetTileNeighbors");
            t.Left = left; t.Top = top; t.Right = right; t.Bottom = bottom;
        }
        public void HideTile(FakeTile t) { OnMain("HideTile"); t.Shown = false; }
        public void DestroyTile(FakeTile t) { OnMain("DestroyTile"); t.Destroyed = true; t.Shown = false; }

        public FakeMesh NewChunkMesh() { OnMain("NewChunkMesh"); var m = new FakeMesh(); lock (Meshes) Meshes.Add(m); return m; }
        public void SetChunkMesh(FakeMesh m, float[] v, int vc, int[] idx, int ic)
        {
            OnMain("SetChunkMesh");
            m.Vertices = (float[])v.Clone(); m.Indices = (int[])idx.Clone(); m.VertexCount = vc; m.IndexCount = ic; m.Baked = false;
        }
        public void BakeChunkMesh(FakeMesh m)
        {
            if (Thread.CurrentThread.ManagedThreadId == main) lock (WrongThread) WrongThread.Add("BakeChunkMesh on the main thread");
            m.BakeThread = Thread.CurrentThread.ManagedThreadId;
            m.Bakes++;
            m.Baked = true;
        }
        public void ShowChunk(FakeMesh m, ChunkPlacement p)
        {
            OnMain("ShowChunk");
            if (!m.Baked) WrongThread.Add("ShowChunk before BakeChunkMesh");
            m.Placement = p; m.Shown = true;
        }
        public void HideChunk(FakeMesh m) { OnMain("HideChunk"); m.Shown = false; }
        public void DestroyChunk(FakeMesh m) { OnMain("DestroyChunk"); m.Destroyed = true; m.Shown = false; }

        public void UploadLevel(LevelInfo info, ReadOnlySpan<float> heights)
        {
            OnMain("UploadLevel");
            Uploads++;
            Levels[info.Level] = heights.ToArray();
        }

        public void Log(LogLevel level, string message)
        {
            OnMain("Log");
            if (level == LogLevel.Error) Errors.Add(message);
            else if (level == LogLevel.Warn) Warnings.Add(message);
        }
    }

    [TestFixture]
    public class DriverTests
    {
        static float Metres(float share, WorldInfo info) { return info.HeightMin + share * (info.HeightMax - info.HeightMin); }

        [Test]
        public void AFlatWorldsTilesAreItsGroundStitchedToTheirNeighboursAndPooled()
        {
            var engine = new FakeEngine();
            using (World world = World.Open(Fixtures.World))
            using (var driver = new StreamingDriver<FakeTile, FakeMesh>(engine, world, new DriverSettings()))
            {
                WorldInfo info = world.Info;
                Double3 start = info.Centre;
                Assert.IsTrue(driver.Settle(start, 60000));
                int shownAtStart = driver.Stats.TilesShown;
                Assert.Greater(shownAtStart, 0);
                // Walk fast enough to cross regions, as a game would, a frame at a time.
                Double3 p = start;
                for (int frame = 0; frame < 60; frame++)
                {
                    p = new Double3(start.X + frame * 25.0, 0, start.Z + frame * 9.0);
                    p = new Double3(p.X, driver.Terrain.Height(p.X, p.Z), p.Z);
                    Assert.IsTrue(driver.Frame(p, p));
                    Thread.Sleep(16);
                }
                Assert.IsTrue(driver.Settle(p, 60000));
                CollectionAssert.IsEmpty(engine.Errors);
                CollectionAssert.IsEmpty(engine.Warnings);
                CollectionAssert.IsEmpty(engine.WrongThread);

                // One tile per ready region, each where its region is.
                DriverStats stats = driver.Stats;
                Assert.AreEqual(driver.Runtime.GetStreamStats(StreamKind.Pieces).Ready, stats.TilesShown);
                var byLocation = new Dictionary<long, FakeTile>();
                foreach (FakeTile t in engine.Tiles)
                    if (t.Shown)
                        byLocation.Add(((long)t.Placement.RegionX << 32) ^ (uint)t.Placement.RegionZ, t);
                Assert.AreEqual(stats.TilesShown, byLocation.Count);
                Func<int, int, FakeTile> at = (x, z) => { FakeTile t; return byLocation.TryGetValue(((long)x << 32) ^ (uint)z, out t) ? t : null; };

                // Pooled, not made and destroyed: the walk unloaded regions and their tiles came back.
                Assert.AreEqual(stats.TilesCreated, stats.TilesShown + stats.TilesPooled);
                int shows = 0;
                foreach (FakeTile t in engine.Tiles) shows += t.Shows;
                Assert.Greater(shows, stats.TilesCreated, "some tiles were reused");

                int size = info.RegionSize, checkedSamples = 0, edgeSamples = 0;
                double spacing = info.VertexSpacing;
                foreach (FakeTile t in byLocation.Values)
                {
                    int rx = t.Placement.RegionX, rz = t.Placement.RegionZ;
                    Assert.AreEqual(size + 1, t.Resolution);
                    Assert.AreEqual(rx * info.RegionExtent, t.Placement.Position.X, 1e-9);
                    Assert.AreEqual(info.HeightMin, t.Placement.Position.Y, 1e-6);
                    Assert.AreEqual(info.HeightMax - info.HeightMin, t.Placement.Size.Y, 1e-3);
                    Assert.AreSame(at(rx - 1, rz), t.Left);
                    Assert.AreSame(at(rx + 1, rz), t.Right);
                    Assert.AreSame(at(rx, rz + 1), t.Top);
                    Assert.AreSame(at(rx, rz - 1), t.Bottom);
                    // Every 37th sample, the far column and row included: the tile's height is
                    // relief's height at that sample's world position, wherever relief reads
                    // it from a resident region.
                    for (int k = 0; k < t.Resolution * t.Resolution; k += 37)
                    {
                        int y = k / t.Resolution, x = k % t.Resolution;
                        double wx = rx * info.RegionExtent + x * spacing, wz = rz * info.RegionExtent + y * spacing;
                        HeightOrigin origin;
                        float want = driver.Terrain.Height(wx, wz, out origin);
                        bool edge = x == size || y == size;
                        if (origin != HeightOrigin.Region || float.IsNaN(want))
                            continue;
                        if (edge && at(rx + (x == size ? 1 : 0), rz + (y == size ? 1 : 0)) == null)
                            continue; // a missing neighbour's edge repeats the region's own
                        Assert.AreEqual(want, Metres(t.Heights[y, x], info), 0.01, "region ({0}, {1}) sample [{2}, {3}]", rx, rz, y, x);
                        checkedSamples++;
                        if (edge) edgeSamples++;
                    }
                }
                Assert.Greater(checkedSamples, 10000);
                Assert.Greater(edgeSamples, 20, "neighbours' edges were checked");

                // Far ground: each level the engine holds is relief's level as it is now.
                Assert.Greater(engine.Uploads, 0);
                Assert.Greater(stats.LevelUploads, 0);
                foreach (var level in engine.Levels)
                    CollectionAssert.AreEqual(driver.Runtime.LevelHeights(level.Key).ToArray(), level.Value, "level {0}", level.Key);
            }
            foreach (FakeTile t in engine.Tiles)
                Assert.IsTrue(t.Destroyed, "Dispose destroys every tile, shown or pooled");
        }

        [Test]
        public void TilesAreSplattedFromTheGroundTheyShowOnlyWhenAskedTo()
        {
            const int layers = 10;
            foreach (int asked in new[] { 0, layers })
            {
                var engine = new FakeEngine();
                using (World world = World.Open(Fixtures.World))
                using (var driver = new StreamingDriver<FakeTile, FakeMesh>(engine, world, new DriverSettings { GroundLayers = asked, FarGround = false }))
                {
                    WorldInfo info = world.Info;
                    Assert.IsTrue(driver.Settle(info.Centre, 60000));
                    CollectionAssert.IsEmpty(engine.Errors);
                    CollectionAssert.IsEmpty(engine.WrongThread);
                    int res = GroundSplat.Resolution(info.RegionSize), tiles = 0, texels = 0;
                    foreach (FakeTile t in engine.Tiles)
                    {
                        if (!t.Shown)
                            continue;
                        tiles++;
                        if (asked == 0)
                        {
                            Assert.IsNull(t.Splat, "no layers asked for, no splat");
                            continue;
                        }
                        Assert.AreEqual(GroundSplat.Textures(layers), t.Splat.Length);
                        // Read as the docs say: layer 4·t + c in texture t's channel c, texel
                        // (x, y) at (y·res + x)·4, lying at (x, y) · extent / (res − 1) in the
                        // tile (the last row and column, on the neighbours' first samples,
                        // repeat the region's own last).
                        for (int k = 0; k < res * res; k += 53)
                        {
                            int x = k % res, y = k / res;
                            if (x == res - 1 || y == res - 1)
                                continue;
                            Ground g = driver.Terrain.Ground(t.Placement.RegionX * info.RegionExtent + x * info.RegionExtent / (res - 1),
                                t.Placement.RegionZ * info.RegionExtent + y * info.RegionExtent / (res - 1));
                            Assert.IsTrue(g.Found);
                            int b = g.BaseTexture % layers, o = g.OverlayTexture % layers;
                            int sum = 0;
                            for (int l = 0; l < GroundSplat.Textures(layers) * 4; l++)
                                sum += t.Splat[l / 4][k * 4 + l % 4];
                            Assert.AreEqual(255, sum, "texel ({0}, {1}) adds up to 255", x, y);
                            int wb = t.Splat[b / 4][k * 4 + b % 4], wo = t.Splat[o / 4][k * 4 + o % 4];
                            if (b == o)
                                Assert.AreEqual(255, wb);
                            else
                            {
                                Assert.AreEqual(255 - g.Blend, wb, 1, "base at texel ({0}, {1})", x, y);
                                Assert.AreEqual(g.Blend, wo, 1, "overlay at texel ({0}, {1})", x, y);
                            }
                            texels++;
                        }
                    }
                    Assert.Greater(tiles, 0);
                    if (asked > 0)
                        Assert.Greater(texels, 1000);
                }
            }
            Assert.Throws<ArgumentOutOfRangeException>(delegate
            {
                using (World world = World.Open(Fixtures.World))
                    new StreamingDriver<FakeTile, FakeMesh>(new FakeEngine(), world, new DriverSettings { GroundLayers = 33 }).Dispose();
            }, "more layers than Terrain3D's texture ids");
        }

        [Test]
        public void APlanetsCollidersAreBakedOffTheMainThreadBeforeTheyAreShown()
        {
            var engine = new FakeEngine();
            using (Planet planet = Planet.Open(Fixtures.Planet))
            using (var driver = new StreamingDriver<FakeTile, FakeMesh>(engine, planet, new DriverSettings()))
            {
                Double3 p = driver.PlanetTerrain.PositionAt(10, 20);
                Assert.IsTrue(driver.Settle(p, 60000));
                for (int frame = 0; frame < 40; frame++)
                {
                    p = driver.PlanetTerrain.PositionAt(10, 20 + frame * 0.05);
                    Assert.IsTrue(driver.Frame(p, p));
                    Thread.Sleep(16);
                }
                Assert.IsTrue(driver.Settle(p, 60000));
                CollectionAssert.IsEmpty(engine.Errors);
                CollectionAssert.IsEmpty(engine.WrongThread);
                DriverStats stats = driver.Stats;
                Assert.AreEqual(0, stats.TilesShown, "planets are drawn by their rings, not Terrain tiles");
                Assert.Greater(stats.CollidersShown, 0);
                Assert.AreEqual(driver.Runtime.GetStreamStats(StreamKind.Chunks).Ready, stats.CollidersShown);
                int shown = 0;
                foreach (FakeMesh m in engine.Meshes)
                {
                    if (!m.Shown) continue;
                    shown++;
                    Assert.IsTrue(m.Baked);
                    Assert.AreNotEqual(0, m.BakeThread);
                    using (ChunkView c = driver.Runtime.AcquireChunk(m.Placement.Key))
                    {
                        Assert.IsNotNull(c, "{0} is shown but not built", m.Placement.Key);
                        Assert.AreEqual(c.Samples * c.Samples, m.VertexCount);
                        float[] h = c.Heights.ToArray();
                        for (int k = 0; k < h.Length; k += 13)
                            if (!float.IsNaN(h[k]))
                                Assert.AreEqual(h[k], m.Vertices[3 * k + 1]);
                        // The mesh's centre is where the chunk's frame puts it.
                        Double3 centre = c.Origin + c.AxisX * c.CentreX + c.AxisZ * c.CentreZ;
                        Assert.AreEqual(0, (centre - m.Placement.Position).Length, 1e-6);
                        Assert.Greater(c.Up.Dot(m.Placement.Position), 0);
                    }
                }
                Assert.AreEqual(stats.CollidersShown, shown);
                Assert.AreEqual(stats.CollidersCreated, stats.CollidersShown + stats.CollidersPooled + stats.CollidersPending);
                Assert.Greater(engine.Uploads, 0, "the rings were uploaded");
                foreach (var level in engine.Levels)
                    CollectionAssert.AreEqual(driver.Runtime.LevelHeights(level.Key).ToArray(), level.Value, "ring {0}", level.Key);
            }
            foreach (FakeMesh m in engine.Meshes)
                Assert.IsTrue(m.Destroyed);
        }

        [Test]
        public void AFailureIsLoggedOnceStopsTheDriverAndKeepsWhatWasShown()
        {
            var engine = new FakeEngine();
            using (World world = World.Open(Fixtures.World))
            {
                var driver = new StreamingDriver<FakeTile, FakeMesh>(engine, world, new DriverSettings());
                Assert.IsTrue(driver.Settle(world.Info.Centre, 60000));
                int shown = driver.Stats.TilesShown;
                // relief refuses a focus that isn't a number: one error with its message.
                Assert.IsFalse(driver.Frame(new Double3(double.NaN, 0, 0), world.Info.Centre));
                Assert.AreEqual(DriverState.Stopped, driver.State);
                for (int i = 0; i < 100; i++)
                    Assert.IsFalse(driver.Frame(world.Info.Centre, world.Info.Centre));
                Assert.AreEqual(1, engine.Errors.Count, string.Join("\n", engine.Errors.ToArray()));
                StringAssert.Contains("relief stopped streaming", engine.Errors[0]);
                StringAssert.Contains("focus", engine.Errors[0]);
                Assert.AreEqual(shown, driver.Stats.TilesShown, "nothing shown was lost");
                driver.Stop("again"); // already stopped: no second message
                Assert.AreEqual(1, engine.Errors.Count);
                driver.Dispose();
                driver.Dispose();
                Assert.AreEqual(DriverState.Disposed, driver.State);
                Assert.IsFalse(driver.Frame(world.Info.Centre, world.Info.Centre));
                Assert.IsFalse(driver.Settle(world.Info.Centre, 10));
                foreach (FakeTile t in engine.Tiles) Assert.IsTrue(t.Destroyed);

                // A component's own reasons (its focus Transform destroyed) stop it the same way.
                var engine2 = new FakeEngine();
                using (var d2 = new StreamingDriver<FakeTile, FakeMesh>(engine2, world, new DriverSettings()))
                {
                    d2.Stop("the focus Transform was destroyed");
                    Assert.IsFalse(d2.Frame(world.Info.Centre, world.Info.Centre));
                    Assert.AreEqual(1, engine2.Errors.Count);
                    StringAssert.Contains("focus Transform", engine2.Errors[0]);
                }
            }
        }

        [Test]
        public void SourcesOpenWhatExistsAndExplainWhatDoesnt()
        {
            string dir = Path.Combine(Path.GetTempPath(), "relief-sources-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(dir);
            try
            {
                File.Copy(Fixtures.Pack, Path.Combine(dir, "island.rlpack"));
                File.Copy(Fixtures.Planet, Path.Combine(dir, "planet.plnt"));
                File.WriteAllBytes(Path.Combine(dir, "broken.rlpack"), new byte[4096]);
                string error;
                World w;
                Planet p;
                Assert.IsTrue(Sources.TryOpenWorld(dir, "island.rlpack", out w, out error), error);
                Assert.Greater(w.Info.RegionCount, 0);
                w.Dispose();
                Assert.IsTrue(Sources.TryOpenPlanet(dir, "planet.plnt", out p, out error), error);
                Assert.Greater(p.Info.Radius, 0);
                p.Dispose();

                Assert.IsFalse(Sources.TryOpenWorld(dir, "missing.rlpack", out w, out error));
                Assert.IsNull(w);
                StringAssert.Contains("missing.rlpack", error);
                Assert.IsFalse(Sources.TryOpenWorld(dir, "broken.rlpack", out w, out error));
                StringAssert.Contains("broken.rlpack", error);
                StringAssert.Contains("CORRUPT: ", error);
                Assert.IsFalse(Sources.TryOpenPlanet(dir, "island.rlpack", out p, out error), "a pack is no planet");
                Assert.IsFalse(Sources.TryOpenWorld(dir, "", out w, out error));
                StringAssert.Contains("no world", error);
                Assert.IsFalse(Sources.TryOpenWorld("http://127.0.0.1:9/StreamingAssets", "island.rlpack", out w, out error, new HttpOptions { TimeoutMs = 500, Retries = 0, CacheBudgetBytes = 0 }));
                StringAssert.Contains("island.rlpack", error);
            }
            finally
            {
                Directory.Delete(dir, true);
            }
        }
    }
}
