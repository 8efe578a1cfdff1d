// Placed things as the Unity package draws and collides them, against the real library and
// the baked world's own things: the driver holds exactly the chunks relief has placed and lends
// each to its sink until it must let go (ThingChunks), the matrices' address is the matrices
// in place (what ReliefThings draws from without a copy), every draw covers its things in run
// order within its box, and every collider stands where its thing stands, turned as it is,
// sized by its kind and scale. Engine-free: no UnityEngine type is touched.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;
using NUnit.Framework;
using Relief;

namespace Relief.Tests
{
    /// <summary>A sink that keeps what it is shown, reads each chunk when it is hidden (which
    /// must still work), and notes every call that breaks the contract.</summary>
    sealed class RecordingSink : IThingsSink
    {
        public readonly Dictionary<ThingKey, ThingsView> Shown = new Dictionary<ThingKey, ThingsView>();
        public readonly List<ThingsView> Hidden = new List<ThingsView>();
        public readonly List<string> Problems = new List<string>();
        public int Shows;

        public void Show(ThingsView chunk)
        {
            Shows++;
            if (!chunk.IsLive) Problems.Add("shown disposed: " + chunk.Key);
            if (Shown.ContainsKey(chunk.Key)) Problems.Add("shown twice: " + chunk.Key);
            Shown[chunk.Key] = chunk;
        }

        public void Hide(ThingsView chunk)
        {
            ThingsView was;
            if (!Shown.TryGetValue(chunk.Key, out was) || was != chunk) Problems.Add("hidden unshown: " + chunk.Key);
            Shown.Remove(chunk.Key);
            // Still readable in place: the memory goes back only after Hide returns.
            if (chunk.Count > 0 && chunk.MatricesAddress == IntPtr.Zero) Problems.Add("no matrices while hiding: " + chunk.Key);
            chunk.Matrices.ToArray();
            Hidden.Add(chunk);
        }
    }

    sealed class ThrowingSink : IThingsSink
    {
        public void Show(ThingsView chunk) { throw new InvalidOperationException("no room"); }
        public void Hide(ThingsView chunk) { }
    }

    [TestFixture]
    public class ThingTests
    {
        /// <summary>Every thing chunk the runtime lists as placed, every band.</summary>
        static HashSet<ThingKey> Placed(Runtime rt)
        {
            var placed = new HashSet<ThingKey>();
            foreach (ThingBand band in new[] { ThingBand.Near, ThingBand.Mid, ThingBand.Far })
            {
                StreamKind stream = Runtime.ThingStream(band);
                var events = new StreamEvent[rt.ListLoaded(stream, Span<StreamEvent>.Empty)];
                int n = rt.ListLoaded(stream, events);
                for (int i = 0; i < n; i++)
                {
                    Assert.AreEqual(EventKind.ThingsReady, events[i].Kind);
                    placed.Add(events[i].ThingKey);
                }
            }
            return placed;
        }

        [Test]
        public void TheDriverHoldsWhatReliefPlacedAndLendsItToItsSinkUntilItMustLetGo()
        {
            var engine = new FakeEngine();
            var sink = new RecordingSink();
            using (World world = World.Open(Fixtures.World))
            {
                var driver = new StreamingDriver<FakeTile, FakeMesh>(engine, world, new DriverSettings { Things = true, FarGround = false });
                try
                {
                    Double3 start = world.Info.Centre;
                    Assert.IsTrue(driver.Settle(start, 60000));
                    Assert.AreEqual(1f, driver.Progress, "placed things count in the progress, and all are in");
                    ThingChunks things = driver.Things;
                    Assert.IsNotNull(things);
                    Assert.Greater(things.Count, 0);
                    CollectionAssert.AreEquivalent(Placed(driver.Runtime), Keys(things, driver.Runtime));

                    // A sink set while streaming is shown every chunk already held.
                    things.Sink = sink;
                    Assert.AreEqual(things.Count, sink.Shown.Count);
                    Assert.AreEqual(things.Count, driver.Stats.ThingChunks);
                    Assert.Greater(driver.Stats.Things, 0);

                    // A walk: chunks come and go, the sink always holds what the driver holds,
                    // and every chunk it was told to let go of was released after.
                    Double3 p = start;
                    for (int frame = 0; frame < 60; frame++)
                    {
                        p = new Double3(start.X + frame * 12.0, 0, start.Z + frame * 5.0);
                        p = new Double3(p.X, driver.Terrain.Height(p.X, p.Z), p.Z);
                        Assert.IsTrue(driver.Frame(p, p));
                        Assert.AreEqual(things.Count, sink.Shown.Count, "frame {0}", frame);
                        Thread.Sleep(16);
                    }
                    Assert.IsTrue(driver.Settle(p, 60000));
                    CollectionAssert.AreEquivalent(Placed(driver.Runtime), sink.Shown.Keys, "held after the walk: what relief lists as placed");
                    Assert.Greater(sink.Hidden.Count, 0, "the walk dropped chunks");
                    foreach (ThingsView v in sink.Hidden)
                        Assert.IsFalse(v.IsLive, "{0} was hidden, then released", v.Key);
                    foreach (ThingsView v in sink.Shown.Values)
                    {
                        ThingsView held;
                        Assert.IsTrue(things.TryGet(v.Key, out held) && held == v && v.IsLive);
                    }

                    // Another sink: the first is told to let go of everything, the second shown it.
                    var second = new RecordingSink();
                    int before = things.Count, hiddenBefore = sink.Hidden.Count;
                    things.Sink = second;
                    Assert.AreEqual(0, sink.Shown.Count);
                    Assert.AreEqual(hiddenBefore + before, sink.Hidden.Count);
                    Assert.AreEqual(before, second.Shown.Count);
                    Assert.AreEqual(before, things.Count, "changing sinks releases nothing");

                    // A sink that throws is warned of; the chunk stays held, streaming goes on.
                    things.Sink = new ThrowingSink();
                    Assert.AreEqual(before, engine.Warnings.FindAll(w => w.Contains("could not be shown")).Count);
                    things.Sink = second;
                    engine.Warnings.Clear();

                    CollectionAssert.IsEmpty(sink.Problems);
                    CollectionAssert.IsEmpty(second.Problems);
                    CollectionAssert.IsEmpty(engine.Errors);
                    CollectionAssert.IsEmpty(engine.Warnings);
                    CollectionAssert.IsEmpty(engine.WrongThread);

                    // Disposing the driver hides every chunk first, then releases it.
                    var last = new List<ThingsView>(second.Shown.Values);
                    driver.Dispose();
                    Assert.AreEqual(0, second.Shown.Count);
                    CollectionAssert.IsEmpty(second.Problems);
                    foreach (ThingsView v in last)
                        Assert.IsFalse(v.IsLive);
                    Assert.IsNull(things.Sink, "nothing is lent after the end");
                    things.Sink = sink;
                    Assert.AreEqual(0, sink.Shown.Count);
                }
                finally { driver.Dispose(); }
            }
        }

        static List<ThingKey> Keys(ThingChunks things, Runtime rt)
        {
            var keys = new List<ThingKey>();
            foreach (ThingKey k in Placed(rt))
            {
                ThingsView v;
                if (things.TryGet(k, out v))
                    keys.Add(k);
            }
            Assert.AreEqual(things.Count, keys.Count, "the driver holds nothing relief hasn't placed");
            return keys;
        }

        [Test]
        public void WithoutThingsTheRuntimePlacesNone()
        {
            var engine = new FakeEngine();
            using (World world = World.Open(Fixtures.World))
            using (var driver = new StreamingDriver<FakeTile, FakeMesh>(engine, world, new DriverSettings { FarGround = false }))
            {
                Assert.IsNull(driver.Things);
                Assert.IsTrue(driver.Settle(world.Info.Centre, 60000));
                Assert.AreEqual(RuntimeFlags.NoThings, driver.Runtime.Stats.Flags & RuntimeFlags.NoThings);
                Assert.AreEqual(0, driver.Runtime.Stats.ThingsWanted);
                Assert.AreEqual(0, driver.Stats.ThingChunks);
            }
        }

        /// <summary>Settles at the world's centre and hands every placed chunk to
        /// <paramref name="each"/>, held; returns how many there were.</summary>
        static int EachChunk(Action<ThingsView, ThingKind[]> each)
        {
            using (World world = World.Open(Fixtures.World))
            using (var rt = new Runtime(world))
            {
                Double3 c = world.Info.Centre;
                Assert.IsTrue(rt.Settle(c.X, 0, c.Z, 60000));
                ThingKind[] kinds = rt.ThingKinds;
                int n = 0;
                foreach (ThingKey k in Placed(rt))
                    using (ThingsView v = rt.AcquireThings(k))
                    {
                        Assert.IsNotNull(v, "{0} is placed", k);
                        each(v, kinds);
                        n++;
                    }
                return n;
            }
        }

        [Test]
        public void TheMatricesAddressIsTheMatricesInPlace()
        {
            ThingsView kept = null;
            int nonEmpty = 0;
            EachChunk((v, kinds) =>
            {
                if (v.Count == 0)
                {
                    Assert.AreEqual(IntPtr.Zero, v.MatricesAddress);
                    return;
                }
                var read = new float[16 * v.Count];
                Marshal.Copy(v.MatricesAddress, read, 0, read.Length);
                CollectionAssert.AreEqual(v.Matrices.ToArray(), read);
                nonEmpty++;
                kept = v;
            });
            Assert.Greater(nonEmpty, 0);
            Assert.IsFalse(kept.IsLive);
            Assert.Throws<ObjectDisposedException>(delegate { GC.KeepAlive(kept.MatricesAddress); });
        }

        [Test]
        public void DrawsCoverEveryThingInRunOrderWithinTheirBoxes()
        {
            int cut = 0, things = 0;
            EachChunk((v, kinds) =>
            {
                float[] p = v.Positions.ToArray(), s = v.Scales.ToArray();
                ThingRun[] runs = v.Runs;
                foreach (int max in new[] { 7, ThingLayout.MaxInstancesPerDraw })
                {
                    ThingBatch[] batches = ThingLayout.Batches(v, max);
                    int next = 0, r = 0;
                    foreach (ThingBatch b in batches)
                    {
                        while (r < runs.Length && next == runs[r].Start + runs[r].Count) r++;
                        Assert.Less(r, runs.Length, "a draw past the runs");
                        Assert.AreEqual(next, b.Start, "draws follow each other");
                        Assert.AreEqual(runs[r].Kind, b.Kind);
                        Assert.IsTrue(b.Count >= 1 && b.Count <= max);
                        Assert.LessOrEqual(b.Start + b.Count, runs[r].Start + runs[r].Count, "a draw stays in its run");
                        float scale = 0f;
                        for (int i = b.Start; i < b.Start + b.Count; i++)
                        {
                            Assert.IsTrue(p[3 * i] >= b.MinX && p[3 * i] <= b.MaxX && p[3 * i + 1] >= b.MinY && p[3 * i + 1] <= b.MaxY
                                && p[3 * i + 2] >= b.MinZ && p[3 * i + 2] <= b.MaxZ, "thing {0} in its box", i);
                            scale = Math.Max(scale, s[i]);
                        }
                        Assert.AreEqual(scale, b.MaxScale);
                        next += b.Count;
                        if (max == 7 && b.Count == 7) cut++;
                    }
                    Assert.AreEqual(v.Count, next, "every thing drawn once");
                }
                things += v.Count;
            });
            Assert.Greater(things, 0);
            Assert.Greater(cut, 0, "some runs were cut into several draws");
        }

        /// <summary>Each collider: a unit rotation turning X and Y into the thing's axes (its
        /// matrix's columns over its scale), its centre up the thing's Y by its kind's
        /// ShapeCentre times its scale, its size its kind's times its scale.</summary>
        [Test]
        public void CollidersStandWhereTheirThingsStandTurnedAndSizedAsThey()
        {
            int placed = 0;
            var shapes = new HashSet<ThingShape>();
            EachChunk((v, kinds) =>
            {
                float[] m = v.Matrices.ToArray(), p = v.Positions.ToArray(), s = v.Scales.ToArray();
                ThingRun[] runs = v.Runs;
                ThingShapePlacement[] all = ThingLayout.Shapes(v);
                Assert.AreEqual(v.Colliders.Length, all.Length);
                Span<double> q = stackalloc double[4];
                Span<double> axis = stackalloc double[3];
                Span<double> turned = stackalloc double[3];
                foreach (ThingShapePlacement c in all)
                {
                    int i = c.Thing, kind = -1;
                    foreach (ThingRun r in runs)
                        if (i >= r.Start && i < r.Start + r.Count) kind = r.Kind;
                    ThingKind k = kinds[kind];
                    Assert.AreEqual(k.Shape, c.Shape);
                    shapes.Add(c.Shape);
                    q[0] = c.Rotation.X; q[1] = c.Rotation.Y; q[2] = c.Rotation.Z; q[3] = c.Rotation.W;
                    Assert.AreEqual(1.0, Math.Sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]), 1e-6);
                    float scale = s[i];
                    for (int col = 0; col < 2; col++)
                    {
                        axis[0] = col == 0 ? 1 : 0; axis[1] = col == 1 ? 1 : 0; axis[2] = 0;
                        ChunkMeshes.Rotate(q, axis, turned);
                        for (int row = 0; row < 3; row++)
                            Assert.AreEqual(m[16 * i + 4 * col + row] / scale, turned[row], 1e-4, "thing {0} axis {1}", i, col);
                    }
                    double up = k.ShapeCentre * scale;
                    Assert.AreEqual(p[3 * i] + m[16 * i + 4] / scale * up, c.Position.X, 1e-3);
                    Assert.AreEqual(p[3 * i + 1] + m[16 * i + 5] / scale * up, c.Position.Y, 1e-3);
                    Assert.AreEqual(p[3 * i + 2] + m[16 * i + 6] / scale * up, c.Position.Z, 1e-3);
                    if (c.Shape == ThingShape.Capsule)
                    {
                        Assert.AreEqual(k.Dim0 * scale, c.Radius, 1e-4);
                        Assert.AreEqual(k.Dim1 * scale, c.Height, 1e-4);
                    }
                    else if (c.Shape == ThingShape.Sphere)
                        Assert.AreEqual(k.Dim0 * scale, c.Radius, 1e-4);
                    else if (c.Shape == ThingShape.Box)
                    {
                        Assert.AreEqual(k.Dim0 * scale, c.HalfX, 1e-4);
                        Assert.AreEqual(k.Dim1 * scale, c.HalfY, 1e-4);
                        Assert.AreEqual(k.Dim2 * scale, c.HalfZ, 1e-4);
                    }
                    placed++;
                }
            });
            Assert.Greater(placed, 0);
            Assert.IsTrue(shapes.Contains(ThingShape.Capsule) && shapes.Contains(ThingShape.Sphere), "trees and rocks both collide");
        }
    }
}
