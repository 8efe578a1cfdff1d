// Far-ground levels as Unity uploads (FarLevels), engine-free: only levels a dirty rectangle
// touches upload, and the toroidal texel of a world cell is where relief's storage keeps it.
using System;
using NUnit.Framework;
using Relief;

namespace Relief.Tests
{
    [TestFixture]
    public class FarLevelTests
    {
        static DirtyRect Rect(int level, int w, int d)
        {
            return new DirtyRect(level, 3, 4, w, d);
        }

        [Test]
        public void OnlyLevelsADirtyRectangleTouchesUpload()
        {
            var dirty = new bool[6];
            var rects = new[] { Rect(1, 4, 2), Rect(1, 1, 1), Rect(4, 0, 5), Rect(5, 2, 2), Rect(9, 2, 2) };
            Assert.AreEqual(2, FarLevels.DirtyLevels(rects, dirty));
            CollectionAssert.AreEqual(new[] { false, true, false, false, false, true }, dirty);
            Assert.AreEqual(3, FarLevels.DirtyLevels(new[] { Rect(0, 1, 1) }, dirty), "flags accumulate");
            Assert.AreEqual(3, FarLevels.DirtyLevels(new DirtyRect[0], dirty));
        }

        [Test]
        public void AWorldCellsTexelIsItsToroidalStorageIndex()
        {
            uint size = 8;
            // Cells of one window, origin (-5, 13): every one has its own texel, and the
            // texel is (j mod size) * size + (i mod size) with a non-negative modulo.
            var seen = new bool[size * size];
            for (long j = 13; j < 13 + size; j++)
                for (long i = -5; i < -5 + size; i++)
                {
                    int t = FarLevels.Texel(i, j, size);
                    Assert.IsFalse(seen[t], "texel {0} twice", t);
                    seen[t] = true;
                    long u = i - size * (long)Math.Floor(i / (double)size), v = j - size * (long)Math.Floor(j / (double)size);
                    Assert.AreEqual(v * size + u, t);
                }
            var level = new LevelInfo(new Relief.Native.relief_level_view { size = size, origin_i = -5, origin_j = 13, spacing = 32 });
            var w = new double[4];
            FarLevels.Window(level, w);
            CollectionAssert.AreEqual(new[] { -160.0, 416.0, 32.0, 8.0 }, w);
        }
    }
}
