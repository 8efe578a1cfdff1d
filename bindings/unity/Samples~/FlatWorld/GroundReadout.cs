// The flat-world sample's on-screen readout: ground, river and lake at the player.
using Relief.Unity;
using UnityEngine;

namespace Relief.Samples
{
    [AddComponentMenu("Relief Samples/Ground Readout")]
    public sealed class GroundReadout : MonoBehaviour
    {
        [SerializeField] ReliefTerrain terrain;
        [SerializeField] Transform player;
        [Tooltip("The terrain's ReliefThings, for a line of counts (optional).")]
        [SerializeField] ReliefThings things;
        [Tooltip("How far to look for rivers and lakes, metres.")]
        [SerializeField] float searchRadius = 300f;
        [Tooltip("Seconds between refreshes (the queries are cheap; the string is not free).")]
        [SerializeField] float refreshSeconds = 0.25f;

        string text = "relief: starting";
        float wait;

        void Update()
        {
            wait -= Time.deltaTime;
            if (wait > 0f || terrain == null || player == null)
                return;
            wait = refreshSeconds;
            if (terrain.IsOpening || (terrain.IsStreaming && !terrain.IsReady))
            {
                // The loading screen: what the player waits for before it moves.
                text = string.Format("relief: loading {0:0} %", terrain.LoadingProgress * 100f);
                return;
            }
            if (!terrain.IsStreaming)
            {
                text = "relief: not streaming" + (terrain.StopReason != null ? " (" + terrain.StopReason + ")" : "");
                return;
            }
            Vector3 at = player.position;
            Ground ground;
            bool onGround = terrain.TryGetGround(at, out ground);
            RiverAt river;
            Vector3 nearest;
            bool nearRiver = terrain.TryGetRiver(at, searchRadius, out river, out nearest);
            LakeAt lake;
            bool nearLake = terrain.TryGetLake(at, searchRadius, out lake);
            string biome = onGround && ground.HasBiome ? terrain.BiomeName(ground.BiomeId) : null;
            DriverStats stats = terrain.Stats;
            text = Readout.Describe(onGround, ground, biome, nearRiver, river.Distance, river.Width, river.Kind, nearLake, lake)
                + string.Format("\ntiles {0}, frame {1:0.00} ms (max {2:0.00})", stats.TilesShown, stats.FrameMs, stats.FrameMaxMs);
            if (things != null)
                text += string.Format("\nthings {0} drawn in {1} calls from {2} chunks, {3} colliders", things.ThingsDrawn, things.DrawCalls, things.ChunksHeld, things.CollidersActive);
        }

        void OnGUI()
        {
            GUI.Label(new Rect(10f, 10f, 640f, 160f), text);
        }
    }
}
