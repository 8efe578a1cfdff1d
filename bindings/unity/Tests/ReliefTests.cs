// NUnit tests of the C# layer against the real native library (NUnit 2.6 API, so they run
// under Debian's Mono in CI and in Unity's Test Runner). Inputs come from the environment:
//   RELIEF_WORLD   a baked world directory
//   RELIEF_PACK    the same world packed (relief pack)
//   RELIEF_URL     the same pack served over HTTP (nginx on a loopback port)
//   RELIEF_LAYOUT  what a C program compiled from relief.h printed: struct sizes, field
//                  offsets, constants and the version (written by tests/csharp.rs)
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
            string path = Environment.GetEnvironmentVariable("RELIEF_LAYOUT");
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

        [Test]
        public void TheLoadedLibrarySpeaksTheAbiTheBindingsExpect()
        {
            Assert.AreEqual(Abi.Expected, NativeMethods.relief_abi_version());
            Abi.Require();
            Abi.Verify(Abi.Expected);
            var e = Assert.Throws<ReliefException>(() => Abi.Verify(Abi.Expected + 1));
            Assert.AreEqual(NativeMethods.RELIEF_STATUS_UNSUPPORTED_VERSION, e.Status);
            StringAssert.Contains("ABI version " + (Abi.Expected + 1), e.Message);
        }
    }

    [TestFixture]
    public class StreamingTests
    {
        static string WorldDir { get { return Environment.GetEnvironmentVariable("RELIEF_WORLD"); } }
        static string PackPath { get { return Environment.GetEnvironmentVariable("RELIEF_PACK"); } }

        static void Centre(World w, out double x, out double z)
        {
            double extent = w.Info.region_size * w.Info.vertex_spacing;
            x = (w.Info.region_min_x + w.Info.region_max_x + 1) * extent / 2;
            z = (w.Info.region_min_z + w.Info.region_max_z + 1) * extent / 2;
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
                    Assert.Greater(byPath.Info.region_count, 0);
                    foreach (World w in new[] { packed, inMemory, viaReader })
                    {
                        Assert.AreEqual(byPath.Info.region_count, w.Info.region_count);
                        Assert.AreEqual(byPath.Info.height_max, w.Info.height_max);
                        Assert.AreEqual(byPath.BiomeName(0), w.BiomeName(0));
                    }
                    Assert.Greater(reader.Reads, 0);
                    // Regions stream through the reader too.
                    double x, z;
                    Centre(viaReader, out x, out z);
                    using (var s = new Streamer(viaReader))
                    using (var t = new Terrain(s))
                    {
                        Assert.IsTrue(s.Settle(x, 0, z, 60000));
                        uint origin;
                        t.Height(x, z, out origin);
                        Assert.AreEqual(NativeMethods.RELIEF_ORIGIN_REGION, origin);
                    }
                }
            }
        }

        [Test]
        public void AWorldOpensByUrlThroughItsCacheAndStreams()
        {
            string url = Environment.GetEnvironmentVariable("RELIEF_URL");
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
                    Assert.AreEqual(local.Info.region_count, remote.Info.region_count);
                    Assert.AreEqual(local.BiomeName(0), remote.BiomeName(0));
                    double x, z;
                    Centre(remote, out x, out z);
                    using (var s = new Streamer(remote))
                    using (var t = new Terrain(s))
                    using (var reference = new Streamer(local))
                    using (var rt = new Terrain(reference))
                    {
                        Assert.IsTrue(s.Settle(x, 0, z, 60000));
                        Assert.IsTrue(reference.Settle(x, 0, z, 60000));
                        uint origin, origin2;
                        Assert.AreEqual(rt.Height(x + 3, z - 7, out origin2), t.Height(x + 3, z - 7, out origin));
                        Assert.AreEqual(NativeMethods.RELIEF_ORIGIN_REGION, origin);
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
            Assert.AreEqual(NativeMethods.RELIEF_STATUS_NOT_FOUND, e.Status);
            StringAssert.Contains(".missing", e.Message);
            options.Headers.Add("no colon here");
            e = Assert.Throws<ReliefException>(delegate { World.OpenUrl(url, options); });
            Assert.AreEqual(NativeMethods.RELIEF_STATUS_INVALID_ARGUMENT, e.Status);
            StringAssert.Contains("headers[1]", e.Message);
        }

        [Test]
        public void AShortWalkStreamsRegionsChunksAndClipmapLevels()
        {
            using (World world = World.Open(WorldDir))
            using (var streamer = new Streamer(world))
            using (var terrain = new Terrain(streamer))
            using (var collision = new Collision(streamer, 0))
            using (var clipmap = new Clipmap(terrain))
            {
                double x, z;
                Centre(world, out x, out z);
                Assert.IsTrue(streamer.Settle(x, 0, z, 60000));
                Span<relief_event> events = new relief_event[32];
                int loaded = 0, chunks = 0, views = 0, rects = 0, onChunk = 0;
                for (int frame = 0; frame < 90; frame++)
                {
                    double px = x + frame * 8.0, pz = z + frame * 3.0; // 480 m/s, to cross regions
                    float ground = terrain.Height(px, pz);
                    streamer.Update(px, ground, pz);
                    collision.Update(px, ground, pz);
                    rects += clipmap.Update(px, ground, pz);
                    int n;
                    while ((n = streamer.PollEvents(events)) > 0)
                    {
                        for (int i = 0; i < n; i++)
                        {
                            Assert.AreNotEqual(NativeMethods.RELIEF_EVENT_FAILED, events[i].kind);
                            if (events[i].kind != NativeMethods.RELIEF_EVENT_LOADED) continue;
                            loaded++;
                            rects += clipmap.RefreshRegion(events[i].x, events[i].z);
                            using (RegionView v = streamer.AcquireRegion(events[i].x, events[i].z))
                            {
                                if (v == null) continue; // unloaded again already
                                Assert.AreEqual(v.Size * v.Size, v.Height.Length);
                                Assert.AreEqual(v.Size * v.Size * 4, v.Color.Length);
                                Assert.IsFalse(float.IsNaN(v.Height[v.Height.Length - 1]));
                                views++;
                            }
                        }
                    }
                    while ((n = collision.PollEvents(events)) > 0)
                        for (int i = 0; i < n; i++)
                            if (events[i].kind == NativeMethods.RELIEF_EVENT_LOADED) chunks++;
                    int cx, cz;
                    uint cface;
                    collision.ChunkAt(px, ground, pz, out cface, out cx, out cz);
                    Assert.AreEqual(0u, cface);
                    using (ChunkView c = collision.AcquireChunk(cface, cx, cz))
                    {
                        if (c != null)
                        {
                            onChunk++;
                            Assert.AreEqual(c.Raw.samples * c.Raw.samples, (uint)c.Heights.Length);
                            Assert.LessOrEqual(c.Raw.min_height, c.Raw.max_height);
                        }
                    }
                    Thread.Sleep(16);
                }
                Assert.Greater(loaded, 0, "regions loaded during the walk");
                Assert.Greater(views, 0);
                Assert.Greater(chunks, 0, "collision chunks built");
                Assert.Greater(onChunk, 0);
                Assert.Greater(rects, 0);
                var dirty = new relief_dirty_rect[64];
                Assert.LessOrEqual(clipmap.GetDirty(dirty), 64);
                relief_clipmap_level level0 = clipmap.Level(0);
                Assert.AreEqual(1u, level0.filled);
                Assert.AreEqual((int)(level0.size * level0.size), clipmap.Heights(0).Length);
                relief_stream_stats stats = streamer.Stats;
                Assert.Greater(stats.loads, 0ul);
                Assert.LessOrEqual(stats.ready_bytes + stats.cached_bytes, stats.budget_bytes);
                Assert.Greater(collision.Stats.loads, 0ul);
            }
        }

        [Test]
        public void EveryQueryAnswers()
        {
            using (World world = World.Open(WorldDir))
            using (var streamer = new Streamer(world))
            using (var terrain = new Terrain(streamer))
            {
                double x, z;
                Centre(world, out x, out z);
                Assert.IsTrue(streamer.Settle(x, 0, z, 60000));
                uint origin;
                float h = terrain.Height(x, z, out origin);
                Assert.AreEqual(NativeMethods.RELIEF_ORIGIN_REGION, origin);
                Assert.That(h, Is.InRange(world.Info.height_min, world.Info.height_max));

                var xz = new double[2 * 100];
                for (int i = 0; i < 100; i++) { xz[2 * i] = x - 100 + 2 * i; xz[2 * i + 1] = z; }
                var heights = new float[100];
                Assert.AreEqual(100, terrain.Heights(xz, heights));
                for (int i = 0; i < 100; i++)
                    Assert.AreEqual(terrain.Height(xz[2 * i], xz[2 * i + 1]), heights[i]);
                Assert.AreEqual(0, terrain.Heights(new double[0], new float[0]), "(NULL, 0) buffers");

                Span<float> n = stackalloc float[3];
                Assert.AreEqual(NativeMethods.RELIEF_ORIGIN_REGION, terrain.Normal(x, z, n));
                Assert.AreEqual(1.0, Math.Sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), 1e-5);
                var normals = new float[300];
                terrain.Normals(xz, normals);
                Assert.Greater(normals[1], 0f);

                relief_ground g = terrain.Ground(x, z);
                Assert.AreEqual(1u, g.found);
                Assert.AreEqual(1u, g.has_biome);
                Assert.AreEqual((int)g.biome, terrain.Biome(x, z));
                Assert.IsNotEmpty(world.BiomeName(g.biome));
                Assert.AreEqual(0u, terrain.Ground(x + 1e6, z).found, "nothing resident there");
                Assert.AreEqual(-1, terrain.Biome(x + 1e6, z));

                relief_river r = terrain.River(x, z, 1e5);
                Assert.AreEqual(1u, r.found, "some river within 100 km");
                Assert.Greater(r.width_m, 0f);
                relief_lake l = terrain.Lake(x, z, 1e5);
                Assert.AreEqual(1u, l.found, "some lake within 100 km");
                Assert.Greater(l.level_m, -1000f);
            }
        }

        [Test]
        public void MisuseIsAReliefExceptionWithItsStatus()
        {
            var e = Assert.Throws<ReliefException>(delegate { World.Open("/nonexistent/relief/world"); });
            Assert.AreEqual(NativeMethods.RELIEF_STATUS_NOT_FOUND, e.Status);
            StringAssert.Contains("missing", e.Message);
            e = Assert.Throws<ReliefException>(delegate { World.OpenMemory(new byte[0]); });
            Assert.AreEqual(NativeMethods.RELIEF_STATUS_CORRUPT, e.Status);
            e = Assert.Throws<ReliefException>(delegate { Streamer.DefaultConfig(9); });
            Assert.AreEqual(NativeMethods.RELIEF_STATUS_INVALID_ARGUMENT, e.Status);
            using (World world = World.Open(WorldDir))
            {
                var config = Streamer.DefaultConfig(NativeMethods.RELIEF_STREAM_KIND_REGIONS);
                config.struct_size += 8; // a "newer" caller
                e = Assert.Throws<ReliefException>(delegate { new Streamer(world, config); });
                Assert.AreEqual(NativeMethods.RELIEF_STATUS_INVALID_ARGUMENT, e.Status);
                config = Streamer.DefaultConfig(NativeMethods.RELIEF_STREAM_KIND_REGIONS);
                config.load_radius = double.NaN;
                Assert.Throws<ReliefException>(delegate { new Streamer(world, config); });
                e = Assert.Throws<ReliefException>(delegate { world.BiomeName(world.Info.biome_count); });
                Assert.AreEqual(NativeMethods.RELIEF_STATUS_INVALID_ARGUMENT, e.Status);
                using (var streamer = new Streamer(world))
                using (var terrain = new Terrain(streamer))
                {
                    Assert.IsNull(streamer.AcquireRegion(0, 0), "not resident yet");
                    Assert.Throws<ReliefException>(delegate { terrain.Heights(new double[6], new float[2]); });
                    Assert.Throws<ReliefException>(delegate { terrain.River(0, 0, -1); });
                    var bad = Clipmap.DefaultConfig();
                    bad.size = 127;
                    Assert.Throws<ReliefException>(delegate { new Clipmap(terrain, bad); });
                    double x, z;
                    Centre(world, out x, out z);
                    streamer.Settle(x, 0, z, 60000);
                    var info = world.Info;
                    RegionView v = streamer.AcquireRegion((info.region_min_x + info.region_max_x + 1) / 2, (info.region_min_z + info.region_max_z + 1) / 2);
                    Assert.IsNotNull(v);
                    v.Dispose();
                    v.Dispose(); // twice is fine
                    Assert.Throws<ObjectDisposedException>(delegate { var s = v.Height; });
                }
                world.Dispose();
                Assert.Throws<ObjectDisposedException>(delegate { new Streamer(world); });
            }
        }
    }

    [TestFixture]
    public class RuntimeTests
    {
        static string WorldDir { get { return Environment.GetEnvironmentVariable("RELIEF_WORLD"); } }
        static string PlanetPath { get { return Environment.GetEnvironmentVariable("RELIEF_PLANET"); } }

        /// <summary>Drains events; counts them by kind and checks what each names. After one
        /// update (<paramref name="oneUpdate"/>) a LEVELS_DIRTY event names exactly the
        /// rectangles GetDirty returns.</summary>
        static void Drain(Runtime rt, int[] byKind, ref int views, bool oneUpdate)
        {
            Span<relief_event> events = new relief_event[64];
            int n;
            while ((n = rt.PollEvents(events)) > 0)
            {
                for (int i = 0; i < n; i++)
                {
                    relief_event e = events[i];
                    Assert.Less(e.kind, 7u);
                    byKind[e.kind]++;
                    if (e.kind == NativeMethods.RELIEF_EVENT_LEVELS_DIRTY)
                    {
                        Assert.Greater(e.x, 0);
                        if (oneUpdate)
                            Assert.AreEqual(e.x, rt.GetDirty(new relief_dirty_rect[e.x]));
                    }
                    else if (e.kind == NativeMethods.RELIEF_EVENT_CHUNK_READY)
                    {
                        using (ChunkView c = rt.AcquireChunk(e.face, e.x, e.z))
                            if (c != null) { Assert.AreEqual(c.Raw.samples * c.Raw.samples, (uint)c.Heights.Length); views++; }
                    }
                    else if (e.kind == NativeMethods.RELIEF_EVENT_LOADED && rt.World != null)
                    {
                        using (RegionView v = rt.AcquireRegion(e.x, e.z))
                            if (v != null) { Assert.AreEqual(v.Size * v.Size, v.Height.Length); views++; }
                    }
                    else if (e.kind == NativeMethods.RELIEF_EVENT_LOADED)
                    {
                        using (TileView t = rt.AcquireTile(e.face, (uint)e.x, (uint)e.z))
                            if (t != null) views++;
                    }
                }
            }
        }

        [Test]
        public void OneUpdateAFrameDrivesRegionsChunksAndLevels()
        {
            using (World world = World.Open(WorldDir))
            using (var rt = new Runtime(world))
            using (var terrain = new Terrain(rt))
            {
                double extent = world.Info.region_size * world.Info.vertex_spacing;
                double x = (world.Info.region_min_x + world.Info.region_max_x + 1) * extent / 2;
                double z = (world.Info.region_min_z + world.Info.region_max_z + 1) * extent / 2;
                Assert.IsTrue(rt.Settle(x, 0, z, 60000));
                var byKind = new int[7];
                int views = 0;
                Drain(rt, byKind, ref views, false);
                relief_runtime_stats stats = rt.Stats;
                Assert.AreEqual(1u, stats.has_chunks);
                Assert.AreEqual((int)stats.pieces.ready, byKind[NativeMethods.RELIEF_EVENT_LOADED]);
                Assert.AreEqual((int)stats.chunks.ready, byKind[NativeMethods.RELIEF_EVENT_CHUNK_READY]);
                Assert.Greater(byKind[NativeMethods.RELIEF_EVENT_LEVELS_DIRTY], 0);
                for (int frame = 0; frame < 60; frame++)
                {
                    double px = x + frame * 8.0, pz = z + frame * 3.0;
                    rt.Update(px, terrain.Height(px, pz), pz);
                    Drain(rt, byKind, ref views, true);
                    Thread.Sleep(16);
                }
                Assert.AreEqual(0, byKind[NativeMethods.RELIEF_EVENT_FAILED] + byKind[NativeMethods.RELIEF_EVENT_CHUNK_FAILED]);
                Assert.Greater(byKind[NativeMethods.RELIEF_EVENT_UNLOADED] + byKind[NativeMethods.RELIEF_EVENT_CHUNK_DROPPED], 0);
                Assert.Greater(views, 0);
                relief_clipmap_level level0 = rt.Level(0);
                Assert.AreEqual(1u, level0.filled);
                Assert.AreEqual((int)(level0.size * level0.size), rt.LevelHeights(0).Length);
                Assert.Greater(rt.Stats.level_cells_total, 0ul);
                Assert.GreaterOrEqual(rt.Stats.update_max_us, rt.Stats.update_p50_us);
            }
        }

        [Test]
        public void PartsAreOptionalAndMisuseIsAnException()
        {
            using (World world = World.Open(WorldDir))
            {
                relief_runtime_config config = Runtime.DefaultConfig();
                config.flags = NativeMethods.RELIEF_RUNTIME_NO_COLLISION | NativeMethods.RELIEF_RUNTIME_NO_LEVELS;
                using (var rt = new Runtime(world, config))
                {
                    Assert.IsTrue(rt.Settle(0, 0, 0, 60000));
                    Assert.AreEqual(0u, rt.Stats.has_chunks);
                    var e = Assert.Throws<ReliefException>(delegate { rt.Level(0); });
                    Assert.AreEqual(NativeMethods.RELIEF_STATUS_INVALID_ARGUMENT, e.Status);
                    Assert.Throws<ReliefException>(delegate { rt.AcquireChunk(0, 0, 0); });
                    Assert.Throws<ReliefException>(delegate { rt.Update(double.NaN, 0, 0); });
                    rt.Update(0, 0, 0, 900, 40, 700); // the camera elsewhere: fine
                    Assert.Throws<ReliefException>(delegate { rt.Update(0, 0, 0, 0, double.PositiveInfinity, 0); });
                    Assert.Throws<ReliefException>(delegate { rt.AcquireTile(0, 0, 0); });
                    Assert.Throws<ReliefException>(delegate { new PlanetTerrain(rt); });
                }
                config = Runtime.DefaultConfig();
                config.levels.struct_size += 4; // a nested struct from another header
                Assert.Throws<ReliefException>(delegate { new Runtime(world, config); });
                config = Runtime.DefaultConfig();
                config.flags = 0x80;
                Assert.Throws<ReliefException>(delegate { new Runtime(world, config); });
            }
        }

        [Test]
        public void APlanetRunsThroughTheSameObject()
        {
            using (Planet planet = Planet.Open(PlanetPath))
            using (var rt = new Runtime(planet))
            using (var terrain = new PlanetTerrain(rt))
            {
                var pos = new double[3];
                terrain.PositionAt(0, 0, pos);
                Assert.Throws<ReliefException>(delegate { rt.Update(0, 0, 0); });
                Assert.IsTrue(rt.Settle(pos[0], pos[1], pos[2], 60000));
                var byKind = new int[7];
                int views = 0;
                Drain(rt, byKind, ref views, false);
                Assert.Greater(byKind[NativeMethods.RELIEF_EVENT_LOADED], 0);
                Assert.Greater(byKind[NativeMethods.RELIEF_EVENT_CHUNK_READY], 0);
                Assert.Greater(views, 0);
                uint face;
                int cx, cz;
                rt.ChunkAt(pos[0], pos[1], pos[2], out face, out cx, out cz);
                using (ChunkView c = rt.AcquireChunk(face, cx, cz))
                {
                    Assert.IsNotNull(c, "the chunk underfoot is built");
                    Assert.AreEqual(face, c.Raw.face);
                }
                relief_clipmap_level ring = rt.Level(0);
                Assert.AreEqual(1u, ring.filled);
            }
        }
    }

    [TestFixture]
    public class PlanetTests
    {
        static string PlanetPath { get { return Environment.GetEnvironmentVariable("RELIEF_PLANET"); } }

        [Test]
        public void APlanetOpensByPathFromMemoryAndThroughAReader()
        {
            using (Planet byPath = Planet.Open(PlanetPath))
            using (Planet inMemory = Planet.OpenMemory(File.ReadAllBytes(PlanetPath)))
            {
                var reader = new FileReader(File.ReadAllBytes(PlanetPath));
                using (Planet viaReader = Planet.OpenReader(reader))
                {
                    Assert.AreEqual(7u, byPath.Info.version);
                    Assert.AreEqual(1u, byPath.Info.has_v7_fields);
                    foreach (Planet p in new[] { inMemory, viaReader })
                    {
                        Assert.AreEqual(byPath.Info.face_resolution, p.Info.face_resolution);
                        Assert.AreEqual(byPath.Info.reach_count, p.Info.reach_count);
                        Assert.AreEqual(byPath.BiomeName(0), p.BiomeName(0));
                    }
                    Assert.Greater(reader.Reads, 0);
                }
            }
        }

        [Test]
        public void AWalkOnThePlanetStreamsTilesChunksAndRingsAndEveryQueryAnswers()
        {
            using (Planet planet = Planet.Open(PlanetPath))
            using (var streamer = new Streamer(planet))
            using (var terrain = new PlanetTerrain(streamer))
            using (var collision = new Collision(streamer, 0))
            using (var rings = new Clipmap(terrain))
            {
                var pos = new double[3];
                terrain.PositionAt(0, 0, pos);
                Assert.IsTrue(streamer.Settle(pos[0], pos[1], pos[2], 60000));
                Span<relief_event> events = new relief_event[32];
                int loaded = 0, tiles = 0, chunks = 0, onChunk = 0, rects = 0;
                for (int frame = 0; frame < 90; frame++)
                {
                    terrain.PositionAt(0, frame * 0.2, pos);
                    streamer.Update(pos[0], pos[1], pos[2]);
                    collision.Update(pos[0], pos[1], pos[2]);
                    rects += rings.Update(pos[0], pos[1], pos[2]);
                    int n;
                    while ((n = streamer.PollEvents(events)) > 0)
                    {
                        for (int i = 0; i < n; i++)
                        {
                            Assert.AreNotEqual(NativeMethods.RELIEF_EVENT_FAILED, events[i].kind);
                            if (events[i].kind != NativeMethods.RELIEF_EVENT_LOADED) continue;
                            loaded++;
                            Assert.Less(events[i].face, 6u);
                            rects += rings.RefreshTile(events[i].face, (uint)events[i].x, (uint)events[i].z);
                            using (TileView t = streamer.AcquireTile(events[i].face, (uint)events[i].x, (uint)events[i].z))
                            {
                                if (t == null) continue;
                                int count = (int)(t.Raw.size * t.Raw.size);
                                Assert.AreEqual(count, t.Height.Length);
                                Assert.AreEqual(count, t.Sediment.Length);
                                Assert.AreEqual(count, t.Precipitation.Length);
                                tiles++;
                            }
                        }
                    }
                    while ((n = collision.PollEvents(events)) > 0)
                        for (int i = 0; i < n; i++)
                            if (events[i].kind == NativeMethods.RELIEF_EVENT_LOADED) chunks++;
                    uint face;
                    int cx, cz;
                    collision.ChunkAt(pos[0], pos[1], pos[2], out face, out cx, out cz);
                    using (ChunkView c = collision.AcquireChunk(face, cx, cz))
                    {
                        if (c != null)
                        {
                            onChunk++;
                            relief_chunk_view v = c.Raw;
                            unsafe
                            {
                                double dot = v.up[0] * pos[0] + v.up[1] * pos[1] + v.up[2] * pos[2];
                                Assert.Greater(dot, 0.0, "the chunk's up points out of the planet");
                            }
                            Assert.AreEqual(v.samples * v.samples, (uint)c.Heights.Length);
                        }
                    }
                    Thread.Sleep(16);
                }
                Assert.Greater(loaded, 0);
                Assert.Greater(tiles, 0);
                Assert.Greater(chunks, 0);
                Assert.Greater(onChunk, 0);
                Assert.Greater(rects, 0);
                Assert.AreEqual(1u, rings.Level(0).filled);

                uint origin;
                float h = terrain.Height(pos, out origin);
                Assert.AreEqual(NativeMethods.RELIEF_ORIGIN_REGION, origin);
                Assert.That(h, Is.InRange(planet.Info.height_min, planet.Info.height_max));
                var line = new double[3 * 16];
                for (int i = 0; i < 16; i++)
                {
                    Span<double> p = new Span<double>(line, 3 * i, 3);
                    terrain.PositionAt(0, 17.8 + i * 0.01, p);
                }
                var hs = new float[16];
                terrain.Heights(line, hs);
                uint o2;
                Assert.AreEqual(terrain.Height(new ReadOnlySpan<double>(line, 0, 3), out o2), hs[0]);
                Span<float> n3 = stackalloc float[3];
                terrain.Normal(pos, n3);
                Assert.Greater(n3[0] * pos[0] + n3[1] * pos[1] + n3[2] * pos[2], 0.0);
                double biome, sediment, rain;
                Assert.IsTrue(terrain.Sample(pos, NativeMethods.RELIEF_PLANET_FIELD_BIOME, out biome));
                Assert.IsNotEmpty(planet.BiomeName((uint)biome));
                Assert.IsTrue(terrain.Sample(pos, NativeMethods.RELIEF_PLANET_FIELD_SEDIMENT, out sediment));
                Assert.GreaterOrEqual(sediment, 0.0);
                Assert.IsTrue(terrain.Sample(pos, NativeMethods.RELIEF_PLANET_FIELD_PRECIPITATION, out rain));
                Assert.Greater(rain, 0.0);
                Assert.AreEqual(1u, terrain.River(pos, 1e6).found, "some river within 1000 km");
                Assert.AreEqual(1u, terrain.Lake(pos, 1e6).found, "some lake within 1000 km");
                var e = Assert.Throws<ReliefException>(delegate { terrain.Sample(pos, 7, out biome); });
                Assert.AreEqual(NativeMethods.RELIEF_STATUS_INVALID_ARGUMENT, e.Status);
                e = Assert.Throws<ReliefException>(delegate { terrain.Height(new double[3], out o2); });
                Assert.AreEqual(NativeMethods.RELIEF_STATUS_INVALID_ARGUMENT, e.Status);
            }
        }
    }
}
