// The planet sample's on-screen readout: where the player is, and ground, river and lake there.
using Relief.Unity;
using UnityEngine;

namespace Relief.Samples
{
    [AddComponentMenu("Relief Samples/Planet Readout")]
    public sealed class PlanetReadout : MonoBehaviour
    {
        [SerializeField] ReliefPlanet planet;
        [SerializeField] Transform player;
        [Tooltip("How far to look for rivers and lakes, metres.")]
        [SerializeField] float searchRadius = 2000f;
        [SerializeField] float refreshSeconds = 0.25f;

        string text = "relief: starting";
        float wait;

        void Update()
        {
            wait -= Time.deltaTime;
            if (wait > 0f || planet == null || player == null)
                return;
            wait = refreshSeconds;
            if (planet.IsOpening || (planet.IsStreaming && !planet.IsReady))
            {
                // The loading screen: what the player waits for before it moves.
                text = string.Format("relief: loading {0:0} %", planet.LoadingProgress * 100f);
                return;
            }
            if (!planet.IsStreaming)
            {
                text = "relief: not streaming" + (planet.StopReason != null ? " (" + planet.StopReason + ")" : "");
                return;
            }
            Vector3 at = player.position;
            double latitude, longitude;
            planet.TryGetLatLon(at, out latitude, out longitude);
            float height;
            planet.TryGetHeight(at, out height);
            Biome biome;
            bool onGround = planet.TryGetBiome(at, out biome);
            PlanetRiverAt river;
            Vector3 nearest;
            bool nearRiver = planet.TryGetRiver(at, searchRadius, out river, out nearest);
            LakeAt lake;
            bool nearLake = planet.TryGetLake(at, searchRadius, out lake);
            DriverStats stats = planet.Stats;
            text = Readout.DescribePlanet(latitude, longitude, height, onGround, biome, onGround ? planet.BiomeName((int)biome) : null,
                nearRiver, river.Distance, river.Width, river.Kind, nearLake, lake)
                + string.Format("\ncolliders {0}, frame {1:0.00} ms (max {2:0.00})", stats.CollidersShown, stats.FrameMs, stats.FrameMaxMs);
        }

        void OnGUI()
        {
            GUI.Label(new Rect(10f, 10f, 640f, 160f), text);
        }
    }
}
