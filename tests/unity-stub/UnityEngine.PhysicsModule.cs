// A stand-in for Unity's UnityEngine.PhysicsModule.dll holding exactly the members relief's package
// (bindings/unity) uses from it, so tests/unity_compile.rs can compile each of the package's
// assemblies against the modules Unity gives it. Each member has the signature its page in
// Unity's Scripting Reference gives (Unity 2021.3 LTS and later; pages at
// https://docs.unity3d.com/ScriptReference/<page>, cited per member); bodies throw, nothing
// here runs. Why these types are in this module (UnityCsReference, 2021.3 branch; code under
// Modules/<X>/ is built into UnityEngine.<X>Module.dll, Runtime/Export/ into CoreModule):
//   Modules/Physics/ScriptBindings/Dynamics.bindings.cs: Rigidbody, Collider, MeshCollider,
//   CapsuleCollider, BoxCollider, SphereCollider, Physics
using System;

namespace UnityEngine
{
    static class Stub { internal static Exception Never() { return new NotSupportedException("UnityEngine stand-in: compile only"); } }

    // ScriptReference/Collider.html, MeshCollider.html, MeshCollider-sharedMesh.html
    public class Collider : Component { }
    public sealed class MeshCollider : Collider
    {
        public Mesh sharedMesh { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }

    // ScriptReference/CapsuleCollider.html
    public class CapsuleCollider : Collider
    {
        // CapsuleCollider-radius.html, CapsuleCollider-height.html, CapsuleCollider-direction.html (0 X, 1 Y, 2 Z)
        public float radius { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public float height { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public int direction { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }

    // ScriptReference/SphereCollider.html, SphereCollider-radius.html
    public class SphereCollider : Collider
    {
        public float radius { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }

    // ScriptReference/BoxCollider.html, BoxCollider-size.html
    public class BoxCollider : Collider
    {
        public Vector3 size { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }

    // ScriptReference/Rigidbody.html, Rigidbody-position.html
    public class Rigidbody : Component
    {
        public Vector3 position { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }

    // ScriptReference/Physics.html
    public static class Physics
    {
        // Physics.SyncTransforms.html: public static void SyncTransforms();
        public static void SyncTransforms() { throw Stub.Never(); }
        // Physics.BakeMesh.html: public static void BakeMesh(int meshID, bool convex);
        public static void BakeMesh(int meshID, bool convex) { throw Stub.Never(); }
    }
}
