// StreamingAssets on a Google Play install: the files are found through AssetManager.openFd,
// in the base APK or in the split APK of an install-time asset pack (where an AAB built with
// "Split Application Binary" puts them), and read in place through the descriptor it gives.
// AssetManager is emulated over APKs built here, behaving as AOSP's does: every APK's assets/
// is visible; a stored file gives the APK's descriptor with the file's offset and length; a
// deflated one throws FileNotFoundException ("... it is probably compressed"), a missing one
// FileNotFoundException too.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using NUnit.Framework;
using Relief;

namespace Relief.Tests
{
    [TestFixture]
    public class AndroidAssetsTests
    {
        sealed class Entry { public string Apk; public long Start; public long Length; public bool Deflated; }

        /// <summary>AssetManager over APK files: base first, then the splits.</summary>
        sealed class ApkAssets : IAndroidAssets
        {
            readonly Dictionary<string, Entry> entries = new Dictionary<string, Entry>();
            /// <summary>Descriptors handed out and not yet closed.</summary>
            public int Open;

            public void Add(string apk, IList<KeyValuePair<string, byte[]>> files, ISet<string> deflate)
            {
                var starts = StreamingAssetsTests.WriteZip(apk, files, deflate, 6);
                foreach (var f in files)
                    if (!entries.ContainsKey(f.Key))
                        entries[f.Key] = new Entry { Apk = apk, Start = starts[f.Key], Length = f.Value.Length, Deflated = deflate.Contains(f.Key) };
            }

            public AssetFd OpenFd(string name)
            {
                Entry e;
                if (!entries.TryGetValue("assets/" + name, out e))
                    throw new FileNotFoundException(name);
                if (e.Deflated)
                    throw new FileNotFoundException("This file can not be opened as a file descriptor; it is probably compressed");
                var stream = new FileStream(e.Apk, FileMode.Open, FileAccess.Read);
                Open++;
                int fd = stream.SafeFileHandle.DangerousGetHandle().ToInt32();
                return new AssetFd(fd, e.Start, e.Length, new Closer(stream, this));
            }

            sealed class Closer : IDisposable
            {
                readonly FileStream stream;
                readonly ApkAssets assets;
                public Closer(FileStream stream, ApkAssets assets) { this.stream = stream; this.assets = assets; }
                public void Dispose() { stream.Dispose(); assets.Open--; }
            }
        }

        static string Temp(string name)
        {
            return Path.Combine(Path.GetTempPath(), "relief-" + System.Diagnostics.Process.GetCurrentProcess().Id + "-" + name);
        }

        static byte[] Head(byte[] bytes, int length)
        {
            var head = new byte[length];
            Array.Copy(bytes, head, length);
            return head;
        }

        static KeyValuePair<string, byte[]> Zipped(string name, byte[] bytes) { return new KeyValuePair<string, byte[]>(name, bytes); }

        /// <summary>base.apk with the world, an asset pack's split APK with the planet, a second
        /// world and a deflated copy.</summary>
        static ApkAssets Install(out string baseApk, out string packApk)
        {
            var pack = File.ReadAllBytes(Fixtures.Pack);
            var assets = new ApkAssets();
            baseApk = Temp("base.apk");
            packApk = Temp("split_UnityStreamingAssetsPack.apk");
            assets.Add(baseApk, new[]
            {
                Zipped("AndroidManifest.xml", Encoding.UTF8.GetBytes("<manifest/>")),
                Zipped("assets/worlds/island.rlpack", pack),
            }, new HashSet<string>());
            assets.Add(packApk, new[]
            {
                Zipped("AndroidManifest.xml", Encoding.UTF8.GetBytes("<manifest split=\"UnityStreamingAssetsPack\"/>")),
                Zipped("assets/planet.plnt", File.ReadAllBytes(Fixtures.Planet)),
                Zipped("assets/packed.rlpack", pack),
                // Only its method matters (openFd refuses it): the first 64 KiB will do.
                Zipped("assets/Deflated.rlpack", Head(pack, 65536)),
            }, new HashSet<string> { "assets/Deflated.rlpack" });
            return assets;
        }

        [Test]
        public void WorldsAndPlanetsOpenInPlaceFromTheBaseApkAndFromAnAssetPack()
        {
            string baseApk, packApk;
            ApkAssets assets = Install(out baseApk, out packApk);
            using (World inBase = StreamingAssets.OpenWorld(assets, "worlds/island.rlpack"))
            using (World inPack = StreamingAssets.OpenWorld(assets, "/packed.rlpack"))
            using (World byPath = World.Open(Fixtures.Pack))
            {
                // relief keeps a duplicate: every descriptor AssetManager gave is closed already.
                Assert.AreEqual(0, assets.Open);
                // Loads after the APKs' names are gone read through relief's descriptors.
                File.Delete(baseApk);
                File.Delete(packApk);
                StreamingAssetsTests.StreamsAs(inBase, byPath);
                StreamingAssetsTests.StreamsAs(inPack, byPath);
            }
            assets = Install(out baseApk, out packApk);
            using (Planet inPack = StreamingAssets.OpenPlanet(assets, "planet.plnt"))
            using (Planet byPath = Planet.Open(Fixtures.Planet))
                Assert.AreEqual(byPath.Info.Radius, inPack.Info.Radius);
            Assert.AreEqual(0, assets.Open);
            File.Delete(baseApk);
            File.Delete(packApk);
        }

        [Test]
        public void ACompressedOrMissingAssetIsAClearErrorAndTheComponentsPathSaysSo()
        {
            string baseApk, packApk;
            ApkAssets assets = Install(out baseApk, out packApk);
            var e = Assert.Throws<StreamingAssetsException>(delegate { StreamingAssets.OpenWorld(assets, "Deflated.rlpack"); });
            StringAssert.Contains("compressed", e.Message);
            StringAssert.Contains("lowercase ASCII", e.Message);
            e = Assert.Throws<StreamingAssetsException>(delegate { StreamingAssets.OpenPlanet(assets, "nowhere.plnt"); });
            StringAssert.Contains("install-time asset pack", e.Message);
            StringAssert.Contains("fast-follow", e.Message);
            Assert.AreEqual(0, assets.Open);

            // What the components call: on Android with the AssetManager, never throwing.
            string streaming = "jar:file://" + baseApk + "!/assets";
            World world;
            string error;
            Assert.IsTrue(Sources.TryOpenWorld(streaming, "packed.rlpack", out world, out error, null, assets), error);
            world.Dispose();
            Assert.IsFalse(Sources.TryOpenWorld(streaming, "Deflated.rlpack", out world, out error, null, assets));
            StringAssert.Contains("relief could not open the world 'Deflated.rlpack'", error);
            StringAssert.Contains("compressed", error);
            // Without it, only the base APK is looked in: the asset pack's file is not there.
            Assert.IsFalse(Sources.TryOpenWorld(streaming, "packed.rlpack", out world, out error));
            StringAssert.Contains("has no entry 'assets/packed.rlpack'", error);

            // Descriptors that aren't, and ranges that can't be.
            var r = Assert.Throws<ReliefException>(delegate { World.OpenFd(-1, 0, 10); });
            Assert.AreEqual(ReliefStatus.InvalidArgument, r.Status);
            r = Assert.Throws<ReliefException>(delegate { Planet.OpenFd(int.MaxValue, 0, 10); });
            Assert.AreEqual(ReliefStatus.InvalidArgument, r.Status);
            Assert.Throws<ArgumentOutOfRangeException>(delegate { World.OpenFd(0, -1, 10); });
            File.Delete(baseApk);
            File.Delete(packApk);
        }
    }
}
