// A flat world's regions as engine terrain tiles: built on workers, shown within the frame
// budget, stitched to their neighbours, pooled when they unload.
using System;
using System.Collections.Generic;

namespace Relief
{
    sealed class TileSet<TTile, TMesh> where TTile : class where TMesh : class
    {
        readonly StreamingDriver<TTile, TMesh> driver;
        readonly IReliefEngine<TTile, TMesh> engine;
        readonly int size, res;
        readonly float min, max;
        readonly double spacing;
        internal readonly ObjectPool<Loc, TTile> Tiles = new ObjectPool<Loc, TTile>();
        /// <summary>Edges of every shown region (what neighbours' tiles need).</summary>
        readonly Dictionary<Loc, RegionEdges> edges = new Dictionary<Loc, RegionEdges>();
        /// <summary>The build in flight for a region; a newer one (or an unload) supersedes it.</summary>
        readonly Dictionary<Loc, TileJob> pending = new Dictionary<Loc, TileJob>();
        readonly ArrayPool<float[,]> heightArrays;
        readonly ArrayPool<bool[,]> holeArrays;
        readonly ArrayPool<float[]> scratch;
        readonly ArrayPool<uint[]> controlScratch;
        readonly ArrayPool<byte[]> biomeScratch;
        /// <summary>Control textures per tile, when the tiles are splatted (null if not).</summary>
        readonly ArrayPool<byte[][]> splats;
        readonly int layers;
        readonly ArrayPool<RegionEdges> edgePool;
        readonly float[,] column, row, corner = new float[1, 1];

        internal TileSet(StreamingDriver<TTile, TMesh> driver, WorldInfo info, int groundLayers)
        {
            this.driver = driver;
            engine = driver.Engine;
            size = info.RegionSize;
            res = TerrainTiles.Resolution(size);
            min = info.HeightMin;
            max = info.HeightMax;
            spacing = info.VertexSpacing;
            int s = size, r = res;
            heightArrays = new ArrayPool<float[,]>(() => new float[r, r]);
            holeArrays = new ArrayPool<bool[,]>(() => new bool[s, s]);
            scratch = new ArrayPool<float[]>(() => new float[s * s]);
            controlScratch = new ArrayPool<uint[]>(() => new uint[s * s]);
            biomeScratch = new ArrayPool<byte[]>(() => new byte[s * s]);
            layers = groundLayers;
            if (layers > 0)
            {
                int count = GroundSplat.Textures(layers), texels = GroundSplat.Resolution(s);
                splats = new ArrayPool<byte[][]>(() =>
                {
                    var t = new byte[count][];
                    for (int i = 0; i < count; i++)
                        t[i] = new byte[texels * texels * GroundSplat.LayersPerTexture];
                    return t;
                });
            }
            edgePool = new ArrayPool<RegionEdges>(() => new RegionEdges(s));
            column = new float[r, 1];
            row = new float[1, r];
        }

        internal int Pending { get { return pending.Count; } }

        internal void Loaded(int x, int z)
        {
            var loc = new Loc(x, z);
            var job = new TileJob(this, loc);
            pending[loc] = job; // supersedes an older build
            driver.Work.Start(job);
        }

        internal void Unloaded(int x, int z)
        {
            var loc = new Loc(x, z);
            pending.Remove(loc);
            TTile tile;
            if (!Tiles.Shown.TryGetValue(loc, out tile))
                return;
            Tiles.Shown.Remove(loc);
            RegionEdges e;
            if (edges.TryGetValue(loc, out e)) { edges.Remove(loc); edgePool.Give(e); }
            engine.HideTile(tile);
            Tiles.Hidden.Push(tile);
            StitchAround(loc);
        }

        /// <summary>Runs on a worker: the region's heights as a tile, its holes, its edges.</summary>
        sealed class TileJob : Job
        {
            readonly TileSet<TTile, TMesh> set;
            internal readonly Loc Loc;
            internal float[,] Heights;
            internal bool[,] Surface;
            internal byte[][] Splat;
            internal RegionEdges Edges;
            internal bool Missing;

            internal TileJob(TileSet<TTile, TMesh> set, Loc loc) { this.set = set; Loc = loc; }

            internal override void Work()
            {
                var s = set;
                float[] h = s.scratch.Take();
                uint[] control = s.controlScratch.Take();
                byte[] biome = s.biomeScratch.Take();
                try
                {
                    int controls, biomes;
                    using (RegionView v = s.driver.Runtime.AcquireRegion(Loc.X, Loc.Z))
                    {
                        if (v == null) { Missing = true; return; } // unloaded again already
                        if (v.Size != s.size)
                            throw new InvalidOperationException("region " + Loc + " has " + v.Size + " samples a side, the world " + s.size);
                        v.Height.CopyTo(h);
                        controls = v.Control.Length;
                        if (controls > 0)
                            v.Control.CopyTo(control);
                        biomes = s.layers > 0 ? v.Biome.Length : 0;
                        if (biomes > 0)
                            v.Biome.CopyTo(biome);
                    }
                    Edges = s.edgePool.Take();
                    Edges.Fill(h);
                    Heights = s.heightArrays.Take();
                    // The body now; the east column and north row on the main thread, which
                    // knows which neighbours are shown when the tile is.
                    TerrainTiles.Heights(h, Edges, null, null, null, s.min, s.max, Heights);
                    Surface = s.holeArrays.Take();
                    TerrainTiles.Holes(h, new ReadOnlySpan<uint>(control, 0, controls), s.size, Surface);
                    if (s.layers > 0)
                    {
                        Splat = s.splats.Take();
                        GroundSplat.Fill(h, new ReadOnlySpan<uint>(control, 0, controls), new ReadOnlySpan<byte>(biome, 0, biomes),
                            s.size, s.spacing, s.layers, Splat);
                    }
                }
                finally
                {
                    s.scratch.Give(h);
                    s.controlScratch.Give(control);
                    s.biomeScratch.Give(biome);
                }
            }

            internal override void Finish() { set.Show(this); }
        }

        void Show(TileJob job)
        {
            TileJob current;
            bool live = pending.TryGetValue(job.Loc, out current) && current == job;
            if (live)
                pending.Remove(job.Loc);
            if (!live || job.Missing || job.Error != null)
            {
                if (live && job.Error != null)
                    driver.Warn("region " + job.Loc + " could not become a tile: " + job.Error);
                heightArrays.Give(job.Heights);
                holeArrays.Give(job.Surface);
                edgePool.Give(job.Edges);
                GiveSplat(job.Splat);
                return;
            }
            var loc = job.Loc;
            TTile tile;
            if (!Tiles.Shown.TryGetValue(loc, out tile))
            {
                tile = Tiles.Hidden.Count > 0 ? Tiles.Hidden.Pop() : New();
                double px, py, pz, sx, sy, sz;
                TerrainTiles.Placement(loc.X, loc.Z, size, spacing, min, max, out px, out py, out pz, out sx, out sy, out sz);
                engine.ShowTile(tile, new TilePlacement(loc.X, loc.Z, res, new Double3(px, py, pz), new Double3(sx, sy, sz)));
                Tiles.Shown[loc] = tile;
            }
            RegionEdges old;
            if (edges.TryGetValue(loc, out old))
                edgePool.Give(old);
            edges[loc] = job.Edges;
            // The far column and row from the neighbours shown now.
            RegionEdges east = EdgesAt(loc.X + 1, loc.Z), north = EdgesAt(loc.X, loc.Z + 1), ne = EdgesAt(loc.X + 1, loc.Z + 1);
            TerrainTiles.EastColumn(job.Edges, east, north, ne, min, max, column);
            TerrainTiles.NorthRow(job.Edges, east, north, ne, min, max, row);
            for (int y = 0; y < res; y++) job.Heights[y, size] = column[y, 0];
            for (int x = 0; x < res; x++) job.Heights[size, x] = row[0, x];
            engine.SetTileHeights(tile, 0, 0, job.Heights);
            engine.SetTileHoles(tile, job.Surface);
            if (job.Splat != null)
                engine.SetTileSplat(tile, job.Splat);
            engine.SyncTile(tile);
            heightArrays.Give(job.Heights);
            holeArrays.Give(job.Surface);
            GiveSplat(job.Splat);
            // The tiles whose far edge this region is: −X (its east column), −Z (its north
            // row), −X−Z (its corner).
            Stitch(new Loc(loc.X, loc.Z));
            TTile west, south, southWest;
            if (Tiles.Shown.TryGetValue(new Loc(loc.X - 1, loc.Z), out west))
            {
                var w = new Loc(loc.X - 1, loc.Z);
                TerrainTiles.EastColumn(edges[w], job.Edges, EdgesAt(w.X, w.Z + 1), EdgesAt(w.X + 1, w.Z + 1), min, max, column);
                engine.SetTileHeights(west, size, 0, column);
                engine.SyncTile(west);
            }
            if (Tiles.Shown.TryGetValue(new Loc(loc.X, loc.Z - 1), out south))
            {
                var s = new Loc(loc.X, loc.Z - 1);
                TerrainTiles.NorthRow(edges[s], EdgesAt(s.X + 1, s.Z), job.Edges, EdgesAt(s.X + 1, s.Z + 1), min, max, row);
                engine.SetTileHeights(south, 0, size, row);
                engine.SyncTile(south);
            }
            if (Tiles.Shown.TryGetValue(new Loc(loc.X - 1, loc.Z - 1), out southWest))
            {
                corner[0, 0] = TerrainTiles.Normalize(job.Edges.South[0], min, max);
                engine.SetTileHeights(southWest, size, size, corner);
                engine.SyncTile(southWest);
            }
            StitchAround(loc);
        }

        void GiveSplat(byte[][] splat)
        {
            if (splat != null)
                splats.Give(splat);
        }

        TTile New()
        {
            Tiles.Created++;
            return engine.NewTile(res);
        }

        RegionEdges EdgesAt(int x, int z)
        {
            RegionEdges e;
            return edges.TryGetValue(new Loc(x, z), out e) ? e : null;
        }

        TTile TileAt(int x, int z)
        {
            TTile t;
            return Tiles.Shown.TryGetValue(new Loc(x, z), out t) ? t : null;
        }

        /// <summary>Tells the tile at <paramref name="loc"/> (if shown) which tiles surround it.</summary>
        void Stitch(Loc loc)
        {
            TTile tile = TileAt(loc.X, loc.Z);
            if (tile != null)
                engine.SetTileNeighbors(tile, TileAt(loc.X - 1, loc.Z), TileAt(loc.X, loc.Z + 1), TileAt(loc.X + 1, loc.Z), TileAt(loc.X, loc.Z - 1));
        }

        void StitchAround(Loc loc)
        {
            Stitch(new Loc(loc.X - 1, loc.Z));
            Stitch(new Loc(loc.X + 1, loc.Z));
            Stitch(new Loc(loc.X, loc.Z - 1));
            Stitch(new Loc(loc.X, loc.Z + 1));
        }

        internal void Destroy()
        {
            pending.Clear();
            foreach (var t in Tiles.Shown.Values) engine.DestroyTile(t);
            foreach (var t in Tiles.Hidden) engine.DestroyTile(t);
            Tiles.Shown.Clear();
            Tiles.Hidden.Clear();
            edges.Clear();
        }
    }

    /// <summary>A region's location.</summary>
    readonly struct Loc : IEquatable<Loc>
    {
        internal readonly int X, Z;
        internal Loc(int x, int z) { X = x; Z = z; }
        public bool Equals(Loc o) { return X == o.X && Z == o.Z; }
        public override bool Equals(object o) { return o is Loc && Equals((Loc)o); }
        public override int GetHashCode() { return X * 73856093 ^ Z * 19349663; }
        public override string ToString() { return "(" + X + ", " + Z + ")"; }
    }
}
