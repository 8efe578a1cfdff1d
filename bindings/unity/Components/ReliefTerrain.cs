// A flat relief world in a Unity scene: its 512 m regions become pooled Terrain tiles, whose
// own TerrainColliders are the collision (see the package README for why), plus the far
// ground beyond; gameplay queries take and return Unity positions.
using System;
using UnityEngine;
using UnityEngine.Rendering;

namespace Relief.Unity
{
    /// <summary>Streams a flat world pack (<c>relief bake</c>, <c>relief import terrain3d</c>)
    /// around the focus as Unity Terrain tiles.</summary>
    [AddComponentMenu("Relief/Relief Terrain")]
    public sealed class ReliefTerrain : ReliefStreaming
    {
        [Header("Terrain tiles")]
        [Tooltip("The material tiles draw with; empty: Unity's default terrain material (under URP or HDRP a player has none: assign the pipeline's TerrainLit material).")]
        [SerializeField] Material terrainMaterial;
        [Tooltip("Layers by the world's texture ids (baked worlds: 0 grass, 1 dry grass, 2 forest floor, 3 dirt, 4 rock, 5 sand, 6 snow, 7 mud, 8 gravel, 9 moss) or, without control words, biome ids; empty: the package's default set, one per baked slot.")]
        [SerializeField] TerrainLayer[] groundLayers;
        [Tooltip("Move the focus to the world's centre when enabled, just above the ground (the world's overview height).")]
        [SerializeField] bool startAtCentre = true;
        [Tooltip("Metres the far ground sits below the ground, so the terrain tiles drawn over it win.")]
        [SerializeField] float farGroundSink = 2f;

        World world;
        /// <summary>The default layers, when the scene names none (destroyed on close).</summary>
        TerrainLayer[] madeLayers;

        /// <summary>The open world's description; default until enabled.</summary>
        public WorldInfo Info { get; private set; }

        internal override Material TerrainMaterial
        {
            get
            {
                if (terrainMaterial != null || GraphicsSettings.currentRenderPipeline == null)
                    return terrainMaterial; // the built-in pipeline draws Unity's own
                // A scriptable pipeline's default terrain material exists in the editor only.
                Material m = GraphicsSettings.currentRenderPipeline.defaultTerrainMaterial;
                if (m == null)
                    Debug.LogWarning("relief: under a scriptable render pipeline a player has no default terrain material; assign the pipeline's TerrainLit material to ReliefTerrain's Terrain Material", this);
                return m;
            }
        }

        /// <summary>HDRP's terrain shader draws at most 8 layers.</summary>
        const int HdrpLayers = 8;

        static bool Hdrp
        {
            get
            {
                RenderPipelineAsset p = GraphicsSettings.currentRenderPipeline;
                return p != null && p.GetType().Name.StartsWith("HDRenderPipeline", StringComparison.Ordinal);
            }
        }

        internal override TerrainLayer[] GroundLayers
        {
            get
            {
                if (groundLayers != null && groundLayers.Length > 0)
                {
                    if (groundLayers.Length > HdrpLayers && Hdrp)
                        Debug.LogWarning("relief: HDRP's terrain draws " + HdrpLayers + " layers; Ground Layers past the 8th stay dark", this);
                    return groundLayers;
                }
                // Under HDRP the default set stops at 8 layers: ids 8 (gravel) and 9 (moss) wrap
                // to layers 0 and 1 (GroundSplat.LayerOf).
                if (madeLayers == null)
                    madeLayers = DefaultGroundLayers.Make(Hdrp ? HdrpLayers : GroundPalette.Names.Length);
                return madeLayers;
            }
        }
        internal override float FarGroundSink { get { return farGroundSink; } }
        internal override double PlanetRadius { get { return 0; } }

        internal override IDisposable OpenSource(string streamingAssetsPath, string name, HttpOptions http, IAndroidAssets android)
        {
            World opened;
            string error;
            if (!Sources.TryOpenWorld(streamingAssetsPath, name, out opened, out error, http, android))
                throw new InvalidOperationException(error);
            return opened;
        }

        internal override StreamingDriver<TerrainTile, ColliderChunk> MakeDriver(IDisposable source, UnityEngineBridge bridge, DriverSettings settings)
        {
            world = (World)source;
            Info = world.Info;
            // Terrain tiles carry TerrainColliders: no chunk colliders on top of them.
            settings.ChunkColliders = false;
            settings.Tiles = true;
            settings.GroundLayers = GroundLayers.Length;
            return new StreamingDriver<TerrainTile, ColliderChunk>(bridge, world, settings);
        }

        /// <summary>With <c>startAtCentre</c> the world's centre (at height 0) becomes the
        /// origin and the focus goes there; otherwise the world's metres are Unity's until the
        /// focus first moves far.</summary>
        internal override Double3 StartOrigin()
        {
            if (!startAtCentre || Focus == null)
                return new Double3(0, 0, 0);
            Double3 c = Info.Centre;
            var origin = new Double3(c.X, 0, c.Z);
            float ground = Driver.Terrain.Height(c.X, c.Z); // the overview: nothing is loaded yet
            MoveFocus(transform.TransformPoint(new Vector3(0f, ground + 2f, 0f)));
            return origin;
        }

        internal override void Closed()
        {
            if (world != null)
                world.Dispose();
            world = null;
            if (madeLayers != null)
                DefaultGroundLayers.Destroy(madeLayers);
            madeLayers = null;
        }

        TerrainQueries Queries { get { return Driver != null && IsStreaming ? Driver.Terrain : null; } }

        /// <summary>The ground's height under <paramref name="position"/> (a Unity world
        /// position; its y is ignored), as a Unity world y: a loaded region's, else the world's
        /// coarse overview. False while not streaming or outside the world.</summary>
        public bool TryGetHeight(Vector3 position, out float height)
        {
            height = 0;
            TerrainQueries q = Queries;
            if (q == null)
                return false;
            try
            {
                Double3 p = ToRelief(position);
                HeightOrigin origin;
                float h = q.Height(p.X, p.Z, out origin);
                if (origin == HeightOrigin.Outside)
                    return false;
                height = ToUnity(new Double3(p.X, h, p.Z)).y;
                return true;
            }
            catch (ReliefException) { return false; }
        }

        /// <summary>The ground's unit normal under <paramref name="position"/>.</summary>
        public bool TryGetNormal(Vector3 position, out Vector3 normal)
        {
            normal = Vector3.up;
            TerrainQueries q = Queries;
            if (q == null)
                return false;
            try
            {
                Double3 p = ToRelief(position);
                HeightOrigin origin;
                Double3 n = q.Normal(p.X, p.Z, out origin);
                if (origin == HeightOrigin.Outside)
                    return false;
                normal = Conversions.ToVector3(n);
                return true;
            }
            catch (ReliefException) { return false; }
        }

        /// <summary>The ground under <paramref name="position"/>: Terrain3D control bits,
        /// biome, lake. False where no region is loaded.</summary>
        public bool TryGetGround(Vector3 position, out Ground ground)
        {
            ground = default(Ground);
            TerrainQueries q = Queries;
            if (q == null)
                return false;
            try
            {
                Double3 p = ToRelief(position);
                ground = q.Ground(p.X, p.Z);
                return ground.Found;
            }
            catch (ReliefException) { return false; }
        }

        /// <summary>The nearest river within <paramref name="radius"/> metres of
        /// <paramref name="position"/>; <paramref name="nearest"/> is its closest point (Unity
        /// world position, at the river bed's height).</summary>
        public bool TryGetRiver(Vector3 position, float radius, out RiverAt river, out Vector3 nearest)
        {
            river = default(RiverAt);
            nearest = position;
            TerrainQueries q = Queries;
            if (q == null)
                return false;
            try
            {
                Double3 p = ToRelief(position);
                river = q.River(p.X, p.Z, radius);
                if (!river.Found)
                    return false;
                nearest = ToUnity(new Double3(river.NearestX, river.Bed, river.NearestZ));
                return true;
            }
            catch (ReliefException) { return false; }
        }

        /// <summary>The nearest lake within <paramref name="radius"/> metres; its level as a
        /// Unity world y is <c>ToUnity(new Double3(0, lake.Level, 0)).y</c>.</summary>
        public bool TryGetLake(Vector3 position, float radius, out LakeAt lake)
        {
            lake = default(LakeAt);
            TerrainQueries q = Queries;
            if (q == null)
                return false;
            try
            {
                Double3 p = ToRelief(position);
                lake = q.Lake(p.X, p.Z, radius);
                return lake.Found;
            }
            catch (ReliefException) { return false; }
        }

        /// <summary>A biome id's name in this world ("grassland"), or null.</summary>
        public string BiomeName(int id)
        {
            if (world == null)
                return null;
            try { return world.BiomeName(id); }
            catch (ReliefException) { return null; }
        }
    }
}
