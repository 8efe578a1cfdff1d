// One placed thing chunk as ReliefThings holds it: a NativeArray over relief's own matrices
// (no copy: relief lays them out as Unity's Matrix4x4), its draws and colliders worked out
// once (ThingLayout), and the collider objects it has now. What a kind looks like (ThingLook)
// is resolved once per world, not per chunk.
using System;
using System.Collections.Generic;
using Unity.Collections;
using Unity.Collections.LowLevel.Unsafe;
using UnityEngine;
using UnityEngine.Rendering;

namespace Relief.Unity
{
    /// <summary>What one kind draws with, resolved from its <see cref="ThingVisual"/>: the mesh,
    /// a material per submesh drawn (GPU instancing on), shadows, and how far the mesh reaches
    /// from its origin (for culling boxes).</summary>
    sealed class ThingLook
    {
        internal readonly Mesh Mesh;
        internal readonly Material[] Materials;
        internal readonly ShadowCastingMode Shadows;
        internal readonly float Reach;

        internal ThingLook(Mesh mesh, Material[] materials, bool castShadows)
        {
            Mesh = mesh;
            Materials = materials;
            Shadows = castShadows ? ShadowCastingMode.On : ShadowCastingMode.Off;
            // A bound on any point of the mesh's distance from its origin, however it turns.
            Bounds b = mesh.bounds;
            Reach = b.center.magnitude + b.extents.magnitude;
        }
    }

    /// <summary>A collider object of the pool: one GameObject, one collider of one shape.</summary>
    sealed class PooledCollider
    {
        internal readonly GameObject Object;
        internal readonly Transform Transform;
        internal readonly ThingShape Shape;
        internal readonly CapsuleCollider Capsule;
        internal readonly SphereCollider Sphere;
        internal readonly BoxCollider Box;

        internal PooledCollider(GameObject o, ThingShape shape)
        {
            Object = o;
            Transform = o.transform;
            Shape = shape;
            switch (shape)
            {
                case ThingShape.Capsule:
                    Capsule = o.AddComponent<CapsuleCollider>();
                    Capsule.direction = 1; // along Y, the thing's up
                    break;
                case ThingShape.Sphere: Sphere = o.AddComponent<SphereCollider>(); break;
                default: Box = o.AddComponent<BoxCollider>(); break;
            }
        }

        /// <summary>Sizes the collider as <paramref name="s"/> says (a box's size is twice its
        /// half extents).</summary>
        internal void Size(ThingShapePlacement s)
        {
            if (Capsule != null)
            {
                Capsule.radius = s.Radius;
                Capsule.height = s.Height;
            }
            else if (Sphere != null)
                Sphere.radius = s.Radius;
            else
                Box.size = new Vector3(2f * s.HalfX, 2f * s.HalfY, 2f * s.HalfZ);
        }
    }

    /// <summary>A held chunk: its view (lent by the driver until Hide), its matrices as a
    /// NativeArray in place, its draws and collider placements, and its collider objects.</summary>
    sealed unsafe class HeldThings
    {
        internal readonly ThingsView View;
        /// <summary>What the chunk's positions are relative to (world metres).</summary>
        internal readonly Double3 Origin;
        internal readonly ThingBatch[] Batches;
        internal readonly ThingShapePlacement[] Shapes;
        /// <summary>Where the chunk's colliders hang (relative to Origin, whole metres near their
        /// middle), so their local positions stay small floats.</summary>
        internal readonly Double3 Anchor;
        /// <summary>The colliders' extent on the ground (relative to Origin), for the distance
        /// to the focus.</summary>
        readonly double minX, minZ, maxX, maxZ;

        NativeArray<Matrix4x4> matrices;
#if ENABLE_UNITY_COLLECTIONS_CHECKS
        AtomicSafetyHandle safety;
#endif
        /// <summary>The matrices moved by an offset that is not the identity, and that offset.</summary>
        NativeArray<Matrix4x4> shifted;
        Matrix4x4 shiftedFor;

        /// <summary>The chunk's collider parent while it has colliders, the colliders made so
        /// far (Shapes[0 … Built − 1], None shapes skipped), and whether it waits for more.</summary>
        internal GameObject Parent;
        internal readonly List<PooledCollider> Colliders = new List<PooledCollider>();
        internal int Built;
        internal bool Queued;

        internal HeldThings(ThingsView view)
        {
            View = view;
            Origin = view.Origin;
            Batches = ThingLayout.Batches(view);
            Shapes = ThingLayout.Shapes(view);
            if (view.Count > 0)
            {
                // relief's memory as Unity's: 16 floats a thing, column-major, exactly a
                // Matrix4x4. Allocator.None: relief owns it (the array is never disposed).
                matrices = NativeArrayUnsafeUtility.ConvertExistingDataToNativeArray<Matrix4x4>((void*)view.MatricesAddress, view.Count, Allocator.None);
#if ENABLE_UNITY_COLLECTIONS_CHECKS
                // The safety system refuses an array with no handle; this one is ours alone,
                // released with the chunk.
                safety = AtomicSafetyHandle.Create();
                NativeArrayUnsafeUtility.SetAtomicSafetyHandle(ref matrices, safety);
#endif
            }
            minX = minZ = double.PositiveInfinity;
            maxX = maxZ = double.NegativeInfinity;
            foreach (ThingShapePlacement s in Shapes)
            {
                minX = Math.Min(minX, s.Position.X);
                maxX = Math.Max(maxX, s.Position.X);
                minZ = Math.Min(minZ, s.Position.Z);
                maxZ = Math.Max(maxZ, s.Position.Z);
            }
            Anchor = Shapes.Length == 0 ? new Double3(0, 0, 0)
                : new Double3(Math.Round((minX + maxX) / 2), Math.Round(Shapes[0].Position.Y), Math.Round((minZ + maxZ) / 2));
        }

        /// <summary>Metres on the ground (x, z) from <paramref name="focus"/> (world metres) to
        /// the nearest of the chunk's colliders' centres' box.</summary>
        internal double Distance(Double3 focus)
        {
            double x = focus.X - Origin.X, z = focus.Z - Origin.Z;
            double dx = Math.Max(0, Math.Max(minX - x, x - maxX)), dz = Math.Max(0, Math.Max(minZ - z, z - maxZ));
            return Math.Sqrt(dx * dx + dz * dz);
        }

        /// <summary>The instance matrices drawn through <paramref name="offset"/> (the
        /// component's transform and floating origin): relief's own memory while the offset is
        /// the identity; otherwise a copy moved by it, made again only when it changes (a
        /// recentre), never per frame.</summary>
        internal NativeArray<Matrix4x4> Instances(Matrix4x4 offset)
        {
            if (IsIdentity(offset))
                return matrices;
            if (shifted.IsCreated && Same(offset, shiftedFor))
                return shifted;
            int n = View.Count;
            if (!shifted.IsCreated)
                shifted = new NativeArray<Matrix4x4>(n, Allocator.Persistent, NativeArrayOptions.UninitializedMemory);
            var from = (Matrix4x4*)View.MatricesAddress;
            var to = (Matrix4x4*)shifted.GetUnsafePtr();
            for (int i = 0; i < n; i++)
                to[i] = offset * from[i];
            shiftedFor = offset;
            return shifted;
        }

        /// <summary>Lets go of relief's memory (before the driver releases the view) and of the
        /// copy. Twice is fine.</summary>
        internal void Release()
        {
#if ENABLE_UNITY_COLLECTIONS_CHECKS
            if (matrices.IsCreated)
                AtomicSafetyHandle.Release(safety);
#endif
            matrices = default(NativeArray<Matrix4x4>);
            if (shifted.IsCreated)
                shifted.Dispose();
            shifted = default(NativeArray<Matrix4x4>);
        }

        static bool IsIdentity(Matrix4x4 m)
        {
            return m.m00 == 1f && m.m11 == 1f && m.m22 == 1f && m.m33 == 1f
                && m.m01 == 0f && m.m02 == 0f && m.m03 == 0f && m.m10 == 0f && m.m12 == 0f && m.m13 == 0f
                && m.m20 == 0f && m.m21 == 0f && m.m23 == 0f && m.m30 == 0f && m.m31 == 0f && m.m32 == 0f;
        }

        /// <summary>Exactly equal (Matrix4x4's == allows a tolerance).</summary>
        static bool Same(Matrix4x4 a, Matrix4x4 b)
        {
            return a.m00 == b.m00 && a.m01 == b.m01 && a.m02 == b.m02 && a.m03 == b.m03
                && a.m10 == b.m10 && a.m11 == b.m11 && a.m12 == b.m12 && a.m13 == b.m13
                && a.m20 == b.m20 && a.m21 == b.m21 && a.m22 == b.m22 && a.m23 == b.m23
                && a.m30 == b.m30 && a.m31 == b.m31 && a.m32 == b.m32 && a.m33 == b.m33;
        }
    }
}
