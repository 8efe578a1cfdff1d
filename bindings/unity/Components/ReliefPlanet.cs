// A relief planet in a Unity scene: collision chunks near the focus become MeshColliders in
// each chunk's tangent frame, baked off the main thread; the LOD rings draw the ground. The
// planet's centre is relief's (0, 0, 0); a floating origin keeps Unity's floats near the player,
// so positions in and out are Unity positions, with doubles where precision matters.
using System;
using UnityEngine;

namespace Relief.Unity
{
    /// <summary>Streams a PLNT planet blob (a multi-GB file in StreamingAssets, Android's APK
    /// included, or a URL) around the focus.</summary>
    [AddComponentMenu("Relief/Relief Planet")]
    public sealed class ReliefPlanet : ReliefStreaming
    {
        [Header("Start")]
        [Tooltip("Where the component's origin starts: the sea-level point at this latitude (degrees).")]
        [SerializeField, Range(-90f, 90f)] float startLatitude;
        [Tooltip("… and longitude (degrees).")]
        [SerializeField, Range(-180f, 180f)] float startLongitude;
        [Tooltip("Move the focus above the start point when enabled, this many metres above sea level; negative: leave it where it is.")]
        [SerializeField] float startAltitude = 200f;

        Planet planet;

        /// <summary>The open planet's description; default until enabled.</summary>
        public PlanetInfo Info { get; private set; }

        internal override double PlanetRadius { get { return planet != null ? planet.Info.Radius : 0; } }

        internal override IDisposable OpenSource(string streamingAssetsPath, string name, HttpOptions http, IAndroidAssets android)
        {
            Planet opened;
            string error;
            if (!Sources.TryOpenPlanet(streamingAssetsPath, name, out opened, out error, http, android))
                throw new InvalidOperationException(error);
            return opened;
        }

        internal override StreamingDriver<TerrainTile, ColliderChunk> MakeDriver(IDisposable source, UnityEngineBridge bridge, DriverSettings settings)
        {
            planet = (Planet)source;
            Info = planet.Info;
            settings.ChunkColliders = true;
            settings.Tiles = false;
            return new StreamingDriver<TerrainTile, ColliderChunk>(bridge, planet, settings);
        }

        internal override Double3 StartOrigin()
        {
            Double3 start = Driver.PlanetTerrain.PositionAt(startLatitude, startLongitude);
            if (startAltitude >= 0 && Focus != null)
            {
                // The origin is the start point: the focus goes straight up from local zero.
                Vector3 up = Conversions.ToVector3(start.Normalized);
                MoveFocus(transform.TransformPoint(up * startAltitude));
            }
            return start;
        }

        internal override void Closed()
        {
            if (planet != null)
                planet.Dispose();
            planet = null;
        }

        PlanetQueries Queries { get { return Driver != null && IsStreaming ? Driver.PlanetTerrain : null; } }

        /// <summary>The way up at <paramref name="position"/> (Unity world space): away from the
        /// planet's centre. Gravity is its opposite.</summary>
        public Vector3 UpAt(Vector3 position)
        {
            Double3 p = ToRelief(position);
            return transform.TransformDirection(Conversions.ToVector3(p.Normalized));
        }

        /// <summary>Latitude and longitude (degrees) under <paramref name="position"/>.</summary>
        public bool TryGetLatLon(Vector3 position, out double latitude, out double longitude)
        {
            latitude = longitude = 0;
            PlanetQueries q = Queries;
            if (q == null)
                return false;
            q.LatLon(ToRelief(position), out latitude, out longitude);
            return true;
        }

        /// <summary>The Unity position <paramref name="altitude"/> metres above sea level at
        /// latitude/longitude (degrees).</summary>
        public bool TryGetPosition(double latitude, double longitude, double altitude, out Vector3 position)
        {
            position = Vector3.zero;
            PlanetQueries q = Queries;
            if (q == null)
                return false;
            try
            {
                Double3 p = q.PositionAt(latitude, longitude);
                position = ToUnity(p * ((Info.Radius + altitude) / p.Length));
                return true;
            }
            catch (ReliefException) { return false; }
        }

        /// <summary>The ground's height above sea level under <paramref name="position"/>,
        /// metres: a loaded tile's, else the planet's coarse overview.</summary>
        public bool TryGetHeight(Vector3 position, out float heightAboveSea)
        {
            heightAboveSea = 0;
            PlanetQueries q = Queries;
            if (q == null)
                return false;
            try
            {
                HeightOrigin origin;
                heightAboveSea = q.Height(ToRelief(position), out origin);
                return origin != HeightOrigin.Outside;
            }
            catch (ReliefException) { return false; }
        }

        /// <summary>The ground's surface point under <paramref name="position"/>, as a Unity
        /// position and in the planet frame (doubles: what to keep for far-apart points).</summary>
        public bool TryGetSurface(Vector3 position, out Vector3 surface, out Double3 planetFrame)
        {
            surface = position;
            planetFrame = default(Double3);
            PlanetQueries q = Queries;
            if (q == null)
                return false;
            try
            {
                planetFrame = q.Surface(ToRelief(position), Info.Radius);
                surface = ToUnity(planetFrame);
                return true;
            }
            catch (ReliefException) { return false; }
        }

        /// <summary>The ground's unit normal under <paramref name="position"/> (Unity world).</summary>
        public bool TryGetNormal(Vector3 position, out Vector3 normal)
        {
            normal = UpAt(position);
            PlanetQueries q = Queries;
            if (q == null)
                return false;
            try
            {
                HeightOrigin origin;
                Double3 n = q.Normal(ToRelief(position), out origin);
                normal = transform.TransformDirection(Conversions.ToVector3(n));
                return origin != HeightOrigin.Outside;
            }
            catch (ReliefException) { return false; }
        }

        /// <summary>The biome under <paramref name="position"/>; false where its tile is not
        /// loaded.</summary>
        public bool TryGetBiome(Vector3 position, out Biome biome)
        {
            biome = default(Biome);
            PlanetQueries q = Queries;
            if (q == null)
                return false;
            try
            {
                double value;
                if (!q.Sample(ToRelief(position), PlanetField.Biome, out value))
                    return false;
                biome = (Biome)(byte)value;
                return true;
            }
            catch (ReliefException) { return false; }
        }

        /// <summary>The nearest river within <paramref name="radius"/> metres; <paramref name="nearest"/>
        /// is its closest point on the ground (Unity world).</summary>
        public bool TryGetRiver(Vector3 position, float radius, out PlanetRiverAt river, out Vector3 nearest)
        {
            river = default(PlanetRiverAt);
            nearest = position;
            PlanetQueries q = Queries;
            if (q == null)
                return false;
            try
            {
                river = q.River(ToRelief(position), radius);
                if (!river.Found)
                    return false;
                nearest = ToUnity(river.Nearest);
                return true;
            }
            catch (ReliefException) { return false; }
        }

        /// <summary>The nearest lake within <paramref name="radius"/> metres.</summary>
        public bool TryGetLake(Vector3 position, float radius, out LakeAt lake)
        {
            lake = default(LakeAt);
            PlanetQueries q = Queries;
            if (q == null)
                return false;
            try
            {
                lake = q.Lake(ToRelief(position), radius);
                return lake.Found;
            }
            catch (ReliefException) { return false; }
        }

        /// <summary>A biome id's name on this planet ("tropical forest"), or null.</summary>
        public string BiomeName(int id)
        {
            if (planet == null)
                return null;
            try { return planet.BiomeName(id); }
            catch (ReliefException) { return null; }
        }
    }
}
