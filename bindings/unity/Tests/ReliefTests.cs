// NUnit tests of the C# layer against the real native library (NUnit 2.6 API, so they run
// under Debian's Mono in CI and in Unity's Test Runner). Inputs come from Tests/Fixtures~
// (Fixtures.cs): a baked world directory, the same world packed, a small planet, the pack's
// URL on a loopback web server, and what a C program compiled from relief.h printed (struct
// sizes, field offsets, constants and the version; written by tests/csharp.rs).
using System;
using System.Collections.Generic;
using System.IO;
using System.Reflection;
using System.Runtime.InteropServices;
using System.Threading;
using NUnit.Framework;
using Relief;
using Relief.Native;

namespace Relief.Tests
{
    /// <summary>A pack read through callbacks, as an Android StreamingAssets loader would.</summary>
    sealed class FileReader : IPackReader
    {
        readonly byte[] bytes;
        public int Reads;
        public FileReader(byte[] bytes) { this.bytes = bytes; }
        public long Length { get { return bytes.Length; } }
        public bool ReadAt(long offset, Span<byte> destination)
        {
            Interlocked.Increment(ref Reads);
            new ReadOnlySpan<byte>(bytes, (int)offset, destination.Length).CopyTo(destination);
            return true;
        }
    }

    [TestFixture]
    public class LayoutTests
    {
        static string[] Layout()
        {
            string path = Fixtures.Layout;
            Assert.IsNotNull(path, "RELIEF_LAYOUT is not set");
            return File.ReadAllLines(path);
        }

        [Test]
        public void EveryStructMatchesTheCCompilersSizeAndOffsets()
        {
            var problems = new List<string>();
            var cFields = new Dictionary<string, int>();
            int structs = 0, fields = 0;
            foreach (string line in Layout())
            {
                string[] w = line.Split(' ');
                if (w[0] == "struct")
                {
                    structs++;
                    Type t = typeof(NativeMethods).Assembly.GetType("Relief.Native." + w[1]);
                    if (t == null) { problems.Add("no C# struct " + w[1]); continue; }
                    int size = Marshal.SizeOf(t);
                    if (size != int.Parse(w[2]))
                        problems.Add(w[1] + ": C# size " + size + ", C size " + w[2]);
                    cFields[w[1]] = 0;
                }
                else if (w[0] == "field")
                {
                    fields++;
                    string[] name = w[1].Split('.');
                    Type t = typeof(NativeMethods).Assembly.GetType("Relief.Native." + name[0]);
                    if (t == null) continue;
                    cFields[name[0]]++;
                    if (t.GetField(name[1]) == null) { problems.Add("no C# field " + w[1]); continue; }
                    int offset = (int)Marshal.OffsetOf(t, name[1]);
                    if (offset != int.Parse(w[2]))
                        problems.Add(w[1] + ": C# offset " + offset + ", C offset " + w[2]);
                }
            }
            foreach (var kv in cFields)
            {
                Type t = typeof(NativeMethods).Assembly.GetType("Relief.Native." + kv.Key);
                int n = t.GetFields(BindingFlags.Public | BindingFlags.Instance).Length;
                if (n != kv.Value)
                    problems.Add(kv.Key + ": " + n + " C# fields, " + kv.Value + " in C");
            }
            Assert.Greater(structs, 10);
            Assert.Greater(fields, 80);
            Assert.IsEmpty(problems, string.Join("\n", problems.ToArray()));
        }

        [Test]
        public void EveryConstantAndTheVersionMatchTheHeader()
        {
            var problems = new List<string>();
            int constants = 0;
            foreach (string line in Layout())
            {
                string[] w = line.Split(' ');
                if (w[0] == "const")
                {
                    constants++;
                    FieldInfo f = typeof(NativeMethods).GetField(w[1]);
                    if (f == null) problems.Add("no C# constant " + w[1]);
                    else if (f.GetValue(null).ToString() != w[2])
                        problems.Add(w[1] + ": C# " + f.GetValue(null) + ", C " + w[2]);
                }
                else if (w[0] == "version")
                    Assert.AreEqual(w[1], ReliefException.Version());
            }
            Assert.Greater(constants, 10);
            Assert.IsEmpty(problems, string.Join("\n", problems.ToArray()));
        }

        /// <summary>struct_size is read by every call that reads or fills a struct, the
        /// *_default calls included: unset or too big it is refused and nothing is written; an
        /// older header's size is honoured and relief writes no byte past it.</summary>
        [Test]
        public void ReliefReadsAndWritesOnlyTheStructSizeItIsGiven()
        {
            uint ok = NativeMethods.RELIEF_STATUS_OK, invalid = NativeMethods.RELIEF_STATUS_INVALID_ARGUMENT;
            uint configSize = (uint)Marshal.SizeOf(typeof(relief_runtime_config));
            var config = new relief_runtime_config();
            Assert.AreEqual(invalid, NativeMethods.relief_runtime_config_default(ref config), "struct_size unset");
            StringAssert.Contains("struct_size", ReliefException.LastError());
            config.struct_size = configSize + 8; // a header newer than the library
            Assert.AreEqual(invalid, NativeMethods.relief_runtime_config_default(ref config));
            Assert.AreEqual(0u, config.max_attempts, "nothing written on failure");
            config.struct_size = configSize;
            Assert.AreEqual(ok, NativeMethods.relief_runtime_config_default(ref config));
            Assert.AreEqual(configSize, config.struct_size);
            Assert.Greater(config.max_attempts, 0u);
            Assert.Greater(config.drop_radius, config.load_radius);
            Assert.AreEqual(config.max_attempts, (uint)RuntimeConfig.Default().MaxAttempts);

            var http = new relief_http_options();
            Assert.AreEqual(invalid, NativeMethods.relief_http_options_default(ref http), "struct_size unset");
            http.struct_size = (uint)Marshal.SizeOf(typeof(relief_http_options));
            Assert.AreEqual(ok, NativeMethods.relief_http_options_default(ref http));
            Assert.AreEqual(10000u, http.timeout_ms);

            using (World world = World.Open(Fixtures.World))
            using (var rt = new Runtime(world, StreamingTests.PiecesOnly()))
            {
                Double3 c = world.Info.Centre;
                Assert.IsTrue(rt.Settle(c.X, 0, c.Z, 60000));
                // 0.2.0's runtime stats ended before the progress fields 0.2.1 added.
                var stats = new relief_runtime_stats();
                stats.struct_size = (uint)Marshal.OffsetOf(typeof(relief_runtime_stats), "pieces_wanted");
                stats.pieces_wanted = 12345;
                Assert.AreEqual(ok, NativeMethods.relief_runtime_get_stats(rt.Handle, ref stats));
                Assert.AreEqual(NativeMethods.RELIEF_RUNTIME_NO_COLLISION | NativeMethods.RELIEF_RUNTIME_NO_LEVELS | NativeMethods.RELIEF_RUNTIME_NO_THINGS, stats.flags);
                Assert.AreEqual(12345u, stats.pieces_wanted, "written past the caller's struct_size");
                stats.struct_size = (uint)Marshal.SizeOf(typeof(relief_runtime_stats));
                Assert.AreEqual(ok, NativeMethods.relief_runtime_get_stats(rt.Handle, ref stats));
                Assert.Greater(stats.pieces_wanted, 0u);
                Assert.AreEqual(stats.pieces_wanted, stats.pieces_ready);
                stats.struct_size += 8;
                Assert.AreEqual(invalid, NativeMethods.relief_runtime_get_stats(rt.Handle, ref stats));
            }
        }

        [Test]
        public void TheLoadedLibrarySpeaksTheAbiTheBindingsExpect()
        {
            Assert.AreEqual(Abi.Expected, (int)NativeMethods.relief_abi_version());
            Abi.Require();
            Abi.Verify(Abi.Expected);
            var e = Assert.Throws<ReliefException>(() => Abi.Verify(Abi.Expected + 1));
            Assert.AreEqual(ReliefStatus.UnsupportedVersion, e.Status);
            StringAssert.Contains("ABI version " + (Abi.Expected + 1), e.Message);
        }
    }

    [TestFixture]
    public class StreamingTests
    {
        static string WorldDir { get { return Fixtures.World; } }
        static string PackPath { get { return Fixtures.Pack; } }

        static void Centre(World w, out double x, out double z)
        {
            double extent = w.Info.RegionSize * w.Info.VertexSpacing;
            x = (w.Info.RegionMinX + w.Info.RegionMaxX + 1) * extent / 2;
            z = (w.Info.RegionMinZ + w.Info.RegionMaxZ + 1) * extent / 2;
        }

        /// <summary>A runtime config streaming regions only (what a server or a query tool needs).</summary>
        internal static RuntimeConfig PiecesOnly()
        {
            RuntimeConfig c = RuntimeConfig.Default();
            c.Flags = RuntimeFlags.NoCollision | RuntimeFlags.NoLevels | RuntimeFlags.NoThings;
            return c;
        }

        [Test]
        public void AWorldOpensByPathFromMemoryAndThroughAReader()
        {
            using (World byPath = World.Open(WorldDir))
            using (World packed = World.Open(PackPath))
            using (World inMemory = World.OpenMemory(File.ReadAllBytes(PackPath)))
            {
                var reader = new FileReader(File.ReadAllBytes(PackPath));
                using (World viaReader = World.OpenReader(reader))
                {
                    Assert.Greater(byPath.Info.RegionCount, 0);
                    foreach (World w in new[] { packed, inMemory, viaReader })
                    {
                        Assert.AreEqual(byPath.Info.RegionCount, w.Info.RegionCount);
                        Assert.AreEqual(byPath.Info.HeightMax, w.Info.HeightMax);
                        Assert.AreEqual(byPath.BiomeName(0), w.BiomeName(0));
                    }
                    Assert.Greater(reader.Reads, 0);
                    // Regions stream through the reader too.
                    double x, z;
                    Centre(viaReader, out x, out z);
                    using (var s = new Runtime(viaReader, PiecesOnly()))
                    using (var t = new TerrainQueries(s))
                    {
                        Assert.IsTrue(s.Settle(x, 0, z, 60000));
                        HeightOrigin origin;
                        t.Height(x, z, out origin);
                        Assert.AreEqual(HeightOrigin.Region, origin);
                    }
                }
            }
        }

        [Test]
        public void AWorldOpensByUrlThroughItsCacheAndStreams()
        {
            string url = Fixtures.Url;
            Assert.IsNotNull(url, "RELIEF_URL is set by tests/csharp.rs");
            string cache = Path.Combine(Path.GetTempPath(), "relief-cs-cache-" + Guid.NewGuid().ToString("N"));
            var options = new HttpOptions();
            Assert.AreEqual(10000u, options.TimeoutMs);
            Assert.Greater(options.CacheBudgetBytes, 0ul);
            options.CacheDirectory = cache;
            options.Headers.Add("X-Relief-Test: csharp");
            try
            {
                using (World local = World.Open(PackPath))
                using (World remote = World.OpenUrl(url, options))
                {
                    Assert.AreEqual(local.Info.RegionCount, remote.Info.RegionCount);
                    Assert.AreEqual(local.BiomeName(0), remote.BiomeName(0));
                    double x, z;
                    Centre(remote, out x, out z);
                    using (var s = new Runtime(remote, PiecesOnly()))
                    using (var t = new TerrainQueries(s))
                    using (var reference = new Runtime(local, PiecesOnly()))
                    using (var rt = new TerrainQueries(reference))
                    {
                        Assert.IsTrue(s.Settle(x, 0, z, 60000));
                        Assert.IsTrue(reference.Settle(x, 0, z, 60000));
                        HeightOrigin origin, origin2;
                        Assert.AreEqual(rt.Height(x + 3, z - 7, out origin2), t.Height(x + 3, z - 7, out origin));
                        Assert.AreEqual(HeightOrigin.Region, origin);
                    }
                }
                Assert.Greater(Directory.GetFiles(cache, "*.rce").Length, 1, "fetched bytes were cached");
            }
            finally
            {
                if (Directory.Exists(cache))
                    Directory.Delete(cache, true);
            }

            var e = Assert.Throws<ReliefException>(delegate { World.OpenUrl(url + ".missing", options); });
            Assert.AreEqual(ReliefStatus.NotFound, e.Status);
            StringAssert.Contains(".missing", e.Message);
            options.Headers.Add("no colon here");
            e = Assert.Throws<ReliefException>(delegate { World.OpenUrl(url, options); });
            Assert.AreEqual(ReliefStatus.InvalidArgument, e.Status);
            StringAssert.Contains("headers[1]", e.Message);
        }

        [Test]
        public void AShortWalkStreamsRegionsChunksAndLevels()
        {
            using (World world = World.Open(WorldDir))
            using (var rt = new Runtime(world))
            using (var terrain = new TerrainQueries(rt))
            {
                double x, z;
                Centre(world, out x, out z);
                Assert.IsTrue(rt.Settle(x, 0, z, 60000));
                Span<StreamEvent> events = new StreamEvent[32];
                // What Settle's updates queued: their level rectangles are gone (GetDirty holds
                // the last update's only).
                while (rt.PollEvents(events) > 0) { }
                int loaded = 0, chunks = 0, views = 0, rects = 0, onChunk = 0;
                for (int frame = 0; frame < 90; frame++)
                {
                    double px = x + frame * 8.0, pz = z + frame * 3.0; // 480 m/s, to cross regions
                    float ground = terrain.Height(px, pz);
                    rt.Update(px, ground, pz);
                    int n;
                    while ((n = rt.PollEvents(events)) > 0)
                    {
                        for (int i = 0; i < n; i++)
                        {
                            StreamEvent e = events[i];
                            Assert.AreNotEqual(EventKind.Failed, e.Kind);
                            Assert.AreNotEqual(EventKind.ChunkFailed, e.Kind);
                            Assert.AreEqual(ReliefStatus.Ok, e.Status);
                            if (e.Kind == EventKind.ChunkReady)
                            {
                                chunks++;
                                Assert.Greater(e.Bytes, 0ul, "a built chunk's bytes");
                            }
                            else if (e.Kind == EventKind.LevelsDirty)
                            {
                                var dirty = new DirtyRect[e.X];
                                Assert.AreEqual(e.X, rt.GetDirty(dirty), "one update: the event's count is GetDirty's");
                                rects += e.X;
                            }
                            if (e.Kind != EventKind.Loaded) continue;
                            loaded++;
                            Assert.Greater(e.Bytes, 0ul, "a loaded region's bytes");
                            using (RegionView v = rt.AcquireRegion(e.X, e.Z))
                            {
                                if (v == null) continue; // unloaded again already
                                Assert.AreEqual(e.X, v.X);
                                Assert.AreEqual(e.Z, v.Z);
                                Assert.AreEqual(v.Size * v.Size, v.Height.Length);
                                Assert.AreEqual(v.Size * v.Size * 4, v.Color.Length);
                                Assert.AreEqual(v.X * v.Size * v.VertexSpacing, v.OriginX, 1e-9);
                                Assert.IsFalse(float.IsNaN(v.Height[v.Height.Length - 1]));
                                views++;
                            }
                        }
                    }
                    ChunkKey key = rt.ChunkAt(new Double3(px, ground, pz));
                    Assert.AreEqual(0, key.Face);
                    using (ChunkView c = rt.AcquireChunk(key))
                    {
                        if (c != null)
                        {
                            onChunk++;
                            Assert.AreEqual(key, c.Key);
                            Assert.AreEqual(c.Samples * c.Samples, c.Heights.Length);
                            Assert.LessOrEqual(c.MinHeight, c.MaxHeight);
                            // A flat world's chunk frame is the world's own.
                            Assert.AreEqual(new Double3(0, 0, 0), c.Origin);
                            Assert.AreEqual(new Double3(1, 0, 0), c.AxisX);
                            Assert.AreEqual(new Double3(0, 1, 0), c.Up);
                            Assert.AreEqual(new Double3(0, 0, 1), c.AxisZ);
                            Assert.That(px, Is.InRange(c.CornerX, c.CornerX + (c.Samples - 1) * c.Spacing));
                        }
                    }
                    Thread.Sleep(16);
                }
                Assert.Greater(loaded, 0, "regions loaded during the walk");
                Assert.Greater(views, 0);
                Assert.Greater(chunks, 0, "collision chunks built");
                Assert.Greater(onChunk, 0);
                Assert.Greater(rects, 0);
                LevelInfo level0 = rt.Level(0);
                Assert.IsTrue(level0.Filled);
                Assert.AreEqual((int)(level0.Size * level0.Size), rt.LevelHeights(0).Length);
                StreamStats pieces = rt.GetStreamStats(StreamKind.Pieces);
                Assert.Greater(pieces.Loads, 0ul);
                Assert.LessOrEqual(pieces.ReadyBytes + pieces.CachedBytes, pieces.BudgetBytes);
                StreamStats collision = rt.GetStreamStats(StreamKind.Chunks);
                Assert.Greater(collision.Loads, 0ul);
                Assert.AreNotEqual(pieces.BudgetBytes, collision.BudgetBytes, "two streams, two budgets");
            }
        }

        [Test]
        public void EveryQueryAnswers()
        {
            using (World world = World.Open(WorldDir))
            using (var rt = new Runtime(world, PiecesOnly()))
            using (var terrain = new TerrainQueries(rt))
            {
                double x, z;
                Centre(world, out x, out z);
                Assert.IsTrue(rt.Settle(x, 0, z, 60000));
                HeightOrigin origin;
                float h = terrain.Height(x, z, out origin);
                Assert.AreEqual(HeightOrigin.Region, origin);
                Assert.That(h, Is.InRange(world.Info.HeightMin, world.Info.HeightMax));

                var xz = new double[2 * 100];
                for (int i = 0; i < 100; i++) { xz[2 * i] = x - 100 + 2 * i; xz[2 * i + 1] = z; }
                var heights = new float[100];
                Assert.AreEqual(100, terrain.Heights(xz, heights));
                for (int i = 0; i < 100; i++)
                    Assert.AreEqual(terrain.Height(xz[2 * i], xz[2 * i + 1]), heights[i]);
                Assert.AreEqual(0, terrain.Heights(new double[0], new float[0]), "(NULL, 0) buffers");

                Double3 n = terrain.Normal(x, z, out origin);
                Assert.AreEqual(HeightOrigin.Region, origin);
                Assert.AreEqual(1.0, n.Length, 1e-5);
                var normals = new float[300];
                terrain.Normals(xz, normals);
                Assert.Greater(normals[1], 0f);

                Ground g = terrain.Ground(x, z);
                Assert.IsTrue(g.Found);
                Assert.IsTrue(g.HasBiome);
                Assert.AreEqual(g.BiomeId, terrain.BiomeId(x, z));
                Assert.IsNotEmpty(world.BiomeName(g.BiomeId));
                Assert.IsFalse(terrain.Ground(x + 1e6, z).Found, "nothing resident there");
                Assert.AreEqual(-1, terrain.BiomeId(x + 1e6, z));

                RiverAt r = terrain.River(x, z, 1e5);
                Assert.IsTrue(r.Found, "some river within 100 km");
                Assert.Greater(r.Width, 0f);
                LakeAt l = terrain.Lake(x, z, 1e5);
                Assert.IsTrue(l.Found, "some lake within 100 km");
                Assert.Greater(l.Level, -1000f);
            }
        }

        [Test]
        public void MisuseIsAReliefExceptionWithItsStatus()
        {
            var e = Assert.Throws<ReliefException>(delegate { World.Open("/nonexistent/relief/world"); });
            Assert.AreEqual(ReliefStatus.NotFound, e.Status);
            StringAssert.StartsWith("NOT_FOUND: ", e.Message, "the status's name, then relief's message");
            StringAssert.Contains("/nonexistent/relief/world", e.Message);
            StringAssert.Contains("missing", e.Message);
            e = Assert.Throws<ReliefException>(delegate { World.OpenMemory(new byte[0]); });
            Assert.AreEqual(ReliefStatus.Corrupt, e.Status);
            StringAssert.StartsWith("CORRUPT: ", e.Message);
            using (World world = World.Open(WorldDir))
            {
                RuntimeConfig config = RuntimeConfig.Default();
                config.LoadRadius = double.NaN;
                e = Assert.Throws<ReliefException>(delegate { new Runtime(world, config); });
                Assert.AreEqual(ReliefStatus.InvalidArgument, e.Status);
                StringAssert.Contains("load_radius", e.Message, "the message names the field");
                config = RuntimeConfig.Default();
                config.LevelSize = 127;
                e = Assert.Throws<ReliefException>(delegate { new Runtime(world, config); });
                StringAssert.Contains("level_size", e.Message);
                config = RuntimeConfig.Default();
                config.CollisionDropRadius = config.CollisionLoadRadius / 2;
                e = Assert.Throws<ReliefException>(delegate { new Runtime(world, config); });
                StringAssert.Contains("collision_drop_radius", e.Message);
                e = Assert.Throws<ReliefException>(delegate { new Runtime(world, default(RuntimeConfig)); });
                Assert.AreEqual(ReliefStatus.InvalidArgument, e.Status, "a config not from Default");
                e = Assert.Throws<ReliefException>(delegate { world.BiomeName(world.Info.BiomeCount); });
                Assert.AreEqual(ReliefStatus.InvalidArgument, e.Status);
                using (var rt = new Runtime(world, PiecesOnly()))
                using (var terrain = new TerrainQueries(rt))
                {
                    Assert.IsNull(rt.AcquireRegion(0, 0), "not resident yet");
                    e = Assert.Throws<ReliefException>(delegate { rt.GetStreamStats((StreamKind)9); });
                    Assert.AreEqual(ReliefStatus.InvalidArgument, e.Status);
                    Assert.Throws<ReliefException>(delegate { terrain.Heights(new double[6], new float[2]); });
                    Assert.Throws<ReliefException>(delegate { terrain.River(0, 0, -1); });
                    double x, z;
                    Centre(world, out x, out z);
                    Assert.IsTrue(rt.Settle(x, 0, z, 60000));
                    var info = world.Info;
                    RegionView v = rt.AcquireRegion((info.RegionMinX + info.RegionMaxX + 1) / 2, (info.RegionMinZ + info.RegionMaxZ + 1) / 2);
                    Assert.IsNotNull(v);
                    v.Dispose();
                    v.Dispose(); // twice is fine
                    Assert.Throws<ObjectDisposedException>(delegate { var s = v.Height; });
                }
                world.Dispose();
                Assert.Throws<ObjectDisposedException>(delegate { new Runtime(world); });
            }
        }
    }

    [TestFixture]
    public class RuntimeTests
    {
        static string WorldDir { get { return Fixtures.World; } }
        static string PlanetPath { get { return Fixtures.Planet; } }

        /// <summary>Drains events; counts them by kind and checks what each names. After one
        /// update (<paramref name="oneUpdate"/>) a LEVELS_DIRTY event names exactly the
        /// rectangles GetDirty returns.</summary>
        /// <summary>A thing chunk as the docs describe it: runs cover the things in order, each
        /// thing's Godot rows and Unity matrix are one transform, its origin its position.</summary>
        static void CheckThings(ThingsView t)
        {
            int next = 0;
            foreach (ThingRun r in t.Runs)
            {
                Assert.AreEqual(next, r.Start);
                next += r.Count;
            }
            Assert.AreEqual(t.Count, next);
            float[] rows = t.Rows.ToArray(), m = t.Matrices.ToArray(), p = t.Positions.ToArray();
            for (int i = 0; i < t.Count; i++)
            {
                for (int c = 0; c < 4; c++)
                    for (int r = 0; r < 3; r++)
                        Assert.AreEqual(rows[i * 12 + r * 4 + c], m[i * 16 + c * 4 + r]);
                Assert.AreEqual(1f, m[i * 16 + 15]);
                Assert.AreEqual(p[i * 3], rows[i * 12 + 3]);
                Assert.AreEqual(p[i * 3 + 1], rows[i * 12 + 7]);
            }
            foreach (ThingCollider c in t.Colliders.ToArray())
                Assert.IsTrue(c.Thing < t.Count && c.Shape != ThingShape.None);
        }

        static void Drain(Runtime rt, int[] byKind, ref int views, bool oneUpdate)
        {
            Span<StreamEvent> events = new StreamEvent[64];
            int n;
            while ((n = rt.PollEvents(events)) > 0)
            {
                for (int i = 0; i < n; i++)
                {
                    StreamEvent e = events[i];
                    Assert.Less((int)e.Kind, byKind.Length);
                    byKind[(int)e.Kind]++;
                    if (e.Kind == EventKind.LevelsDirty)
                    {
                        Assert.Greater(e.X, 0);
                        if (oneUpdate)
                            Assert.AreEqual(e.X, rt.GetDirty(new DirtyRect[e.X]));
                    }
                    else if (e.Kind == EventKind.ChunkReady)
                    {
                        using (ChunkView c = rt.AcquireChunk(new ChunkKey(e.Face, e.X, e.Z)))
                            if (c != null) { Assert.AreEqual(c.Samples * c.Samples, c.Heights.Length); views++; }
                    }
                    else if (e.Kind == EventKind.ThingsReady)
                    {
                        using (ThingsView t = rt.AcquireThings(e.ThingKey))
                            if (t != null) { CheckThings(t); views++; }
                    }
                    else if (e.Kind == EventKind.Loaded && rt.World != null)
                    {
                        using (RegionView v = rt.AcquireRegion(e.X, e.Z))
                            if (v != null) { Assert.AreEqual(v.Size * v.Size, v.Height.Length); views++; }
                    }
                    else if (e.Kind == EventKind.Loaded)
                    {
                        using (TileView t = rt.AcquireTile(e.Face, e.X, e.Z))
                            if (t != null) views++;
                    }
                }
            }
        }

        /// <summary>The world's kinds by name, and the things near a point: nearest first, each
        /// one its chunk's thing at its index.</summary>
        [Test]
        public void ThingsNearAPointAreTheirChunksOwn()
        {
            using (World world = World.Open(WorldDir))
            using (var rt = new Runtime(world))
            {
                ThingKind[] kinds = rt.ThingKinds;
                Assert.AreEqual(6, kinds.Length);
                Assert.AreEqual("conifer", kinds[0].Name);
                Assert.AreEqual(ThingShape.Capsule, kinds[0].Shape);
                Double3 c = world.Info.Centre;
                Assert.IsTrue(rt.Settle(c.X, 0, c.Z, 60000));
                var none = new ThingHit[0];
                int all = rt.ThingsWithin(c, 60, none);
                Assert.Greater(all, 0, "things within 60 m of the middle");
                var hits = new ThingHit[all + 3];
                Assert.AreEqual(all, rt.ThingsWithin(c, 60, hits));
                for (int i = 0; i < all; i++)
                {
                    Assert.LessOrEqual(hits[i].Distance, 60.0);
                    if (i > 0) Assert.LessOrEqual(hits[i - 1].Distance, hits[i].Distance);
                    using (ThingsView t = rt.AcquireThings(hits[i].Chunk))
                    {
                        Assert.IsNotNull(t);
                        Assert.AreEqual(hits[i].Id, t.Ids.ToArray()[hits[i].Index]);
                    }
                }
                Assert.Throws<ReliefException>(delegate { rt.ThingsWithin(c, double.NaN, none); });
                Assert.IsNull(rt.AcquireThings(new ThingKey(ThingBand.Near, 0, 100000, 0)));
            }
        }

        [Test]
        public void OneUpdateAFrameDrivesRegionsChunksAndLevels()
        {
            using (World world = World.Open(WorldDir))
            using (var rt = new Runtime(world))
            using (var terrain = new TerrainQueries(rt))
            {
                double extent = world.Info.RegionSize * world.Info.VertexSpacing;
                double x = (world.Info.RegionMinX + world.Info.RegionMaxX + 1) * extent / 2;
                double z = (world.Info.RegionMinZ + world.Info.RegionMaxZ + 1) * extent / 2;
                Assert.IsTrue(rt.Settle(x, 0, z, 60000));
                var byKind = new int[12];
                int views = 0;
                Drain(rt, byKind, ref views, false);
                RuntimeStats stats = rt.Stats;
                Assert.AreEqual(RuntimeFlags.None, stats.Flags);
                StreamStats pieces = rt.GetStreamStats(StreamKind.Pieces), chunks = rt.GetStreamStats(StreamKind.Chunks);
                Assert.AreEqual(pieces.Ready, byKind[(int)EventKind.Loaded]);
                Assert.AreEqual(chunks.Ready, byKind[(int)EventKind.ChunkReady]);
                Assert.Greater(byKind[(int)EventKind.LevelsDirty], 0);
                int thingsReady = 0;
                foreach (ThingBand b in new[] { ThingBand.Near, ThingBand.Mid, ThingBand.Far })
                    thingsReady += rt.GetStreamStats(Runtime.ThingStream(b)).Ready;
                Assert.AreEqual(thingsReady, byKind[(int)EventKind.ThingsReady]);
                Assert.Greater(stats.ThingsWanted, 0);
                Assert.AreEqual(stats.ThingsWanted, stats.ThingsReady);
                // Settled: the loading screen's progress is complete.
                Assert.Greater(stats.PiecesWanted, 0);
                Assert.AreEqual(stats.PiecesWanted, stats.PiecesReady);
                Assert.AreEqual(pieces.Ready, stats.PiecesReady);
                Assert.Greater(stats.ChunksWanted, 0);
                Assert.AreEqual(stats.ChunksWanted, stats.ChunksReady);
                Assert.AreEqual(chunks.Ready, stats.ChunksReady);
                for (int frame = 0; frame < 60; frame++)
                {
                    double px = x + frame * 8.0, pz = z + frame * 3.0;
                    rt.Update(px, terrain.Height(px, pz), pz);
                    Drain(rt, byKind, ref views, true);
                    Thread.Sleep(16);
                }
                Assert.AreEqual(0, byKind[(int)EventKind.Failed] + byKind[(int)EventKind.ChunkFailed] + byKind[(int)EventKind.ThingsFailed]);
                Assert.Greater(byKind[(int)EventKind.Unloaded] + byKind[(int)EventKind.ChunkDropped], 0);
                Assert.Greater(views, 0);
                LevelInfo level0 = rt.Level(0);
                Assert.IsTrue(level0.Filled);
                Assert.AreEqual((int)(level0.Size * level0.Size), rt.LevelHeights(0).Length);
                Assert.Greater(rt.Stats.LevelCellsTotal, 0ul);
                Assert.GreaterOrEqual(rt.Stats.UpdateMaxUs, rt.Stats.UpdateP50Us);
            }
        }

        [Test]
        public void PartsAreOptionalAndMisuseIsAnException()
        {
            using (World world = World.Open(WorldDir))
            {
                RuntimeConfig config = RuntimeConfig.Default();
                config.Flags = RuntimeFlags.NoCollision | RuntimeFlags.NoLevels;
                using (var rt = new Runtime(world, config))
                {
                    Assert.IsTrue(rt.Settle(0, 0, 0, 60000));
                    RuntimeStats stats = rt.Stats;
                    Assert.AreEqual(RuntimeFlags.NoCollision | RuntimeFlags.NoLevels, stats.Flags);
                    Assert.AreEqual(0, stats.ChunksWanted);
                    Assert.AreEqual(0, stats.ChunksReady);
                    Assert.AreEqual(stats.PiecesWanted, stats.PiecesReady);
                    Assert.AreEqual(0ul, stats.LevelCellsTotal);
                    Assert.Greater(rt.GetStreamStats(StreamKind.Pieces).Ready, 0);
                    var e = Assert.Throws<ReliefException>(delegate { rt.GetStreamStats(StreamKind.Chunks); });
                    Assert.AreEqual(ReliefStatus.InvalidArgument, e.Status);
                    e = Assert.Throws<ReliefException>(delegate { rt.Level(0); });
                    Assert.AreEqual(ReliefStatus.InvalidArgument, e.Status);
                    Assert.Throws<ReliefException>(delegate { rt.AcquireChunk(new ChunkKey(0, 0, 0)); });
                    Assert.Throws<ReliefException>(delegate { rt.ChunkAt(new Double3(0, 0, 0)); });
                    Assert.AreEqual(0, rt.GetDirty(new DirtyRect[0]), "no levels, no rectangles");
                    Assert.Throws<ReliefException>(delegate { rt.Update(double.NaN, 0, 0); });
                    rt.Update(new Double3(0, 0, 0), new Double3(900, 40, 700)); // the camera elsewhere: fine
                    Assert.Throws<ReliefException>(delegate { rt.Update(new Double3(0, 0, 0), new Double3(0, double.PositiveInfinity, 0)); });
                    Assert.Throws<ReliefException>(delegate { rt.AcquireTile(0, 0, 0); });
                    Assert.Throws<ReliefException>(delegate { new PlanetQueries(rt); });
                }
                config = RuntimeConfig.Default();
                config.Flags = (RuntimeFlags)0x80;
                Assert.Throws<ReliefException>(delegate { new Runtime(world, config); });
            }
        }

        [Test]
        public void APlanetRunsThroughTheSameObject()
        {
            using (Planet planet = Planet.Open(PlanetPath))
            using (var rt = new Runtime(planet))
            using (var terrain = new PlanetQueries(rt))
            {
                Double3 pos = terrain.PositionAt(0, 0);
                Assert.Throws<ReliefException>(delegate { rt.Update(0, 0, 0); });
                Assert.IsTrue(rt.Settle(pos.X, pos.Y, pos.Z, 60000));
                var byKind = new int[12];
                int views = 0;
                Drain(rt, byKind, ref views, false);
                Assert.Greater(byKind[(int)EventKind.Loaded], 0);
                Assert.Greater(byKind[(int)EventKind.ChunkReady], 0);
                Assert.Greater(views, 0);
                ChunkKey key = rt.ChunkAt(pos);
                using (ChunkView c = rt.AcquireChunk(key))
                {
                    Assert.IsNotNull(c, "the chunk underfoot is built");
                    Assert.AreEqual(key, c.Key);
                }
                Assert.IsTrue(rt.Level(0).Filled);
            }
        }
    }

    [TestFixture]
    public class PlanetTests
    {
        static string PlanetPath { get { return Fixtures.Planet; } }

        [Test]
        public void APlanetOpensByPathFromMemoryAndThroughAReader()
        {
            using (Planet byPath = Planet.Open(PlanetPath))
            using (Planet inMemory = Planet.OpenMemory(File.ReadAllBytes(PlanetPath)))
            {
                var reader = new FileReader(File.ReadAllBytes(PlanetPath));
                using (Planet viaReader = Planet.OpenReader(reader))
                {
                    Assert.AreEqual(7, byPath.Info.Version);
                    Assert.IsTrue(byPath.Info.HasV7Fields);
                    foreach (Planet p in new[] { inMemory, viaReader })
                    {
                        Assert.AreEqual(byPath.Info.FaceResolution, p.Info.FaceResolution);
                        Assert.AreEqual(byPath.Info.ReachCount, p.Info.ReachCount);
                        Assert.AreEqual(byPath.BiomeName(0), p.BiomeName(0));
                    }
                    Assert.Greater(reader.Reads, 0);
                }
            }
        }

        [Test]
        public void LatLonInvertsPositionAtEverywhere()
        {
            using (Planet planet = Planet.Open(PlanetPath))
            using (var rt = new Runtime(planet))
            using (var terrain = new PlanetQueries(rt))
            {
                var random = new Random(15);
                for (int i = 0; i < 500; i++)
                {
                    double lat = random.NextDouble() * 178 - 89, lon = random.NextDouble() * 359.9 - 179.9;
                    // Any point along the ray answers for the ground under it.
                    Double3 p = terrain.PositionAt(lat, lon) * (0.5 + random.NextDouble());
                    double la, lo;
                    terrain.LatLon(p, out la, out lo);
                    Assert.AreEqual(lat, la, 1e-9, "latitude at " + p);
                    Assert.AreEqual(lon, lo, 1e-9, "longitude at " + p);
                }
                double poleLat, poleLon;
                terrain.LatLon(planet.Info.PolarAxis, out poleLat, out poleLon);
                Assert.AreEqual(90, poleLat, 1e-9);
                Assert.AreEqual(0, poleLon);
            }
        }

        [Test]
        public void AWalkOnThePlanetStreamsTilesChunksAndRingsAndEveryQueryAnswers()
        {
            using (Planet planet = Planet.Open(PlanetPath))
            using (var rt = new Runtime(planet))
            using (var terrain = new PlanetQueries(rt))
            {
                Double3 pos = terrain.PositionAt(0, 0);
                Assert.IsTrue(rt.Settle(pos.X, pos.Y, pos.Z, 60000));
                Span<StreamEvent> events = new StreamEvent[32];
                int loaded = 0, tiles = 0, chunks = 0, onChunk = 0, rects = 0;
                for (int frame = 0; frame < 90; frame++)
                {
                    pos = terrain.PositionAt(0, frame * 0.2);
                    rt.Update(pos.X, pos.Y, pos.Z);
                    int n;
                    while ((n = rt.PollEvents(events)) > 0)
                    {
                        for (int i = 0; i < n; i++)
                        {
                            StreamEvent ev = events[i];
                            Assert.AreNotEqual(EventKind.Failed, ev.Kind);
                            Assert.AreNotEqual(EventKind.ChunkFailed, ev.Kind);
                            Assert.Less(ev.Face, 6);
                            if (ev.Kind == EventKind.ChunkReady) chunks++;
                            if (ev.Kind == EventKind.LevelsDirty) rects += ev.X;
                            if (ev.Kind != EventKind.Loaded) continue;
                            loaded++;
                            using (TileView t = rt.AcquireTile(ev.Face, ev.X, ev.Z))
                            {
                                if (t == null) continue;
                                Assert.AreEqual(ev.Face, t.Face);
                                Assert.AreEqual(ev.X, t.TileX);
                                Assert.AreEqual(ev.Z, t.TileY);
                                Assert.AreEqual(planet.Info.TileSize, t.Size);
                                int count = t.Size * t.Size;
                                Assert.AreEqual(count, t.Height.Length);
                                Assert.AreEqual(count, t.Biome.Length);
                                Assert.AreEqual(count, t.Lake.Length);
                                Assert.AreEqual(count, t.Sediment.Length);
                                Assert.AreEqual(count, t.Precipitation.Length);
                                tiles++;
                            }
                        }
                    }
                    using (ChunkView c = rt.AcquireChunk(rt.ChunkAt(pos)))
                    {
                        if (c != null)
                        {
                            onChunk++;
                            Assert.Greater(c.Up.Dot(pos), 0.0, "the chunk's up points out of the planet");
                            Assert.AreEqual(0.0, c.AxisX.Dot(c.Up), 1e-9, "a tangent frame");
                            Assert.AreEqual(c.Samples * c.Samples, c.Heights.Length);
                        }
                    }
                    Thread.Sleep(16);
                }
                Assert.Greater(loaded, 0);
                Assert.Greater(tiles, 0);
                Assert.Greater(chunks, 0);
                Assert.Greater(onChunk, 0);
                Assert.Greater(rects, 0);
                Assert.IsTrue(rt.Level(0).Filled);

                HeightOrigin origin;
                float h = terrain.Height(pos, out origin);
                Assert.AreEqual(HeightOrigin.Region, origin);
                Assert.That(h, Is.InRange(planet.Info.HeightMin, planet.Info.HeightMax));
                Assert.AreEqual(planet.Info.Radius + h, terrain.Surface(pos, planet.Info.Radius).Length, 1e-6);
                var line = new double[3 * 16];
                for (int i = 0; i < 16; i++)
                {
                    Double3 p = terrain.PositionAt(0, 17.8 + i * 0.01);
                    line[3 * i] = p.X; line[3 * i + 1] = p.Y; line[3 * i + 2] = p.Z;
                }
                var hs = new float[16];
                terrain.Heights(line, hs);
                Assert.AreEqual(terrain.Height(new Double3(line[0], line[1], line[2])), hs[0]);
                Assert.Greater(terrain.Normal(pos, out origin).Dot(pos), 0.0);
                double biome, sediment, rain;
                Assert.IsTrue(terrain.Sample(pos, PlanetField.Biome, out biome));
                Assert.IsNotEmpty(planet.BiomeName((int)biome));
                Assert.IsTrue(terrain.Sample(pos, PlanetField.Sediment, out sediment));
                Assert.GreaterOrEqual(sediment, 0.0);
                Assert.IsTrue(terrain.Sample(pos, PlanetField.Precipitation, out rain));
                Assert.Greater(rain, 0.0);
                Assert.IsTrue(terrain.River(pos, 1e6).Found, "some river within 1000 km");
                Assert.IsTrue(terrain.Lake(pos, 1e6).Found, "some lake within 1000 km");
                var e = Assert.Throws<ReliefException>(delegate { terrain.Sample(pos, (PlanetField)7, out biome); });
                Assert.AreEqual(ReliefStatus.InvalidArgument, e.Status);
                e = Assert.Throws<ReliefException>(delegate { terrain.Height(new Double3(0, 0, 0)); });
                Assert.AreEqual(ReliefStatus.InvalidArgument, e.Status);
            }
        }
    }
}
