// Placed thing chunks held for whatever draws them: acquired when relief places a chunk,
// released when it drops it, and lent to a sink (the Unity component) in between. The driver
// feeds it its ThingsReady and ThingsDropped events. The sink may come and go while streaming
// runs (a component enabled late sees every chunk already held), and it is told before a
// chunk's memory goes back, since a sink may draw from that memory in place.
using System;
using System.Collections.Generic;

namespace Relief
{
    /// <summary>What draws placed things: told of each chunk held and of each it must let go
    /// of. Both calls come on the main thread, from <see cref="StreamingDriver{TTile, TMesh}.Frame"/>,
    /// from setting <see cref="ThingChunks.Sink"/>, or from the driver's Dispose.</summary>
    public interface IThingsSink
    {
        /// <summary>Chunk <paramref name="chunk"/> is held: its arrays are readable in place until
        /// the matching <see cref="Hide"/>. The sink must not dispose it.</summary>
        void Show(ThingsView chunk);
        /// <summary>The chunk is about to be released: stop every use of its memory before
        /// returning (it is freed right after).</summary>
        void Hide(ThingsView chunk);
    }

    /// <summary>The placed thing chunks a <see cref="StreamingDriver{TTile, TMesh}"/> holds
    /// (<see cref="DriverSettings.Things"/>), each from its ThingsReady event to its
    /// ThingsDropped event, lent to <see cref="Sink"/>.</summary>
    public sealed class ThingChunks
    {
        readonly Runtime runtime;
        readonly Action<string> warn;
        readonly Dictionary<ThingKey, ThingsView> held = new Dictionary<ThingKey, ThingsView>();
        IThingsSink sink;
        bool cleared;

        internal ThingChunks(Runtime runtime, Action<string> warn)
        {
            this.runtime = runtime;
            this.warn = warn;
        }

        /// <summary>Chunks held now.</summary>
        public int Count { get { return held.Count; } }

        /// <summary>Things in the chunks held now.</summary>
        public int Things
        {
            get
            {
                int n = 0;
                foreach (ThingsView v in held.Values)
                    n += v.Count;
                return n;
            }
        }

        /// <summary>The held chunk <paramref name="key"/>, if any (valid until its Hide).</summary>
        public bool TryGet(ThingKey key, out ThingsView view) { return held.TryGetValue(key, out view); }

        /// <summary>What the chunks are lent to, or null. Setting it hides every held chunk from
        /// the old sink, then shows each to the new one; null once the driver is disposed (a
        /// sink set then is shown nothing).</summary>
        public IThingsSink Sink
        {
            get { return sink; }
            set
            {
                if (value == sink)
                    return;
                if (sink != null)
                    foreach (ThingsView v in Snapshot())
                        Tell(sink, v, false);
                sink = cleared ? null : value;
                if (sink != null)
                    foreach (ThingsView v in Snapshot())
                        Tell(sink, v, true);
            }
        }

        /// <summary>Chunk <paramref name="key"/> was placed: hold it and show it. A chunk held
        /// already (placed again) is hidden and released first; one dropped again before this
        /// ran is not found and nothing happens.</summary>
        internal void Ready(ThingKey key)
        {
            if (cleared)
                return;
            Release(key);
            ThingsView v = runtime.AcquireThings(key);
            if (v == null)
                return;
            held[key] = v;
            if (sink != null)
                Tell(sink, v, true);
        }

        /// <summary>Chunk <paramref name="key"/> was dropped: hide it, then let go of it.</summary>
        internal void Dropped(ThingKey key) { Release(key); }

        void Release(ThingKey key)
        {
            ThingsView v;
            if (!held.TryGetValue(key, out v))
                return;
            held.Remove(key);
            if (sink != null)
                Tell(sink, v, false);
            v.Dispose();
        }

        /// <summary>After an Overflow event (events were lost): holds exactly the chunks the
        /// runtime lists as placed, each band's (<see cref="Runtime.ListLoaded"/>).</summary>
        internal void Resync()
        {
            if (cleared)
                return;
            var placed = new HashSet<ThingKey>();
            foreach (ThingBand band in new[] { ThingBand.Near, ThingBand.Mid, ThingBand.Far })
            {
                StreamKind stream = Runtime.ThingStream(band);
                var events = new StreamEvent[runtime.ListLoaded(stream, Span<StreamEvent>.Empty)];
                int n = runtime.ListLoaded(stream, events);
                for (int i = 0; i < n; i++)
                    placed.Add(events[i].ThingKey);
            }
            foreach (ThingsView v in Snapshot())
                if (!placed.Contains(v.Key))
                    Release(v.Key);
            foreach (ThingKey k in placed)
                if (!held.ContainsKey(k))
                    Ready(k);
        }

        /// <summary>Hides and releases every chunk, for good (the driver's Dispose).</summary>
        internal void Clear()
        {
            foreach (ThingsView v in Snapshot())
                Release(v.Key);
            sink = null;
            cleared = true;
        }

        /// <summary>The held views, copied (rare calls: a sink set, a resync, the end), so
        /// that a sink's call can't change what is being iterated.</summary>
        ThingsView[] Snapshot()
        {
            var all = new ThingsView[held.Count];
            held.Values.CopyTo(all, 0);
            return all;
        }

        /// <summary>Shows or hides <paramref name="v"/> to <paramref name="to"/>; an exception
        /// from the sink is logged as a warning and the chunk stays held (streaming goes on).</summary>
        void Tell(IThingsSink to, ThingsView v, bool show)
        {
            try
            {
                if (show) to.Show(v);
                else to.Hide(v);
            }
            catch (Exception e)
            {
                warn(string.Format("{0}: placed things could not be {1}: {2}", v.Key, show ? "shown" : "hidden", e.Message));
            }
        }
    }
}
