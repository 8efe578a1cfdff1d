// Placed things (trees, rocks, grass) in a Unity scene: beside a ReliefTerrain or a
// ReliefPlanet, it draws each
// chunk relief places with Graphics.RenderMeshInstanced straight from relief's own matrices
// (a NativeArray over them: no copy, no GameObject per thing), gives the things near the focus
// colliders from a pool, and answers "which things are near here" for gameplay. The streaming
// component's driver holds the chunks (ThingChunks) and lends them here; this only draws and
// collides them.
using System;
using System.Collections.Generic;
using Unity.Collections;
using UnityEngine;

namespace Relief.Unity
{
    /// <summary>Draws and collides the placed things a <see cref="ReliefTerrain"/> or a
    /// <see cref="ReliefPlanet"/> streams (on a planet, each stands along its local up): put
    /// it on the same GameObject before the terrain is enabled (the terrain asks relief to place
    /// things only then), and map the world's kinds to meshes in <see cref="Kinds"/>; kinds
    /// without an entry are placed (and found by <see cref="ThingsWithin(Vector3, float, ThingHit[])"/>)
    /// but not drawn. Each frame, after every Update, each held chunk's things draw with one
    /// <c>Graphics.RenderMeshInstanced</c> call per kind, submesh and 1023 things, culled by
    /// the box they stand in. Materials need GPU instancing (a copy with it on is used, with a
    /// warning, when one has it off). The things are drawn in the component's space, like the
    /// terrain: keep its GameObject still, unrotated and unscaled. They draw from relief's
    /// memory in place while that space is relief's (the GameObject at the scene's origin,
    /// the floating origin at 0: a baked island with Start At Centre, until a recentre);
    /// otherwise each chunk's matrices are copied once, moved, and again only when the offset
    /// changes. Disabling frees everything it made.</summary>
    [AddComponentMenu("Relief/Relief Things")]
    [DisallowMultipleComponent]
    public sealed class ReliefThings : MonoBehaviour, IThingsSink
    {
        [Tooltip("What each kind of the world's things.json draws with; kinds not listed are not drawn.")]
        [SerializeField] ThingVisual[] kinds = Array.Empty<ThingVisual>();

        [Header("Collision")]
        [Tooltip("Give things whose kind has a collision shape (trees, rocks) colliders.")]
        [SerializeField] bool collision = true;
        [Tooltip("Metres around the focus within which chunks get their colliders; 0: every chunk held (far-band trees out to 384 m).")]
        [SerializeField] float collisionRadius = 96f;
        [Tooltip("Milliseconds a frame may spend making colliders (one is always made).")]
        [SerializeField, Range(0.1f, 8f)] float colliderBudgetMs = 1f;

        ReliefStreaming streaming;
        /// <summary>The chunks this component is the sink of (the driver's), or null.</summary>
        ThingChunks lent;
        readonly Dictionary<ThingKey, HeldThings> held = new Dictionary<ThingKey, HeldThings>();
        ThingColliders colliders;
        /// <summary>By kind index: what it draws with (null: not drawn); null until resolved.</summary>
        ThingLook[] looks;
        ThingKind[] worldKinds = new ThingKind[0];
        bool looksStale = true;
        /// <summary>Instancing copies of materials that had it off, by original (destroyed on close).</summary>
        readonly Dictionary<Material, Material> instanced = new Dictionary<Material, Material>();
        Double3 placedAt;
        /// <summary>Set while this component or the terrain shuts down: chunks let go then
        /// leave their collider objects alone (a GameObject being deactivated refuses SetActive
        /// on its children) and the objects are destroyed whole instead.</summary>
        bool closing, scrap;
        bool warnedInstancing, warnedLate;
        int drawn, draws;

        /// <summary>What each kind draws with. Setting it (from a script, at any time) takes
        /// effect the next frame.</summary>
        public ThingVisual[] Kinds
        {
            get { return kinds; }
            set { kinds = value ?? new ThingVisual[0]; looksStale = true; }
        }

        /// <summary>Whether things get colliders (turning it off gives every one back to the pool).</summary>
        public bool Collision { get { return collision; } set { collision = value; } }
        /// <summary>Metres around the focus within which chunks get colliders; 0: all of them.</summary>
        public float CollisionRadius { get { return collisionRadius; } set { collisionRadius = value; } }

        /// <summary>Thing chunks held now.</summary>
        public int ChunksHeld { get { return held.Count; } }
        /// <summary>Things drawn last frame, and the draw calls that took.</summary>
        public int ThingsDrawn { get { return drawn; } }
        public int DrawCalls { get { return draws; } }
        /// <summary>Colliders in use, waiting in the pool, and still to make near the focus.</summary>
        public int CollidersActive { get { return colliders != null ? colliders.Active : 0; } }
        public int CollidersPooled { get { return colliders != null ? colliders.Pooled : 0; } }
        public int CollidersPending { get { return colliders != null ? colliders.Pending : 0; } }

        /// <summary>The world's kinds of thing (empty until streaming, or for a world or planet
        /// without a placement table): a <see cref="ThingHit"/>'s Kind indexes them.</summary>
        public ThingKind[] WorldKinds { get { return worldKinds; } }

        void OnEnable()
        {
            streaming = GetComponent<ReliefStreaming>();
            if (streaming == null)
            {
                Debug.LogError("relief: ReliefThings draws what a ReliefTerrain or ReliefPlanet streams: add it to that component's GameObject", this);
                enabled = false;
                return;
            }
            colliders = new ThingColliders(transform, gameObject.layer);
            looksStale = true;
            warnedLate = closing = scrap = false;
        }

        void OnValidate() { looksStale = true; }

        void LateUpdate()
        {
            StreamingDriver<TerrainTile, ColliderChunk> driver = streaming != null ? streaming.Driver : null;
            ThingChunks chunks = driver != null ? driver.Things : null;
            if (driver != null && chunks == null && !warnedLate)
            {
                warnedLate = true;
                Debug.LogWarning("relief: the terrain was enabled before ReliefThings was added, so relief places no things; disable and enable the terrain", this);
            }
            if (chunks != lent)
                Lend(chunks);
            if (scrap)
            {
                // The terrain shut down (its chunks were let go of quietly): start afresh.
                foreach (HeldThings c in held.Values)
                    colliders.Forget(c);
                colliders.Destroy();
                colliders = new ThingColliders(transform, gameObject.layer);
                scrap = false;
            }
            if (lent == null)
                return;
            if (looksStale)
                Resolve(driver.Runtime);
            Double3 origin = streaming.Origin;
            if (!origin.Equals(placedAt))
            {
                colliders.Replace(held.Values, origin);
                placedAt = origin;
            }
            Transform focus = streaming.Focus;
            Double3? at = focus != null ? streaming.ToRelief(focus.position) : (Double3?)null;
            colliders.Frame(held.Values, collision, at, collisionRadius, colliderBudgetMs, origin);
            Draw(origin);
        }

        /// <summary>Becomes the sink of <paramref name="chunks"/> (the streaming component's
        /// current driver's), letting go of the last one's first.</summary>
        void Lend(ThingChunks chunks)
        {
            if (lent != null)
                lent.Sink = null; // hides every chunk: Hide releases each
            ReleaseAll();
            lent = chunks;
            looksStale = true;
            placedAt = streaming.Origin;
            if (chunks != null)
                chunks.Sink = this; // shows every chunk held already
        }

        void IThingsSink.Show(ThingsView chunk)
        {
            HeldThings old;
            if (held.TryGetValue(chunk.Key, out old))
                Forget(old);
            held[chunk.Key] = new HeldThings(chunk);
        }

        void IThingsSink.Hide(ThingsView chunk)
        {
            HeldThings c;
            if (held.TryGetValue(chunk.Key, out c) && c.View == chunk)
                Forget(c);
        }

        /// <summary>Whether chunks are being let go of because this component or the terrain
        /// (its driver disposed) is shutting down.</summary>
        bool Closing
        {
            get
            {
                StreamingDriver<TerrainTile, ColliderChunk> d = streaming != null ? streaming.Driver : null;
                return closing || d == null || d.State == DriverState.Disposed;
            }
        }

        /// <summary>Gives the chunk's colliders back (or, shutting down, leaves them to be
        /// destroyed whole) and lets go of its memory.</summary>
        void Forget(HeldThings c)
        {
            if (Closing)
            {
                colliders.Forget(c);
                scrap = true;
            }
            else
                colliders.Clear(c);
            c.Release();
            held.Remove(c.View.Key);
        }

        void ReleaseAll()
        {
            foreach (HeldThings c in new List<HeldThings>(held.Values))
                Forget(c);
        }

        /// <summary>Works out what each of the world's kinds draws with, from <see cref="Kinds"/>;
        /// entries naming a kind the world lacks get one warning naming the world's kinds.</summary>
        void Resolve(Runtime runtime)
        {
            looksStale = false;
            foreach (Material m in instanced.Values)
                Destroy(m);
            instanced.Clear();
            try { worldKinds = runtime.ThingKinds; }
            catch (ReliefException) { worldKinds = new ThingKind[0]; }
            looks = new ThingLook[worldKinds.Length];
            var unknown = new List<string>();
            foreach (ThingVisual v in kinds)
            {
                if (v == null || string.IsNullOrEmpty(v.Kind))
                    continue;
                int k = Array.FindIndex(worldKinds, w => w.Name == v.Kind);
                if (k < 0)
                    unknown.Add("\"" + v.Kind + "\"");
                else
                    looks[k] = Look(v);
            }
            if (unknown.Count == 0)
                return;
            var names = new string[worldKinds.Length];
            for (int i = 0; i < names.Length; i++)
                names[i] = worldKinds[i].Name;
            Debug.LogWarning("relief: ReliefThings names " + string.Join(", ", unknown.ToArray()) + ", which this world has no kind of (not drawn); "
                + (names.Length > 0 ? "its kinds: " + string.Join(", ", names) : "it places no things (a world without things.json, or a planet baked without a placement table)"), this);
        }

        /// <summary>What entry <paramref name="v"/> draws with, or null (with a warning) if it
        /// gives no mesh or material.</summary>
        ThingLook Look(ThingVisual v)
        {
            Mesh mesh = v.Mesh;
            Material[] materials = null;
            if (v.Material != null)
                materials = new[] { v.Material };
            if (v.Prefab != null)
            {
                var filter = v.Prefab.GetComponent<MeshFilter>();
                var renderer = v.Prefab.GetComponent<MeshRenderer>();
                if (mesh == null && filter != null)
                    mesh = filter.sharedMesh;
                if (materials == null && renderer != null)
                    materials = renderer.sharedMaterials;
            }
            if (mesh == null || materials == null || materials.Length == 0)
            {
                Debug.LogWarning("relief: ReliefThings' entry for \"" + v.Kind + "\" has no mesh and material (nor a prefab with a MeshFilter and MeshRenderer on its root): not drawn", this);
                return null;
            }
            // Submesh i draws with material i, as a MeshRenderer does; extra materials are unused.
            var slots = new Material[Math.Min(materials.Length, mesh.subMeshCount)];
            for (int i = 0; i < slots.Length; i++)
                slots[i] = Instanced(materials[i], v.Kind);
            if (slots.Length == 0 || Array.IndexOf(slots, null) >= 0)
            {
                Debug.LogWarning("relief: ReliefThings' entry for \"" + v.Kind + "\" has an empty material slot (or a mesh without submeshes): not drawn", this);
                return null;
            }
            return new ThingLook(mesh, slots, v.CastShadows);
        }

        /// <summary><paramref name="m"/>, or a copy of it with GPU instancing on
        /// (RenderMeshInstanced refuses a material without).</summary>
        Material Instanced(Material m, string kind)
        {
            if (m == null || m.enableInstancing)
                return m;
            Material copy;
            if (!instanced.TryGetValue(m, out copy))
            {
                Debug.LogWarning("relief: material " + m.name + " (\"" + kind + "\") has GPU instancing off; drawing with a copy that has it on (tick Enable GPU Instancing on the material)", this);
                copy = new Material(m);
                copy.enableInstancing = true;
                instanced[m] = copy;
            }
            return copy;
        }

        void Draw(Double3 origin)
        {
            drawn = draws = 0;
            if (looks == null || held.Count == 0)
                return;
            if (!SystemInfo.supportsInstancing)
            {
                if (!warnedInstancing)
                    Debug.LogWarning("relief: this device has no GPU instancing: placed things are not drawn (their colliders are there)", this);
                warnedInstancing = true;
                return;
            }
            Matrix4x4 space = transform.localToWorldMatrix;
            int layer = gameObject.layer;
            foreach (HeldThings c in held.Values)
            {
                if (c.Batches.Length == 0)
                    continue;
                // relief's positions (relative to the chunk's origin) → the component's local
                // space (less the floating origin, subtracted in doubles) → the world.
                Matrix4x4 offset = space * Matrix4x4.Translate(Conversions.ToLocal(c.Origin, origin));
                NativeArray<Matrix4x4> instances = c.Instances(offset);
                foreach (ThingBatch b in c.Batches)
                {
                    ThingLook look = b.Kind < looks.Length ? looks[b.Kind] : null;
                    if (look == null)
                        continue;
                    float r = look.Reach * b.MaxScale;
                    Vector3 centre = offset.MultiplyPoint3x4(new Vector3((b.MinX + b.MaxX) * 0.5f, (b.MinY + b.MaxY) * 0.5f, (b.MinZ + b.MaxZ) * 0.5f));
                    var size = new Vector3(b.MaxX - b.MinX + 2f * r, b.MaxY - b.MinY + 2f * r, b.MaxZ - b.MinZ + 2f * r);
                    var bounds = new Bounds(centre, size);
                    for (int s = 0; s < look.Materials.Length; s++)
                    {
                        var rp = new RenderParams(look.Materials[s]);
                        rp.worldBounds = bounds;
                        rp.shadowCastingMode = look.Shadows;
                        rp.receiveShadows = true;
                        rp.layer = layer;
                        // Unity reads the instances during the call (its array overloads pin
                        // theirs for the call only), so a chunk released next frame is safe.
                        Graphics.RenderMeshInstanced(rp, look.Mesh, s, instances, b.Count, b.Start);
                        draws++;
                    }
                    drawn += b.Count;
                }
            }
        }

        /// <summary>The Runtime streaming, or null while not streaming.</summary>
        Runtime Streaming { get { return streaming != null && streaming.IsStreaming ? streaming.Driver.Runtime : null; } }

        /// <summary>The placed things within <paramref name="radius"/> metres (on the ground,
        /// ignoring height) of <paramref name="position"/> (a Unity world position), nearest
        /// first, written into <paramref name="hits"/>: returns how many there are in all (more
        /// than hits.Length when they did not all fit), 0 while not streaming. Every placed
        /// chunk's things are found, drawn or not: which tree the player touches, what to
        /// harvest, where a footstep lands. Allocates nothing for up to 64 hits. Main thread
        /// (the position conversion reads the component's transform).</summary>
        public int ThingsWithin(Vector3 position, float radius, ThingHit[] hits)
        {
            if (hits == null) throw new ArgumentNullException("hits");
            if (!(radius >= 0f)) throw new ArgumentOutOfRangeException("radius", radius, "a radius is 0 or more metres");
            Runtime rt = Streaming;
            if (rt == null)
                return 0;
            try { return rt.ThingsWithin(streaming.ToRelief(position), radius, hits); }
            catch (ReliefException) { return 0; }
        }

        /// <summary>The placed things within <paramref name="radius"/> metres of
        /// <paramref name="position"/>, nearest first, in a new array (empty while not
        /// streaming). <see cref="PositionOf"/> puts each in the scene; <see cref="KindName"/>
        /// names its kind.</summary>
        public ThingHit[] ThingsWithin(Vector3 position, float radius)
        {
            int n = ThingsWithin(position, radius, new ThingHit[0]);
            var hits = new ThingHit[n];
            int again = ThingsWithin(position, radius, hits);
            if (again < n)
                Array.Resize(ref hits, again);
            return hits;
        }

        /// <summary>Where a thing stands (on the ground), as a Unity world position.</summary>
        public Vector3 PositionOf(ThingHit hit) { return streaming != null ? streaming.ToUnity(hit.Position) : Vector3.zero; }

        /// <summary>The name of kind <paramref name="kind"/> (a ThingHit's or ThingRun's Kind),
        /// or null.</summary>
        public string KindName(int kind) { return kind >= 0 && kind < worldKinds.Length ? worldKinds[kind].Name : null; }

        void OnDisable()
        {
            closing = true;
            if (lent != null)
                lent.Sink = null;
            lent = null;
            ReleaseAll();
            if (colliders != null)
                colliders.Destroy();
            colliders = null;
            scrap = false;
            foreach (Material m in instanced.Values)
                Destroy(m);
            instanced.Clear();
            looks = null;
            worldKinds = new ThingKind[0];
            drawn = draws = 0;
        }
    }
}
