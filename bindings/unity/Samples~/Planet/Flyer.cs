// The planet sample's player: flies over relief's planet at a height above the ground
// (arrows/WASD, Q/E to turn, Space/Left Ctrl to climb and sink, Shift for speed). "Up" is away
// from the planet's centre wherever it is: ReliefPlanet.UpAt.
using Relief;
using Relief.Unity;
using UnityEngine;

namespace Relief.Samples
{
    [AddComponentMenu("Relief Samples/Flyer")]
    public sealed class Flyer : MonoBehaviour
    {
        [SerializeField] ReliefPlanet planet;
        [SerializeField] float speed = 40f;
        [SerializeField] float fastSpeed = 800f;
        [SerializeField] float turnSpeed = 60f;
        [SerializeField] float climbSpeed = 30f;
        [SerializeField] float altitude = 60f;

        void Update()
        {
            if (planet == null || !planet.IsStreaming || !planet.IsReady)
                return;
            float dt = Time.deltaTime;
            Vector3 up = planet.UpAt(transform.position);
            Vector3 forward = Vector3.ProjectOnPlane(transform.forward, up);
            if (forward.magnitude < 1e-3f)
                forward = Vector3.ProjectOnPlane(transform.right, up); // looking straight down
            float turn = SampleInput.Axis(SampleKey.TurnRight, SampleKey.TurnLeft);
            forward = (Quaternion.AngleAxis(turn * turnSpeed * dt, up) * forward).normalized;
            Vector3 right = Vector3.Cross(up, forward);
            float v = SampleInput.Held(SampleKey.Fast) ? fastSpeed : speed;
            Vector3 p = transform.position + (forward * SampleInput.Forward() + right * SampleInput.Sideways()) * (v * dt);
            altitude += SampleInput.Axis(SampleKey.Climb, SampleKey.Descend) * climbSpeed * dt;
            if (altitude < 2f)
                altitude = 2f;
            Vector3 surface;
            Double3 onPlanet;
            up = planet.UpAt(p);
            if (planet.TryGetSurface(p, out surface, out onPlanet))
                p = surface + up * altitude;
            transform.SetPositionAndRotation(p, Quaternion.LookRotation(forward, up));
        }
    }
}
