using System;
using System.Threading;

namespace Relief
{
    /// <summary>Opens a world or planet on a thread of its own, so that reading a file's index
    /// or waiting on a server (a URL's timeout and retries) never holds up a frame. Start it
    /// from the main thread, <see cref="Poll"/> it once a frame, and take the result when it is
    /// over; <see cref="Dispose"/> abandons it (a result that arrives later is disposed).</summary>
    public sealed class Opening<T> : IDisposable where T : class, IDisposable
    {
        readonly object gate = new object();
        T result;
        string error;
        bool over, abandoned, taken;

        /// <summary>Starts <paramref name="open"/> on a new background thread. Its exception's
        /// message becomes the error.</summary>
        public Opening(Func<T> open)
        {
            if (open == null) throw new ArgumentNullException(nameof(open));
            var thread = new Thread(() => Run(open)) { IsBackground = true, Name = "relief-open" };
            thread.Start();
        }

        void Run(Func<T> open)
        {
            T opened = null;
            string why = null;
            try
            {
                opened = open();
                if (opened == null)
                    why = "nothing was opened";
            }
            catch (Exception e)
            {
                why = e.Message;
            }
            lock (gate)
            {
                if (!abandoned)
                {
                    result = opened;
                    error = why;
                    over = true;
                    return;
                }
            }
            if (opened != null)
                opened.Dispose(); // nobody will take it
        }

        /// <summary>False while opening. Then true, once: with <paramref name="opened"/> (now
        /// the caller's to dispose) or <paramref name="why"/> set; false again after, and
        /// always once disposed.</summary>
        public bool Poll(out T opened, out string why)
        {
            lock (gate)
            {
                opened = null;
                why = null;
                if (!over || taken || abandoned)
                    return false;
                taken = true;
                opened = result;
                why = error;
                result = null;
                return true;
            }
        }

        /// <summary>Abandons the opening: what it opens is disposed, now or when it arrives.</summary>
        public void Dispose()
        {
            T drop;
            lock (gate)
            {
                abandoned = true;
                drop = result;
                result = null;
            }
            if (drop != null)
                drop.Dispose();
        }
    }
}
