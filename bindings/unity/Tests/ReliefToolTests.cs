// relief's command-line tool run from C# (ReliefTool), as the editor window runs it: bake a
// world into a folder with a space in its name, pack it, open the pack with the C# API, read
// its census and preview, and see failures and cancels reported. tests/csharp.rs names the
// CLI it built in $RELIEF_TOOL.
using System;
using System.IO;
using NUnit.Framework;
using Relief;

namespace Relief.Tests
{
    [TestFixture]
    public class ReliefToolTests
    {
        static string Tool()
        {
            string looked;
            string tool = ReliefTool.Find(null, out looked);
            if (tool == null)
                Assert.Ignore(looked);
            return tool;
        }

        static ToolRun Finish(ToolRun run)
        {
            Assert.IsTrue(run.Wait(120000), "{0} still running", run.Command);
            Assert.IsTrue(run.Done);
            return run;
        }

        [Test]
        public void BakePackOpenCensusAndPreviewAsTheEditorDoes()
        {
            string tool = Tool();
            string dir = Path.Combine(Path.GetTempPath(), "relief tool " + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(dir);
            try
            {
                string world = Path.Combine(dir, "my world"), pack = Path.Combine(dir, "my world.rlpack");
                using (ToolRun bake = Finish(ReliefTool.Start(tool, ReliefTool.BakeWorld("an editor's seed", 512, world))))
                    Assert.IsTrue(bake.Succeeded, bake.Output);
                using (ToolRun packing = Finish(ReliefTool.Start(tool, ReliefTool.Pack(world, pack))))
                {
                    Assert.IsTrue(packing.Succeeded, packing.Output);
                    StringAssert.StartsWith("packed", packing.LastLine);
                }
                WorldInfo info;
                using (World w = World.Open(pack))
                    info = w.Info;
                Assert.AreEqual(512, info.RegionSize);
                Assert.AreEqual(0, info.RegionMinX);
                Assert.AreEqual(0, info.RegionMaxX, "512 m is one region");

                using (ToolRun census = Finish(ReliefTool.Start(tool, ReliefTool.Info(pack))))
                {
                    Assert.IsTrue(census.Succeeded, census.Output);
                    // The census and the API describe the same world.
                    StringAssert.Contains("1 regions of 512²", census.Output);
                    StringAssert.Contains(info.HeightMax.ToString("0.0", System.Globalization.CultureInfo.InvariantCulture) + " m", census.Output);
                }

                string png = Path.Combine(dir, "preview.png");
                using (ToolRun preview = Finish(ReliefTool.Start(tool, ReliefTool.Preview(pack, png, 96))))
                    Assert.IsTrue(preview.Succeeded, preview.Output);
                byte[] bytes = File.ReadAllBytes(png);
                CollectionAssert.AreEqual(new byte[] { 0x89, (byte)'P', (byte)'N', (byte)'G', 13, 10, 26, 10 }, new ArraySegment<byte>(bytes, 0, 8));
                int width = bytes[16] << 24 | bytes[17] << 16 | bytes[18] << 8 | bytes[19];
                int height = bytes[20] << 24 | bytes[21] << 16 | bytes[22] << 8 | bytes[23];
                Assert.GreaterOrEqual(height, 96, "the map is the pixels asked for");
                Assert.Greater(width, 96, "with the legend beside it");

                string planet = Path.Combine(dir, "small planet.plnt");
                using (ToolRun bake = Finish(ReliefTool.Start(tool, ReliefTool.BakePlanet("moon", 5000, 64, planet))))
                    Assert.IsTrue(bake.Succeeded, bake.Output);
                using (Planet p = Planet.Open(planet))
                    Assert.AreEqual(5000.0, p.Info.Radius, 1e-6);
            }
            finally
            {
                Directory.Delete(dir, true);
            }
        }

        [Test]
        public void AFailureSaysWhyAndACancelStops()
        {
            string tool = Tool();
            string missing = Path.Combine(Path.GetTempPath(), "no such world " + Guid.NewGuid().ToString("N"));
            using (ToolRun run = Finish(ReliefTool.Start(tool, ReliefTool.Info(missing))))
            {
                Assert.IsFalse(run.Succeeded);
                Assert.AreNotEqual(0, run.ExitCode);
                StringAssert.Contains(missing, run.Output, "the message names the file");
            }
            string dir = Path.Combine(Path.GetTempPath(), "relief cancel " + Guid.NewGuid().ToString("N"));
            try
            {
                // Big enough to take minutes: cancelled at once.
                using (ToolRun run = ReliefTool.Start(tool, ReliefTool.BakeWorld("slow", 16384, dir)))
                {
                    run.Cancel();
                    Assert.IsTrue(run.Wait(30000), "a cancelled bake stops");
                    Assert.IsFalse(run.Succeeded);
                }
            }
            finally
            {
                if (Directory.Exists(dir))
                    Directory.Delete(dir, true);
            }
            Assert.Throws<System.ComponentModel.Win32Exception>(delegate { ReliefTool.Start(Path.Combine(dir, "no-tool"), "info"); });
        }

        [Test]
        public void TheEditorListsWhatReliefOpensAndSummarizesIt()
        {
            string dir = Path.Combine(Path.GetTempPath(), "relief entries " + Guid.NewGuid().ToString("N"));
            try
            {
                Directory.CreateDirectory(Path.Combine(dir, "sub/deeper"));
                Directory.CreateDirectory(Path.Combine(dir, "island/regions"));
                foreach (string f in new[] { "a.rlpack", "sub/deeper/b.PLNT", "island/world.json", "island/regions/r.rlpack", "notes.txt", "sub/c.rlpack.meta" })
                    File.WriteAllText(Path.Combine(dir, f), "");
                CollectionAssert.AreEqual(new[] { "a.rlpack", "island", "sub/deeper/b.PLNT" }, Summary.Entries(dir));
                CollectionAssert.IsEmpty(Summary.Entries(Path.Combine(dir, "none")));
            }
            finally
            {
                Directory.Delete(dir, true);
            }
            var c = System.Globalization.CultureInfo.InvariantCulture;
            using (World w = World.Open(Fixtures.Pack))
            {
                string s = Summary.Of(Fixtures.Pack);
                StringAssert.StartsWith("flat world, ", s);
                StringAssert.Contains(w.Info.RegionCount + " regions of " + w.Info.RegionSize + "²", s);
                StringAssert.Contains("heights " + w.Info.HeightMin.ToString("0.0", c) + " … " + w.Info.HeightMax.ToString("0.0", c) + " m", s);
                StringAssert.Contains(w.Info.BiomeCount + " biomes", s);
            }
            using (Planet p = Planet.Open(Fixtures.Planet))
            {
                string s = Summary.Of(Fixtures.Planet);
                StringAssert.StartsWith("planet, radius " + (p.Info.Radius / 1000).ToString("0.0", c) + " km", s);
                StringAssert.Contains("6 faces of " + p.Info.FaceResolution + "²", s);
                StringAssert.Contains(p.Info.LakeCount + " lakes", s);
            }
            Assert.Throws<ReliefException>(delegate { Summary.Of(Path.Combine(Path.GetTempPath(), "missing.plnt")); });
        }

        [Test]
        public void ArgumentsAreQuotedAsCommandLinesAreParsed()
        {
            Assert.AreEqual("plain", ReliefTool.QuoteForWindows("plain"));
            Assert.AreEqual("\"two words\"", ReliefTool.QuoteForWindows("two words"));
            Assert.AreEqual("\"\"", ReliefTool.QuoteForWindows(""));
            Assert.AreEqual("\"say \\\"hi\\\"\"", ReliefTool.QuoteForWindows("say \"hi\""));
            // Backslashes double only before a quote, including the closing one.
            Assert.AreEqual("\"C:\\a dir\\\\\"", ReliefTool.QuoteForWindows("C:\\a dir\\"));
            Assert.AreEqual("C:\\dir\\file", ReliefTool.QuoteForWindows("C:\\dir\\file"));

            // The round trip through a real process on this system: every argument arrives
            // as it was given, whatever it holds.
            if (Environment.OSVersion.Platform == PlatformID.Win32NT)
                Assert.Ignore("the round trip runs /bin/sh");
            var hard = new[] { "plain", "two words", "", "o'neil", "rock'n'roll", "say \"hi\"", "back\\slash\\", "$HOME `id` \\$", "tab\there", "ünïcode ☃" };
            var args = new string[hard.Length + 3];
            args[0] = "-c";
            args[1] = "for a in \"$@\"; do printf '[%s]\\n' \"$a\"; done";
            args[2] = "sh";
            Array.Copy(hard, 0, args, 3, hard.Length);
            using (ToolRun echo = Finish(ReliefTool.Start("/bin/sh", args)))
            {
                Assert.IsTrue(echo.Succeeded, echo.Output);
                var want = new System.Text.StringBuilder();
                foreach (string h in hard)
                    want.Append('[').Append(h).Append(']').Append('\n');
                Assert.AreEqual(want.ToString().Replace("\n", Environment.NewLine), echo.Output);
            }
        }

        [Test]
        public void WithoutTheToolFindSaysWhereItLooked()
        {
            string saved = Environment.GetEnvironmentVariable(ReliefTool.Variable), path = Environment.GetEnvironmentVariable("PATH");
            try
            {
                Environment.SetEnvironmentVariable(ReliefTool.Variable, null);
                Environment.SetEnvironmentVariable("PATH", "");
                string looked;
                Assert.IsNull(ReliefTool.Find("/no/package", out looked));
                StringAssert.Contains(Path.Combine("/no/package", "Tools~"), looked);
                StringAssert.Contains(ReliefTool.Variable, looked);
                if (saved != null)
                {
                    Environment.SetEnvironmentVariable(ReliefTool.Variable, saved);
                    Assert.AreEqual(saved, ReliefTool.Find("/no/package", out looked));
                    Assert.IsNull(looked);
                }
            }
            finally
            {
                Environment.SetEnvironmentVariable(ReliefTool.Variable, saved);
                Environment.SetEnvironmentVariable("PATH", path);
            }
        }
    }
}
