// relief's own log (ReliefLog over relief_set_log): failed calls at Debug, loads that fail at
// Warn (to be retried) and Error (given up), a level filter, and a handler that can be replaced,
// removed, or throw without harm.
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using NUnit.Framework;
using Relief;

namespace Relief.Tests
{
    /// <summary>A pack read through callbacks that can be made to fail once the world is open.</summary>
    sealed class FailingReader : IPackReader
    {
        readonly byte[] bytes;
        public volatile bool Fail;
        public FailingReader(byte[] bytes) { this.bytes = bytes; }
        public long Length { get { return bytes.Length; } }
        public bool ReadAt(long offset, Span<byte> destination)
        {
            if (Fail)
                return false;
            new ReadOnlySpan<byte>(bytes, (int)offset, destination.Length).CopyTo(destination);
            return true;
        }
    }

    [TestFixture]
    public class LogTests
    {
        sealed class Message
        {
            public LogLevel Level;
            public string Text;
            public int Thread;
        }

        /// <summary>Keeps every message, from any thread.</summary>
        sealed class Recorder
        {
            readonly List<Message> messages = new List<Message>();
            public void Add(LogLevel level, string text)
            {
                lock (messages) messages.Add(new Message { Level = level, Text = text, Thread = Thread.CurrentThread.ManagedThreadId });
            }
            public List<Message> Taken()
            {
                lock (messages) return new List<Message>(messages);
            }
            public int Mentioning(string text)
            {
                return Taken().FindAll(m => m.Text.Contains(text)).Count;
            }
        }

        [TearDown]
        public void Quiet()
        {
            ReliefLog.Set(null, LogLevel.Error); // the log is the process's: leave it as found
        }

        [Test]
        public void FailedCallsAreLoggedAtDebugUpToTheLevelAndNotOnceRemoved()
        {
            var log = new Recorder();
            string missing = "/nonexistent/relief/log-test-" + Guid.NewGuid().ToString("N");
            ReliefLog.Set(log.Add, LogLevel.Debug);
            var e = Assert.Throws<ReliefException>(delegate { World.Open(missing); });
            List<Message> debug = log.Taken().FindAll(m => m.Text.Contains(missing));
            Assert.AreEqual(1, debug.Count, "the failed call's message, once");
            Assert.AreEqual(LogLevel.Debug, debug[0].Level);
            StringAssert.Contains(debug[0].Text, e.Message, "the exception carries the logged message");
            Assert.AreEqual(Thread.CurrentThread.ManagedThreadId, debug[0].Thread, "a call's failure is logged on the calling thread");

            // Up to Warn: failed calls are Debug, so they no longer arrive.
            ReliefLog.Set(log.Add, LogLevel.Warn);
            Assert.Throws<ReliefException>(delegate { World.Open(missing + "-warn"); });
            Assert.AreEqual(0, log.Mentioning(missing + "-warn"));

            // Replaced: only the new handler hears.
            var second = new Recorder();
            ReliefLog.Set(second.Add, LogLevel.Debug);
            Assert.Throws<ReliefException>(delegate { World.Open(missing + "-second"); });
            Assert.AreEqual(0, log.Mentioning(missing + "-second"));
            Assert.AreEqual(1, second.Mentioning(missing + "-second"));

            // Removed: nobody hears.
            ReliefLog.Set(null, LogLevel.Debug);
            Assert.Throws<ReliefException>(delegate { World.Open(missing + "-none"); });
            Assert.AreEqual(0, log.Mentioning(missing + "-none") + second.Mentioning(missing + "-none"));

            // A level that is no RELIEF_LOG_* is refused and changes nothing.
            e = Assert.Throws<ReliefException>(delegate { ReliefLog.Set(log.Add, (LogLevel)9); });
            Assert.AreEqual(ReliefStatus.InvalidArgument, e.Status);
            Assert.Throws<ReliefException>(delegate { World.Open(missing + "-refused"); });
            Assert.AreEqual(0, log.Mentioning(missing + "-refused"), "the refused handler was not installed");
        }

        [Test]
        public void AHandlerThatThrowsHarmsNothing()
        {
            int calls = 0;
            ReliefLog.Set((level, text) => { Interlocked.Increment(ref calls); throw new InvalidOperationException("a broken handler"); }, LogLevel.Debug);
            var e = Assert.Throws<ReliefException>(delegate { World.Open("/nonexistent/relief/throwing-handler"); });
            Assert.AreEqual(ReliefStatus.NotFound, e.Status);
            Assert.Greater(calls, 0);
            using (World world = World.Open(Fixtures.World))
                Assert.Greater(world.Info.RegionCount, 0, "relief goes on after a handler threw");
        }

        [Test]
        public void LoadsThatFailAreLoggedAndReportedByEvents()
        {
            var reader = new FailingReader(File.ReadAllBytes(Fixtures.Pack));
            var log = new Recorder();
            using (World world = World.OpenReader(reader))
            {
                RuntimeConfig config = StreamingTests.PiecesOnly();
                config.MaxAttempts = 2;
                config.RetryDelayMs = 10;
                using (var rt = new Runtime(world, config))
                {
                    ReliefLog.Set(log.Add, LogLevel.Warn);
                    reader.Fail = true; // every region read fails from now on
                    Double3 c = world.Info.Centre;
                    rt.Settle(c.X, 0, c.Z, 20000);
                    var failed = new List<StreamEvent>();
                    Span<StreamEvent> events = new StreamEvent[64];
                    // Frames until some region has given up (its second attempt failed).
                    var clock = System.Diagnostics.Stopwatch.StartNew();
                    while (!failed.Exists(f => !f.WillRetry) && clock.ElapsedMilliseconds < 20000)
                    {
                        rt.Update(c.X, 0, c.Z);
                        int n;
                        while ((n = rt.PollEvents(events)) > 0)
                            for (int i = 0; i < n; i++)
                            {
                                Assert.AreNotEqual(EventKind.Loaded, events[i].Kind, "nothing can load");
                                if (events[i].Kind == EventKind.Failed)
                                    failed.Add(events[i]);
                            }
                        Thread.Sleep(5);
                    }
                    Assert.IsNotEmpty(failed);
                    foreach (StreamEvent f in failed)
                    {
                        Assert.AreEqual(ReliefStatus.Io, f.Status, f.ToString());
                        Assert.That(f.Attempt, Is.InRange(1, 2));
                        Assert.AreEqual(f.Attempt < 2, f.WillRetry, "retried until MaxAttempts");
                        Assert.AreEqual(0ul, f.Bytes);
                    }
                    Assert.IsTrue(failed.Exists(f => f.WillRetry), "a first failure is retried");
                    Assert.IsTrue(failed.Exists(f => !f.WillRetry), "some region gave up");
                    Assert.AreEqual(0, rt.Stats.PiecesReady);
                    Assert.Greater(rt.Stats.PiecesWanted, 0);
                    Assert.Greater(rt.GetStreamStats(StreamKind.Pieces).Failures, 0ul);
                    // Frames until every wanted region has given up: then they are all counted
                    // failed, and a loading screen (ready + failed = wanted) is over.
                    clock.Restart();
                    while (rt.Stats.PiecesFailed < rt.Stats.PiecesWanted && clock.ElapsedMilliseconds < 20000)
                    {
                        rt.Update(c.X, 0, c.Z);
                        while (rt.PollEvents(events) > 0) { }
                        Thread.Sleep(5);
                    }
                    Assert.AreEqual(rt.Stats.PiecesWanted, rt.Stats.PiecesFailed);
                    Assert.AreEqual(0, rt.Stats.PiecesReady);
                    Assert.IsNull(rt.AcquireRegion(failed[0].X, failed[0].Z));
                }
            }
            List<Message> messages = log.Taken();
            Assert.IsTrue(messages.Exists(m => m.Level == LogLevel.Warn && m.Text.Contains("retrying")), "a failed load to be retried is a warning");
            Assert.IsTrue(messages.Exists(m => m.Level == LogLevel.Error && m.Text.Contains("giving up")), "a load that gave up is an error");
            Assert.IsFalse(messages.Exists(m => m.Level > LogLevel.Warn), "nothing past the level set");
        }
    }
}
