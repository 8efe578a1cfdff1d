// The public C# surface as a Unity developer meets it: enums that say what the header's
// constants say, no type named like one of UnityEngine's, and views that can't be read once
// their memory went back to relief.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading;
using NUnit.Framework;
using Relief;

namespace Relief.Tests
{
    [TestFixture]
    public class ApiTests
    {
        /// <summary>INVALID_ARGUMENT → InvalidArgument.</summary>
        static string Pascal(string snake)
        {
            var b = new StringBuilder();
            foreach (string w in snake.Split('_'))
                b.Append(w.Substring(0, 1)).Append(w.Substring(1).ToLowerInvariant());
            return b.ToString();
        }

        static readonly Dictionary<string, Type> Families = new Dictionary<string, Type>
        {
            { "RELIEF_STATUS_", typeof(ReliefStatus) },
            { "RELIEF_EVENT_", typeof(EventKind) },
            { "RELIEF_STREAM_", typeof(StreamKind) },
            { "RELIEF_RUNTIME_", typeof(RuntimeFlags) },
            { "RELIEF_ORIGIN_", typeof(HeightOrigin) },
            { "RELIEF_REACH_", typeof(ReachKind) },
            { "RELIEF_PLANET_FIELD_", typeof(PlanetField) },
            { "RELIEF_LOG_", typeof(LogLevel) },
            { "RELIEF_BAND_", typeof(ThingBand) },
            { "RELIEF_SHAPE_", typeof(ThingShape) },
        };

        [Test]
        public void EveryEnumMatchesItsHeaderConstantsBothWays()
        {
            var problems = new List<string>();
            var seen = new HashSet<string>();
            int constants = 0;
            foreach (string line in File.ReadAllLines(Fixtures.Layout))
            {
                string[] w = line.Split(' ');
                if (w[0] != "const" || w[1] == "RELIEF_ABI_VERSION")
                    continue;
                var family = Families.FirstOrDefault(f => w[1].StartsWith(f.Key, StringComparison.Ordinal));
                if (family.Value == null) { problems.Add(w[1] + " belongs to no enum"); continue; }
                constants++;
                string member = Pascal(w[1].Substring(family.Key.Length));
                if (!Enum.GetNames(family.Value).Contains(member)) { problems.Add(family.Value.Name + " has no " + member + " for " + w[1]); continue; }
                ulong value = Convert.ToUInt64(Enum.Parse(family.Value, member));
                if (value.ToString() != w[2])
                    problems.Add(family.Value.Name + "." + member + " is " + value + ", " + w[1] + " " + w[2]);
                seen.Add(family.Value.Name + "." + member);
            }
            foreach (var f in Families.Values)
                foreach (string name in Enum.GetNames(f))
                    if (!seen.Contains(f.Name + "." + name) && !(f == typeof(RuntimeFlags) && name == "None"))
                        problems.Add(f.Name + "." + name + " has no header constant");
            Assert.GreaterOrEqual(constants, 30);
            Assert.IsEmpty(problems, string.Join("\n", problems.ToArray()));
        }

        /// <summary>relief_status_name and relief_event_kind_name give each constant's name
        /// without its prefix, and "UNKNOWN" for anything else.</summary>
        [Test]
        public void StatusAndEventNamesAreTheHeaderConstantsNames()
        {
            int statuses = 0, kinds = 0;
            foreach (string line in File.ReadAllLines(Fixtures.Layout))
            {
                string[] w = line.Split(' ');
                if (w[0] != "const")
                    continue;
                if (w[1].StartsWith("RELIEF_STATUS_", StringComparison.Ordinal))
                {
                    Assert.AreEqual(w[1].Substring("RELIEF_STATUS_".Length), ReliefException.StatusName((ReliefStatus)uint.Parse(w[2])));
                    statuses++;
                }
                else if (w[1].StartsWith("RELIEF_EVENT_", StringComparison.Ordinal))
                {
                    Assert.AreEqual(w[1].Substring("RELIEF_EVENT_".Length), StreamEvent.KindName((EventKind)uint.Parse(w[2])));
                    kinds++;
                }
            }
            Assert.AreEqual(Enum.GetValues(typeof(ReliefStatus)).Length, statuses);
            Assert.AreEqual(Enum.GetValues(typeof(EventKind)).Length, kinds);
            Assert.AreEqual("UNKNOWN", ReliefException.StatusName((ReliefStatus)77));
            Assert.AreEqual("UNKNOWN", StreamEvent.KindName((EventKind)77));
            Assert.AreEqual("LOADED (0, 0) face 0", default(StreamEvent).ToString());
        }

        /// <summary>UnityEngine's types a game script sees with `using UnityEngine;` whose
        /// names a terrain package would be tempted to take (Scripting Reference, UnityEngine
        /// namespace).</summary>
        static readonly string[] UnityEngineTypes =
        {
            "Application", "Bounds", "Camera", "Collider", "Collision", "Color", "Component",
            "Debug", "Event", "GameObject", "GUI", "Input", "Light", "LOD", "LODGroup", "Material",
            "Mathf", "Matrix4x4", "Mesh", "MeshCollider", "MeshFilter", "MeshRenderer", "Object",
            "Physics", "Plane", "Quaternion", "Random", "Ray", "RaycastHit", "Rect", "Renderer",
            "Resources", "Rigidbody", "Screen", "Shader", "Terrain", "TerrainCollider", "TerrainData",
            "TerrainLayer", "Texture", "Texture2D", "Texture2DArray", "Time", "Transform",
            "TreeInstance", "Vector2", "Vector3", "Vector4", "WaitForSeconds", "Behaviour",
            "MonoBehaviour", "ScriptableObject", "Space", "LayerMask", "Hash128", "Network",
            "Logger", "Gradient", "AnimationCurve", "Cubemap", "RenderTexture", "Graphics",
        };

        [Test]
        public void NoPublicTypeIsNamedLikeAUnityEngineType()
        {
            var names = new HashSet<string>(UnityEngineTypes);
            var public_ = typeof(World).Assembly.GetExportedTypes();
            Assert.Greater(public_.Length, 30);
            var clashes = public_.Where(t => names.Contains(t.Name)).Select(t => t.FullName).ToArray();
            Assert.IsEmpty(clashes, string.Join(", ", clashes));
            // The C structs stay inside: no snake_case public type.
            var raw = public_.Where(t => t.Name.Contains("_")).Select(t => t.FullName).ToArray();
            Assert.IsEmpty(raw, string.Join(", ", raw));
        }

        [Test]
        public void TheBiomeEnumNamesWhatTheBakerWrites()
        {
            using (World world = World.Open(Fixtures.World))
            using (Planet planet = Planet.Open(Fixtures.Planet))
            {
                string[] members = Enum.GetNames(typeof(Biome));
                Assert.AreEqual(members.Length, world.Info.BiomeCount);
                Assert.AreEqual(members.Length, planet.Info.BiomeCount);
                for (int id = 0; id < members.Length; id++)
                {
                    // TemperateForest → "temperate forest"
                    string spaced = Readout.Name((Biome)id);
                    Assert.AreEqual(world.BiomeName(id), spaced, "id {0}", id);
                    Assert.AreEqual(planet.BiomeName(id), spaced, "id {0}", id);
                }
            }
        }

        static RegionView SettledRegion(World world, Runtime rt)
        {
            Double3 c = world.Info.Centre;
            Assert.IsTrue(rt.Settle(c.X, 0, c.Z, 60000));
            int x = (int)Math.Floor(c.X / world.Info.RegionExtent), z = (int)Math.Floor(c.Z / world.Info.RegionExtent);
            RegionView v = rt.AcquireRegion(x, z);
            Assert.IsNotNull(v);
            return v;
        }

        [Test]
        public void AViewCantBeReadOnceDisposedAndKeepsItselfAliveWhileASpanIsRead()
        {
            using (World world = World.Open(Fixtures.World))
            using (var rt = new Runtime(world))
            {
                RegionView v = SettledRegion(world, rt);
                ViewSpan<float> height = v.Height;
                float[] copy = height.ToArray();
                Assert.AreEqual(v.Size * v.Size, copy.Length);
                Assert.AreEqual(copy[12345], height[12345]);
                float sum = 0;
                height.Read(copy, (span, expected) => { for (int i = 0; i < span.Length; i++) if (span[i] == expected[i]) sum += 1; });
                Assert.AreEqual(copy.Length, sum, "Read sees the same memory");

                v.Dispose();
                Assert.IsFalse(v.IsLive);
                // A span taken before Dispose can't read after it (a lambda can't hold a span).
                bool refused = false;
                try { var unused = height[0]; }
                catch (ObjectDisposedException) { refused = true; }
                Assert.IsTrue(refused, "a span taken before Dispose read after it");
                refused = false;
                try { height.CopyTo(new float[copy.Length]); }
                catch (ObjectDisposedException) { refused = true; }
                Assert.IsTrue(refused);
                Assert.Throws<ObjectDisposedException>(delegate { var unused = v.Height[0]; });
                var target = new float[copy.Length];
                Assert.Throws<ObjectDisposedException>(delegate { v.Height.CopyTo(target); });
                Assert.Throws<ObjectDisposedException>(delegate { v.Control.ToArray(); });
                v.Dispose(); // twice is fine

                // Forgotten views are finalized, but never while a span of them is still read.
                ViewSpan<float> orphan = SettledRegionSpan(world, rt);
                GC.Collect();
                GC.WaitForPendingFinalizers();
                GC.Collect();
                Assert.AreEqual(copy[777], orphan[777], "the span kept its view alive");
            }
        }

        /// <summary>A held piece is the caller's: its view stays readable, unchanged, after the
        /// runtime is disposed, and holding one twice gives two holds, each let go on its own.</summary>
        [Test]
        public void AViewOutlivesItsRuntimeAndEachHoldIsReleasedOnItsOwn()
        {
            using (World world = World.Open(Fixtures.World))
            {
                var rt = new Runtime(world);
                RegionView first = SettledRegion(world, rt);
                RegionView second = rt.AcquireRegion(first.X, first.Z);
                Assert.IsNotNull(second);
                float[] heights = first.Height.ToArray();
                ChunkView chunk = rt.AcquireChunk(rt.ChunkAt(world.Info.Centre));
                Assert.IsNotNull(chunk, "the chunk at the centre is built once settled");
                float[] chunkHeights = chunk.Heights.ToArray();

                rt.Dispose();
                rt.Dispose(); // twice is fine
                Assert.IsFalse(rt.IsLive);
                Assert.Throws<ObjectDisposedException>(delegate { rt.Update(0, 0, 0); });
                Assert.Throws<ObjectDisposedException>(delegate { rt.AcquireRegion(first.X, first.Z); });
                CollectionAssert.AreEqual(heights, first.Height.ToArray(), "held past the runtime");
                CollectionAssert.AreEqual(chunkHeights, chunk.Heights.ToArray());

                first.Dispose();
                Assert.Throws<ObjectDisposedException>(delegate { first.Height.ToArray(); });
                CollectionAssert.AreEqual(heights, second.Height.ToArray(), "the second hold is its own");
                second.Dispose();
                chunk.Dispose();
                Assert.IsFalse(second.IsLive || chunk.IsLive);
            }
        }

        static ViewSpan<float> SettledRegionSpan(World world, Runtime rt)
        {
            return SettledRegion(world, rt).Height; // the view itself is dropped here
        }

        [Test]
        public void DisposingWhileAnotherThreadReadsNeverReadsFreedMemory()
        {
            using (World world = World.Open(Fixtures.World))
            using (var rt = new Runtime(world))
            {
                for (int round = 0; round < 20; round++)
                {
                    RegionView v = SettledRegion(world, rt);
                    float[] copy = v.Height.ToArray();
                    int reads = 0, wrong = 0, refused = 0;
                    var reader = new Thread(() =>
                    {
                        var target = new float[copy.Length];
                        for (int i = 0; i < 200; i++)
                        {
                            try
                            {
                                v.Height.CopyTo(target);
                                if (target[i * 97 % copy.Length] != copy[i * 97 % copy.Length]) wrong++;
                                reads++;
                            }
                            catch (ObjectDisposedException) { refused++; }
                        }
                    });
                    reader.Start();
                    Thread.Sleep(round % 3);
                    v.Dispose();
                    reader.Join();
                    Assert.AreEqual(0, wrong, "round {0}: a read saw memory that wasn't the region's", round);
                    Assert.AreEqual(200, reads + refused);
                }
            }
        }
    }
}
