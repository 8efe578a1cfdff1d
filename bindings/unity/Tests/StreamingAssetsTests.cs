// StreamingAssets in place: an APK-like zip built here holds the test world's pack and planet
// stored (as Unity stores StreamingAssets), with a local extra field the central directory
// doesn't have (as zipalign pads), and a deflated copy; the stored ones open and stream from
// the archive, the deflated one is refused with a message saying how to keep it stored.
using System;
using System.Collections.Generic;
using System.IO;
using System.IO.Compression;
using System.Text;
using NUnit.Framework;
using Relief;
using Relief.Native;

namespace Relief.Tests
{
    [TestFixture]
    public class StreamingAssetsTests
    {
        static string PackPath { get { return Fixtures.Pack; } }
        static string PlanetPath { get { return Fixtures.Planet; } }

        /// <summary>A minimal zip writer: each entry's local header, data, then the central
        /// directory and its end record. Stored entries get a local extra field of
        /// <c>pad</c> bytes (id 0xD935, Android's alignment padding). Returns where each
        /// entry's data starts.</summary>
        internal static Dictionary<string, long> WriteZip(string path, IList<KeyValuePair<string, byte[]>> entries, ISet<string> deflate, int pad)
        {
            var starts = new Dictionary<string, long>();
            using (var f = new FileStream(path, FileMode.Create))
            using (var w = new BinaryWriter(f))
            {
                var central = new MemoryStream();
                var c = new BinaryWriter(central);
                foreach (var e in entries)
                {
                    byte[] name = Encoding.UTF8.GetBytes(e.Key);
                    bool deflated = deflate.Contains(e.Key);
                    byte[] data = e.Value;
                    if (deflated)
                    {
                        var ms = new MemoryStream();
                        using (var d = new DeflateStream(ms, CompressionMode.Compress, true)) d.Write(data, 0, data.Length);
                        data = ms.ToArray();
                    }
                    long local = f.Position;
                    int extra = deflated ? 0 : pad;
                    w.Write(0x04034b50u); w.Write((ushort)20); w.Write((ushort)0);
                    w.Write((ushort)(deflated ? 8 : 0)); w.Write((ushort)0); w.Write((ushort)0);
                    w.Write(0u); w.Write((uint)data.Length); w.Write((uint)e.Value.Length);
                    w.Write((ushort)name.Length); w.Write((ushort)extra);
                    w.Write(name);
                    if (extra > 0) { w.Write((ushort)0xD935); w.Write((ushort)(extra - 4)); w.Write(new byte[extra - 4]); }
                    starts[e.Key] = f.Position;
                    w.Write(data);
                    c.Write(0x02014b50u); c.Write((ushort)20); c.Write((ushort)20); c.Write((ushort)0);
                    c.Write((ushort)(deflated ? 8 : 0)); c.Write((ushort)0); c.Write((ushort)0);
                    c.Write(0u); c.Write((uint)data.Length); c.Write((uint)e.Value.Length);
                    c.Write((ushort)name.Length); c.Write((ushort)0); c.Write((ushort)0);
                    c.Write((ushort)0); c.Write((ushort)0); c.Write(0u); c.Write((uint)local);
                    c.Write(name);
                }
                long start = f.Position;
                w.Write(central.ToArray());
                w.Write(0x06054b50u); w.Write((ushort)0); w.Write((ushort)0);
                w.Write((ushort)entries.Count); w.Write((ushort)entries.Count);
                w.Write((uint)central.Length); w.Write((uint)start); w.Write((ushort)0);
            }
            return starts;
        }

        static string Apk()
        {
            string apk = Path.Combine(Path.GetTempPath(), "relief-streamingassets-" + System.Diagnostics.Process.GetCurrentProcess().Id + ".apk");
            var pack = File.ReadAllBytes(PackPath);
            var entries = new List<KeyValuePair<string, byte[]>>
            {
                new KeyValuePair<string, byte[]>("AndroidManifest.xml", Encoding.UTF8.GetBytes("<manifest/>")),
                new KeyValuePair<string, byte[]>("assets/worlds/island.rlpack", pack),
                new KeyValuePair<string, byte[]>("assets/planet.plnt", File.ReadAllBytes(PlanetPath)),
                new KeyValuePair<string, byte[]>("assets/Island.rlpack", pack),
            };
            WriteZip(apk, entries, new HashSet<string> { "assets/Island.rlpack" }, 7);
            return apk;
        }

        /// <summary><paramref name="world"/> settles around its centre and answers a height there
        /// from a loaded region, the same as <paramref name="byPath"/> (the pack opened by path).</summary>
        internal static void StreamsAs(World world, World byPath)
        {
            Assert.AreEqual(byPath.Info.RegionCount, world.Info.RegionCount);
            double x = world.Info.Centre.X, z = world.Info.Centre.Z;
            using (var s = new Runtime(world, StreamingTests.PiecesOnly()))
            using (var t = new TerrainQueries(s))
            using (var s2 = new Runtime(byPath, StreamingTests.PiecesOnly()))
            using (var t2 = new TerrainQueries(s2))
            {
                Assert.IsTrue(s.Settle(x, 0, z, 60000));
                Assert.IsTrue(s2.Settle(x, 0, z, 60000));
                HeightOrigin origin, origin2;
                float h = t.Height(x + 3.5, z - 7.25, out origin);
                Assert.AreEqual(HeightOrigin.Region, origin);
                Assert.AreEqual(t2.Height(x + 3.5, z - 7.25, out origin2), h);
            }
        }

        [Test]
        public void AStoredPackAndPlanetOpenAndStreamFromInsideTheApk()
        {
            string apk = Apk();
            string streaming = "jar:file://" + apk + "!/assets";
            var range = StreamingAssets.Locate(streaming, "worlds/island.rlpack").Value;
            Assert.AreEqual(apk, range.Path);
            Assert.AreEqual(new FileInfo(PackPath).Length, range.Length);
            // The data starts after the local header's 7-byte extra field, which the central
            // directory doesn't have: the bytes there are the pack's own.
            var first = new byte[8];
            using (var f = File.OpenRead(apk)) { f.Position = range.Offset; f.Read(first, 0, 8); }
            var expected = new byte[8];
            using (var f = File.OpenRead(PackPath)) f.Read(expected, 0, 8);
            CollectionAssert.AreEqual(expected, first);

            using (World inApk = StreamingAssets.OpenWorld(streaming, "worlds/island.rlpack"))
            using (World byPath = World.Open(PackPath))
                StreamsAs(inApk, byPath);
            using (Planet planet = StreamingAssets.OpenPlanet(streaming, "planet.plnt"))
            using (Planet byPath = Planet.Open(PlanetPath))
                Assert.AreEqual(byPath.Info.Radius, planet.Info.Radius);
            File.Delete(apk);
        }

        [Test]
        public void ACompressedOrMissingEntryAndABadRangeAreClearErrors()
        {
            string apk = Apk();
            string streaming = "jar:file://" + apk + "!/assets";
            var e = Assert.Throws<StreamingAssetsException>(delegate { StreamingAssets.OpenWorld(streaming, "Island.rlpack"); });
            StringAssert.Contains("compressed", e.Message);
            StringAssert.Contains("lowercase ASCII", e.Message);
            e = Assert.Throws<StreamingAssetsException>(delegate { StreamingAssets.Locate(streaming, "nowhere.rlpack"); });
            StringAssert.Contains("has no entry 'assets/nowhere.rlpack'", e.Message);
            // A range past the file's end, and a range that holds no pack.
            long len = new FileInfo(apk).Length;
            var r = Assert.Throws<ReliefException>(delegate { World.OpenFileRange(apk, len - 10, 11); });
            StringAssert.Contains("past the end", r.Message);
            Assert.Throws<ReliefException>(delegate { World.OpenFileRange(apk, 0, len); });
            Assert.Throws<ArgumentOutOfRangeException>(delegate { World.OpenFileRange(apk, -1, 5); });
            // Not a zip at all.
            e = Assert.Throws<StreamingAssetsException>(delegate { StreamingAssets.FindZipEntry(PackPath, "x"); });
            StringAssert.Contains("not a readable zip archive", e.Message);
            File.Delete(apk);
        }

        [Test]
        public void OnDesktopStreamingAssetsIsAFolderAndOnWebGlAUrl()
        {
            string dir = Path.GetDirectoryName(PackPath);
            var range = StreamingAssets.Locate(dir, Path.GetFileName(PackPath)).Value;
            Assert.AreEqual(0, range.Offset);
            Assert.AreEqual(new FileInfo(PackPath).Length, range.Length);
            Assert.IsNull(StreamingAssets.Locate("https://example.invalid/StreamingAssets", "island.rlpack"));
            Assert.Throws<StreamingAssetsException>(delegate { StreamingAssets.Locate(dir, "no-such.rlpack"); });
        }
    }
}
