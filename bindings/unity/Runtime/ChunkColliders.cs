// Collision chunks as engine mesh colliders: vertices built on a worker, the mesh filled on
// the main thread, its collision cooked on a worker (Physics.BakeMesh is thread-safe), then
// handed to a collider on the main thread. Meshes are pooled.
using System;
using System.Collections.Generic;

namespace Relief
{
    sealed class ChunkColliders<TTile, TMesh> where TTile : class where TMesh : class
    {
        readonly StreamingDriver<TTile, TMesh> driver;
        readonly IReliefEngine<TTile, TMesh> engine;
        internal readonly ObjectPool<ChunkKey, TMesh> Meshes = new ObjectPool<ChunkKey, TMesh>();
        /// <summary>The chunk's job in flight (build or bake); a newer one or a drop supersedes it.</summary>
        readonly Dictionary<ChunkKey, ChunkJob> pending = new Dictionary<ChunkKey, ChunkJob>();
        // Sized on first use: every chunk of a runtime has the same sample count.
        readonly ArrayPool<float[]> heightScratch = new ArrayPool<float[]>(() => new float[0]);
        readonly ArrayPool<float[]> vertexArrays = new ArrayPool<float[]>(() => new float[0]);
        readonly ArrayPool<int[]> indexArrays = new ArrayPool<int[]>(() => new int[0]);
        /// <summary>Meshes baked for a job that was superseded meanwhile: back to the pool.</summary>
        internal int Discarded;
        /// <summary>Meshes cooked (for tests: every shown mesh was baked first).</summary>
        internal int Baked;

        internal ChunkColliders(StreamingDriver<TTile, TMesh> driver)
        {
            this.driver = driver;
            engine = driver.Engine;
        }

        internal int Pending { get { return pending.Count; } }

        internal void Ready(ChunkKey key)
        {
            var job = new ChunkJob(this, key);
            pending[key] = job;
            driver.Work.Start(job);
        }

        internal void Dropped(ChunkKey key)
        {
            pending.Remove(key);
            TMesh mesh;
            if (!Meshes.Shown.TryGetValue(key, out mesh))
                return;
            Meshes.Shown.Remove(key);
            engine.HideChunk(mesh);
            Meshes.Hidden.Push(mesh);
        }

        /// <summary>Build (vertices on a worker) → fill (main) → bake (worker) → show (main).</summary>
        sealed class ChunkJob : Job
        {
            readonly ChunkColliders<TTile, TMesh> set;
            internal readonly ChunkKey Key;
            internal float[] Vertices;
            internal int[] Indices;
            internal int VertexCount, IndexCount;
            internal ChunkPlacement Placement;
            internal TMesh Mesh;
            internal bool Missing, Baking;

            internal ChunkJob(ChunkColliders<TTile, TMesh> set, ChunkKey key) { this.set = set; Key = key; }

            internal override void Work()
            {
                if (Baking)
                {
                    set.engine.BakeChunkMesh(Mesh);
                    return;
                }
                using (ChunkView c = set.driver.Runtime.AcquireChunk(Key))
                {
                    if (c == null) { Missing = true; return; } // dropped again already
                    int n = c.Samples;
                    float[] h = set.heightScratch.Take();
                    if (h.Length != n * n) h = new float[n * n];
                    try
                    {
                        c.Heights.CopyTo(h);
                        VertexCount = n * n;
                        Vertices = set.vertexArrays.Take();
                        if (Vertices.Length != 3 * VertexCount) Vertices = new float[3 * VertexCount];
                        Indices = set.indexArrays.Take();
                        if (Indices.Length != ChunkMeshes.MaxIndexCount(n)) Indices = new int[ChunkMeshes.MaxIndexCount(n)];
                        IndexCount = ChunkMeshes.Build(h, n, c.Spacing, c.CornerX, c.CornerZ, c.CentreX, c.CentreZ, Vertices, Indices);
                    }
                    finally { set.heightScratch.Give(h); }
                    Placement = Place(c);
                }
            }

            internal override void Finish() { set.Advance(this); }
        }

        static ChunkPlacement Place(ChunkView c)
        {
            Double3 o = c.Origin, ax = c.AxisX, up = c.Up, az = c.AxisZ;
            Span<double> position = stackalloc double[3];
            Span<double> q = stackalloc double[4];
            ChunkMeshes.Placement(new[] { o.X, o.Y, o.Z }, new[] { ax.X, ax.Y, ax.Z }, new[] { up.X, up.Y, up.Z },
                new[] { az.X, az.Y, az.Z }, c.CentreX, c.CentreZ, position, q);
            return new ChunkPlacement(c.Key, new Double3(position[0], position[1], position[2]), new Rotation(q[0], q[1], q[2], q[3]));
        }

        void Advance(ChunkJob job)
        {
            ChunkJob current;
            bool live = pending.TryGetValue(job.Key, out current) && current == job;
            if (!live || job.Missing || job.Error != null)
            {
                if (live)
                {
                    pending.Remove(job.Key);
                    if (job.Error != null)
                        driver.Warn(job.Key + " could not become a collider: " + job.Error);
                }
                if (job.Mesh != null)
                {
                    Discarded++;
                    Meshes.Hidden.Push(job.Mesh);
                }
                return;
            }
            if (!job.Baking)
            {
                TMesh mesh;
                if (Meshes.Shown.TryGetValue(job.Key, out mesh))
                {
                    // Rebuilt while shown: take it out of the collider until its new bake.
                    Meshes.Shown.Remove(job.Key);
                    engine.HideChunk(mesh);
                }
                else
                    mesh = Meshes.Hidden.Count > 0 ? Meshes.Hidden.Pop() : New();
                engine.SetChunkMesh(mesh, job.Vertices, job.VertexCount, job.Indices, job.IndexCount);
                vertexArrays.Give(job.Vertices);
                indexArrays.Give(job.Indices);
                job.Vertices = null;
                job.Indices = null;
                job.Mesh = mesh;
                job.Baking = true;
                driver.Work.Start(job);
                return;
            }
            pending.Remove(job.Key);
            Baked++;
            engine.ShowChunk(job.Mesh, job.Placement);
            Meshes.Shown[job.Key] = job.Mesh;
        }

        TMesh New()
        {
            Meshes.Created++;
            return engine.NewChunkMesh();
        }

        internal void Destroy()
        {
            foreach (var job in pending.Values)
                if (job.Mesh != null) engine.DestroyChunk(job.Mesh);
            pending.Clear();
            foreach (var m in Meshes.Shown.Values) engine.DestroyChunk(m);
            foreach (var m in Meshes.Hidden) engine.DestroyChunk(m);
            Meshes.Shown.Clear();
            Meshes.Hidden.Clear();
        }
    }
}
