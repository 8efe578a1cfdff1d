// Far-ground levels as engine textures: on a frame whose update changed levels, only the
// levels a dirty rectangle touches are uploaded, straight from relief's storage.
using System;

namespace Relief
{
    sealed class FarGround<TTile, TMesh> where TTile : class where TMesh : class
    {
        readonly StreamingDriver<TTile, TMesh> driver;
        readonly SpanReader<float, FarGround<TTile, TMesh>> upload = Upload;
        DirtyRect[] rects = new DirtyRect[64];
        readonly bool[] dirty;
        LevelInfo uploading;
        /// <summary>Levels uploaded since the start (for stats and tests).</summary>
        internal long Uploads;

        internal FarGround(StreamingDriver<TTile, TMesh> driver, int levels)
        {
            this.driver = driver;
            dirty = new bool[levels];
        }

        /// <summary>The update changed <paramref name="count"/> rectangles: uploads the levels
        /// they touch.</summary>
        internal void Changed(int count)
        {
            if (count <= 0)
                return;
            if (count > rects.Length)
                rects = new DirtyRect[Math.Max(count, 2 * rects.Length)]; // grows once, then reused
            int n = driver.Runtime.GetDirty(new Span<DirtyRect>(rects, 0, count));
            Array.Clear(dirty, 0, dirty.Length);
            FarLevels.DirtyLevels(new ReadOnlySpan<DirtyRect>(rects, 0, n), dirty);
            UploadMarked();
        }

        void UploadMarked()
        {
            for (int k = 0; k < dirty.Length; k++)
            {
                if (!dirty[k])
                    continue;
                uploading = driver.Runtime.Level(k);
                driver.Runtime.LevelHeights(k).Read(this, upload);
                Uploads++;
            }
        }

        /// <summary>Uploads every level: after a Settle, whose internal updates each changed
        /// rectangles that GetDirty (the last update's only) no longer lists.</summary>
        internal void All()
        {
            for (int k = 0; k < dirty.Length; k++)
                dirty[k] = true;
            UploadMarked();
        }

        static void Upload(ReadOnlySpan<float> heights, FarGround<TTile, TMesh> self)
        {
            self.driver.Engine.UploadLevel(self.uploading, heights);
        }
    }
}
