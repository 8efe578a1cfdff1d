// What a streaming terrain component does each frame, without the engine: drive the
// runtime, turn its events into tiles, colliders and level uploads, and keep the main
// thread's share of that within a budget. The Unity components are this plus the engine
// calls (IReliefEngine); tests run it against the real library with an engine of arrays.
using System;
using System.Diagnostics;

namespace Relief
{
    /// <summary>What a <see cref="StreamingDriver{TTile, TMesh}"/> streams and how much of a
    /// frame it may take. A new instance holds the defaults.</summary>
    public sealed class DriverSettings
    {
        /// <summary>Metres around the focus that are loaded; 0: relief's default.</summary>
        public double LoadRadius;
        /// <summary>Metres around the focus that get collision chunks; 0: relief's default.</summary>
        public double CollisionRadius;
        /// <summary>The most resident pieces may hold, bytes; 0: relief's default.</summary>
        public ulong BudgetBytes;
        /// <summary>Milliseconds of main-thread work a frame may spend showing what workers
        /// built (one item always goes through, so streaming never stalls).</summary>
        public double MainThreadBudgetMs = 2.0;
        /// <summary>Collision chunks as mesh colliders. Default: on for planets; off for flat
        /// worlds, whose terrain tiles carry their own colliders.</summary>
        public bool? ChunkColliders;
        /// <summary>A collision chunk's side, metres; 0: relief's default (64 m).</summary>
        public double ChunkSize;
        /// <summary>Far-ground levels (clipmap or planet rings) uploaded as textures.</summary>
        public bool FarGround = true;
        /// <summary>Terrain tiles for a flat world's regions.</summary>
        public bool Tiles = true;
        /// <summary>Layers the tiles' splat holds (1 … 32), made from each region's control
        /// words or biomes (<see cref="GroundSplat"/>); 0: tiles get no splat.</summary>
        public int GroundLayers;
        /// <summary>Placed things (trees, rocks, grass): the chunks relief places are held in
        /// <see cref="StreamingDriver{TTile, TMesh}.Things"/> for a sink to draw. Off (the
        /// default): the runtime places none (<see cref="RuntimeFlags.NoThings"/>), so nothing
        /// is spent on things no one draws.</summary>
        public bool Things;
    }

    /// <summary>Whether a driver still streams.</summary>
    public enum DriverState
    {
        Running,
        /// <summary>An error stopped it (logged once); what was shown stays.</summary>
        Stopped,
        Disposed,
    }

    /// <summary>A driver's counts and its own main-thread cost.</summary>
    public struct DriverStats
    {
        public int TilesShown, TilesPooled, TilesCreated, TilesPending;
        public int CollidersShown, CollidersPooled, CollidersCreated, CollidersPending;
        /// <summary>Placed thing chunks held, and the things in them.</summary>
        public int ThingChunks, Things;
        public long LevelUploads;
        public int WorkersBusy;
        /// <summary>The last frame's main-thread milliseconds in <see cref="StreamingDriver{TTile, TMesh}.Frame"/>, and the most any frame took.</summary>
        public double FrameMs, FrameMaxMs;
    }

    /// <summary>Streams a flat world or a planet into an engine through
    /// <see cref="IReliefEngine{TTile, TMesh}"/>: call <see cref="Frame"/> once a frame on the
    /// main thread. Never throws from Frame: a failure is logged once through the engine and
    /// stops the driver.</summary>
    public sealed class StreamingDriver<TTile, TMesh> : IDisposable where TTile : class where TMesh : class
    {
        internal readonly IReliefEngine<TTile, TMesh> Engine;
        internal readonly Workers Work = new Workers();
        readonly DriverSettings settings;
        readonly TileSet<TTile, TMesh> tiles;
        readonly ChunkColliders<TTile, TMesh> colliders;
        readonly FarGround<TTile, TMesh> far;
        readonly StreamEvent[] events = new StreamEvent[64];
        readonly Stopwatch clock = new Stopwatch();
        double frameMs, frameMaxMs;
        /// <summary>Whether a frame has run: before it the runtime wants nothing yet.</summary>
        bool framed;
        /// <summary>Set by Settle: its updates' level rectangles are gone, so the next frame
        /// uploads every level instead.</summary>
        bool allLevelsDirty;

        /// <summary>The runtime driven (the driver owns it).</summary>
        public readonly Runtime Runtime;
        /// <summary>Queries over a flat world's runtime, or null on a planet.</summary>
        public readonly TerrainQueries Terrain;
        /// <summary>Queries over a planet's runtime, or null on a flat world.</summary>
        public readonly PlanetQueries PlanetTerrain;
        /// <summary>The placed thing chunks held (<see cref="DriverSettings.Things"/>), or null
        /// without them.</summary>
        public readonly ThingChunks Things;
        public DriverState State { get; private set; }
        /// <summary>Why the driver stopped, or null.</summary>
        public string StopReason { get; private set; }

        /// <summary>Streams <paramref name="world"/> (which must outlive the driver's
        /// construction only: the runtime keeps what it needs).</summary>
        public StreamingDriver(IReliefEngine<TTile, TMesh> engine, World world, DriverSettings settings)
        {
            if (engine == null) throw new ArgumentNullException("engine");
            if (world == null) throw new ArgumentNullException("world");
            Engine = engine;
            this.settings = settings ?? new DriverSettings();
            RuntimeConfig config = Config(this.settings.ChunkColliders ?? false);
            Runtime = new Runtime(world, config);
            Terrain = new TerrainQueries(Runtime);
            if (this.settings.Tiles)
                tiles = new TileSet<TTile, TMesh>(this, world.Info, this.settings.GroundLayers);
            if (this.settings.ChunkColliders ?? false)
                colliders = new ChunkColliders<TTile, TMesh>(this);
            if (this.settings.FarGround)
                far = new FarGround<TTile, TMesh>(this, config.LevelCount);
            if (this.settings.Things)
                Things = new ThingChunks(Runtime, Warn);
        }

        /// <summary>Streams <paramref name="planet"/>.</summary>
        public StreamingDriver(IReliefEngine<TTile, TMesh> engine, Planet planet, DriverSettings settings)
        {
            if (engine == null) throw new ArgumentNullException("engine");
            if (planet == null) throw new ArgumentNullException("planet");
            Engine = engine;
            this.settings = settings ?? new DriverSettings();
            RuntimeConfig config = Config(this.settings.ChunkColliders ?? true);
            Runtime = new Runtime(planet, config);
            PlanetTerrain = new PlanetQueries(Runtime);
            if (this.settings.ChunkColliders ?? true)
                colliders = new ChunkColliders<TTile, TMesh>(this);
            if (this.settings.FarGround)
                far = new FarGround<TTile, TMesh>(this, config.LevelCount);
            if (this.settings.Things)
                Things = new ThingChunks(Runtime, Warn);
        }

        RuntimeConfig Config(bool chunks)
        {
            RuntimeConfig c = RuntimeConfig.Default();
            RuntimeFlags flags = RuntimeFlags.None;
            if (!chunks) flags |= RuntimeFlags.NoCollision;
            if (!settings.FarGround) flags |= RuntimeFlags.NoLevels;
            if (!settings.Things) flags |= RuntimeFlags.NoThings;
            c.Flags = flags;
            double load = c.LoadRadius, drop = c.DropRadius;
            Widen(ref load, ref drop, settings.LoadRadius);
            c.LoadRadius = load;
            c.DropRadius = drop;
            if (settings.BudgetBytes > 0)
                c.BudgetBytes = settings.BudgetBytes;
            load = c.CollisionLoadRadius;
            drop = c.CollisionDropRadius;
            Widen(ref load, ref drop, settings.CollisionRadius);
            c.CollisionLoadRadius = load;
            c.CollisionDropRadius = drop;
            if (settings.ChunkSize > 0)
                c.ChunkSize = settings.ChunkSize;
            return c;
        }

        /// <summary>Loads out to <paramref name="radius"/> (0: as it is), keeping relief's gap
        /// between loading and dropping so pieces at the edge don't churn.</summary>
        static void Widen(ref double load, ref double drop, double radius)
        {
            if (radius <= 0)
                return;
            double gap = Math.Max(drop - load, 0);
            load = radius;
            drop = radius + gap;
        }

        /// <summary>One frame: pieces and colliders follow <paramref name="focus"/>, far ground
        /// follows <paramref name="camera"/> (world metres, or the planet frame). Returns false
        /// once the driver has stopped or been disposed.</summary>
        public bool Frame(Double3 focus, Double3 camera)
        {
            if (State != DriverState.Running)
                return false;
            clock.Restart();
            try
            {
                try
                {
                    Runtime.Update(focus, camera);
                }
                catch (ReliefException e) when (e.Status == ReliefStatus.Panic)
                {
                    // The planet's ring thread panicked (a bug in relief): the update did
                    // everything else and the levels start again, so the frame goes on.
                    Warn(e.Message);
                }
                framed = true;
                int n;
                while ((n = Runtime.PollEvents(events)) > 0)
                    for (int i = 0; i < n; i++)
                        Dispatch(events[i]);
                if (allLevelsDirty && far != null)
                    far.All();
                allLevelsDirty = false;
                FinishWork(settings.MainThreadBudgetMs);
            }
            catch (Exception e)
            {
                Stop(e.Message);
            }
            frameMs = clock.Elapsed.TotalMilliseconds;
            if (frameMs > frameMaxMs) frameMaxMs = frameMs;
            return State == DriverState.Running;
        }

        void Dispatch(StreamEvent e)
        {
            switch (e.Kind)
            {
                case EventKind.Loaded:
                    if (tiles != null && Runtime.World != null) tiles.Loaded(e.X, e.Z);
                    break;
                case EventKind.Unloaded:
                    if (tiles != null && Runtime.World != null) tiles.Unloaded(e.X, e.Z);
                    break;
                case EventKind.Failed:
                    if (!e.WillRetry)
                        Warn(string.Format("{0} ({1}, {2}) failed to load and won't be tried again: {3}",
                            Runtime.World != null ? "region" : "tile", e.X, e.Z, e.Status));
                    break;
                case EventKind.ChunkReady:
                    if (colliders != null) colliders.Ready(new ChunkKey(e.Face, e.X, e.Z));
                    break;
                case EventKind.ChunkDropped:
                    if (colliders != null) colliders.Dropped(new ChunkKey(e.Face, e.X, e.Z));
                    break;
                case EventKind.ChunkFailed:
                    Warn(string.Format("collision chunk ({0}, {1}) face {2} failed: {3}", e.X, e.Z, e.Face, e.Status));
                    break;
                case EventKind.LevelsDirty:
                    if (far != null && !allLevelsDirty) far.Changed(e.X);
                    break;
                case EventKind.ThingsReady:
                    if (Things != null) Things.Ready(e.ThingKey);
                    break;
                case EventKind.ThingsDropped:
                    if (Things != null) Things.Dropped(e.ThingKey);
                    break;
                case EventKind.ThingsFailed:
                    if (!e.WillRetry)
                        Warn(string.Format("{0} failed to be placed and won't be tried again: {1}", e.ThingKey, e.Status));
                    break;
                case EventKind.Overflow:
                    // Never here in practice: this driver drains every event every frame, and
                    // one update queues far fewer than the runtime's capacity (4096).
                    Warn(string.Format("{0} relief events were dropped (the queue was full)", e.Bytes));
                    allLevelsDirty = true;
                    if (Things != null) Things.Resync();
                    break;
            }
        }

        /// <summary>Finishes what workers built until <paramref name="budgetMs"/> has passed
        /// since the frame began (at least one item).</summary>
        void FinishWork(double budgetMs)
        {
            Job job;
            bool first = true;
            while ((first || clock.Elapsed.TotalMilliseconds < budgetMs) && Work.TryTake(out job))
            {
                first = false;
                job.Finish();
            }
        }

        /// <summary>Blocks until everything the focus wants is loaded and shown, or the
        /// timeout: for a loading screen, not a frame. True if it all settled.</summary>
        public bool Settle(Double3 focus, int timeoutMs)
        {
            if (State != DriverState.Running)
                return false;
            var total = Stopwatch.StartNew();
            try
            {
                bool settled = Runtime.Settle(focus.X, focus.Y, focus.Z, timeoutMs);
                allLevelsDirty = true;
                // Frames with an unlimited budget until the workers have nothing left.
                while (total.ElapsedMilliseconds < timeoutMs)
                {
                    Frame(focus, focus);
                    FinishWork(double.PositiveInfinity);
                    if (Work.InFlight == 0 && Pending == 0)
                        return settled && State == DriverState.Running;
                    System.Threading.Thread.Sleep(1);
                }
            }
            catch (Exception e)
            {
                Stop(e.Message);
            }
            return false;
        }

        int Pending { get { return (tiles != null ? tiles.Pending : 0) + (colliders != null ? colliders.Pending : 0); } }

        /// <summary>Stops streaming with <paramref name="why"/>, logged once as an error (a
        /// destroyed focus, a failing runtime). What was shown stays; Frame returns false.</summary>
        public void Stop(string why)
        {
            if (State != DriverState.Running)
                return;
            State = DriverState.Stopped;
            StopReason = why;
            try { Engine.Log(LogLevel.Error, "relief stopped streaming: " + why); }
            catch (Exception) { } // an engine that can't log mustn't make Stop throw
        }

        internal void Warn(string message)
        {
            Engine.Log(LogLevel.Warn, message);
        }

        public DriverStats Stats
        {
            get
            {
                var s = new DriverStats();
                if (tiles != null)
                {
                    s.TilesShown = tiles.Tiles.Shown.Count;
                    s.TilesPooled = tiles.Tiles.Hidden.Count;
                    s.TilesCreated = tiles.Tiles.Created;
                    s.TilesPending = tiles.Pending;
                }
                if (colliders != null)
                {
                    s.CollidersShown = colliders.Meshes.Shown.Count;
                    s.CollidersPooled = colliders.Meshes.Hidden.Count;
                    s.CollidersCreated = colliders.Meshes.Created;
                    s.CollidersPending = colliders.Pending;
                }
                if (far != null)
                    s.LevelUploads = far.Uploads;
                if (Things != null)
                {
                    s.ThingChunks = Things.Count;
                    s.Things = Things.Things;
                }
                s.WorkersBusy = Work.InFlight;
                s.FrameMs = frameMs;
                s.FrameMaxMs = frameMaxMs;
                return s;
            }
        }

        /// <summary>How much of what the focus wants is loaded and shown, from 0 to 1, for a
        /// loading screen: the regions or tiles and collision chunks the runtime wants around the
        /// last frame's focus that are ready (<see cref="RuntimeStats"/>' PiecesReady and
        /// ChunksReady) or failed for good (PiecesFailed, ChunksFailed: warned of, never to
        /// come), less those still waiting for their terrain tile or collider this driver
        /// makes on the main thread; with <see cref="DriverSettings.Things"/>, the thing
        /// chunks likewise (placed: what a sink then builds from them, colliders over a few
        /// frames, is not counted). 1 when all of it is shown (or nothing is wanted);
        /// it falls again when the focus moves on to ground not loaded yet. 0 before the first
        /// <see cref="Frame"/> (no focus yet).</summary>
        public float Progress
        {
            get
            {
                if (State == DriverState.Disposed || !framed)
                    return 0f;
                RuntimeStats r = Runtime.Stats;
                int wanted = r.PiecesWanted + r.ChunksWanted;
                int pending = (tiles != null ? tiles.Pending : 0) + (colliders != null ? colliders.Pending : 0);
                // What failed for good is over too (its warning was logged): a loading screen
                // must not wait for it forever.
                int ready = r.PiecesReady + r.ChunksReady + r.PiecesFailed + r.ChunksFailed;
                if (Things != null)
                {
                    wanted += r.ThingsWanted;
                    ready += r.ThingsReady + r.ThingsFailed;
                }
                ready = Math.Max(0, ready - pending);
                return wanted == 0 ? 1f : Math.Min(1f, (float)ready / wanted);
            }
        }

        /// <summary>Counts of chunk meshes baked and of meshes discarded because their chunk
        /// went away mid-bake (for tests).</summary>
        internal int CollidersBaked { get { return colliders != null ? colliders.Baked : 0; } }

        /// <summary>Stops, waits for workers (a mesh may be mid-bake), destroys every tile and
        /// collider mesh through the engine, hides and releases every thing chunk (its sink told
        /// first) and frees the runtime. Twice is fine.</summary>
        public void Dispose()
        {
            if (State == DriverState.Disposed)
                return;
            State = DriverState.Disposed;
            Work.WaitIdle(5000);
            Job job;
            while (Work.TryTake(out job)) { } // built for nothing now
            if (tiles != null) tiles.Destroy();
            if (colliders != null) colliders.Destroy();
            if (Things != null) Things.Clear();
            if (Terrain != null) Terrain.Dispose();
            if (PlanetTerrain != null) PlanetTerrain.Dispose();
            Runtime.Dispose();
        }
    }
}
