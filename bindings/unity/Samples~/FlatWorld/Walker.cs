// The flat-world sample's player: walks on relief's ground (arrows/WASD, Q/E to turn, Shift
// to run). It follows the ground with ReliefTerrain.TryGetHeight rather than physics, so it
// walks the moment the scene starts; the Terrain tiles' colliders are there for your own
// CharacterController or Rigidbody.
using Relief.Unity;
using UnityEngine;

namespace Relief.Samples
{
    [AddComponentMenu("Relief Samples/Walker")]
    public sealed class Walker : MonoBehaviour
    {
        [SerializeField] ReliefTerrain terrain;
        [SerializeField] float walkSpeed = 6f;
        [SerializeField] float runSpeed = 60f;
        [SerializeField] float turnSpeed = 90f;
        [SerializeField] float eyeHeight = 1.7f;

        float heading;

        void Update()
        {
            // Held until the ground around it is in (and its collision): no falling through.
            if (terrain == null || !terrain.IsReady)
                return;
            float dt = Time.deltaTime;
            float turn = SampleInput.Axis(SampleKey.TurnRight, SampleKey.TurnLeft);
            heading += turn * turnSpeed * dt;
            Quaternion facing = Quaternion.Euler(0f, heading, 0f);
            Vector3 forward = facing * new Vector3(0f, 0f, 1f), right = facing * new Vector3(1f, 0f, 0f);
            float speed = SampleInput.Held(SampleKey.Fast) ? runSpeed : walkSpeed;
            Vector3 p = transform.position + (forward * SampleInput.Forward() + right * SampleInput.Sideways()) * (speed * dt);
            float ground;
            if (terrain.TryGetHeight(p, out ground))
                p.y = ground + eyeHeight;
            transform.SetPositionAndRotation(p, facing);
        }
    }
}
