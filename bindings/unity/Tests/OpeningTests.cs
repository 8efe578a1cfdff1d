// Opening off the main thread and loading with frames alone, as the components do: no call
// blocks the caller for a file's index, a server's answer or the first loads.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Threading;
using NUnit.Framework;
using Relief;

namespace Relief.Tests
{
    [TestFixture]
    public class OpeningTests
    {
        /// <summary>Polls until the opening is over (a loading screen's frames).</summary>
        static bool Wait<T>(Opening<T> opening, out T opened, out string why) where T : class, IDisposable
        {
            var clock = Stopwatch.StartNew();
            while (clock.ElapsedMilliseconds < 60000)
            {
                if (opening.Poll(out opened, out why))
                    return true;
                Thread.Sleep(1);
            }
            opened = null;
            why = null;
            return false;
        }

        [Test]
        public void AWorldOpensOffTheCallersThreadAndLoadsWithFramesAloneToProgressOne()
        {
            int caller = Thread.CurrentThread.ManagedThreadId, openedOn = caller;
            World world;
            string why;
            using (var opening = new Opening<World>(() => { openedOn = Thread.CurrentThread.ManagedThreadId; return World.Open(Fixtures.World); }))
            {
                Assert.IsTrue(Wait(opening, out world, out why), "still opening after a minute");
                Assert.IsNull(why);
                World again;
                string why2;
                Assert.IsFalse(opening.Poll(out again, out why2), "handed over once");
            } // disposing the opening leaves what it handed over alone
            Assert.AreNotEqual(caller, openedOn);

            var engine = new FakeEngine();
            using (world)
            using (var driver = new StreamingDriver<FakeTile, FakeMesh>(engine, world, new DriverSettings()))
            {
                Double3 at = world.Info.Centre;
                Assert.AreEqual(0f, driver.Progress, "nothing is wanted before the first frame");
                Assert.IsTrue(driver.Frame(at, at));
                float first = driver.Progress;
                Assert.Less(first, 1f, "the first frame only asks for the ground");
                var seen = new List<float>();
                var clock = Stopwatch.StartNew();
                while (driver.Progress < 1f && clock.ElapsedMilliseconds < 60000)
                {
                    Assert.IsTrue(driver.Frame(at, at));
                    seen.Add(driver.Progress);
                    Thread.Sleep(2);
                }
                Assert.AreEqual(1f, driver.Progress, "loaded within a minute of frames");
                foreach (float p in seen)
                    Assert.IsTrue(p >= 0f && p <= 1f, p.ToString());
                // At 1, every wanted region is a tile on show.
                RuntimeStats r = driver.Runtime.Stats;
                Assert.AreEqual(r.PiecesWanted, r.PiecesReady);
                Assert.AreEqual(r.PiecesWanted, driver.Stats.TilesShown);
                Assert.AreEqual(0, driver.Stats.TilesPending);
                CollectionAssert.IsEmpty(engine.Errors);
                CollectionAssert.IsEmpty(engine.WrongThread);
            }
        }

        sealed class Probe : IDisposable
        {
            public volatile bool Disposed;
            public void Dispose() { Disposed = true; }
        }

        [Test]
        public void AFailedOpeningSaysWhyAndAnAbandonedOneDisposesWhatItOpensLater()
        {
            World world;
            string why;
            using (var opening = new Opening<World>(() => World.Open("/nonexistent/relief/world")))
            {
                Assert.IsTrue(Wait(opening, out world, out why));
                Assert.IsNull(world);
                StringAssert.Contains("NOT_FOUND", why);
                Assert.IsFalse(opening.Poll(out world, out why), "over once");
            }
            using (var opening = new Opening<World>(() => null))
            {
                Assert.IsTrue(Wait(opening, out world, out why));
                Assert.AreEqual("nothing was opened", why);
            }

            // Abandoned while opening: what arrives afterwards is disposed, and never handed out.
            var release = new ManualResetEvent(false);
            var probe = new Probe();
            var slow = new Opening<Probe>(() => { release.WaitOne(); return probe; });
            slow.Dispose();
            release.Set();
            var clock = Stopwatch.StartNew();
            while (!probe.Disposed && clock.ElapsedMilliseconds < 10000)
                Thread.Sleep(1);
            Assert.IsTrue(probe.Disposed);
            Probe got;
            Assert.IsFalse(slow.Poll(out got, out why));

            // Abandoned once over (or about to be) but not taken: disposed all the same.
            var probe2 = new Probe();
            var quick = new Opening<Probe>(() => probe2);
            Thread.Sleep(200);
            quick.Dispose();
            clock.Restart();
            while (!probe2.Disposed && clock.ElapsedMilliseconds < 10000)
                Thread.Sleep(1);
            Assert.IsTrue(probe2.Disposed);
        }
    }
}
