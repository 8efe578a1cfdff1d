// The far ground: FarRings' mesh drawn by Relief/FarGround (Shaders/ReliefFarGround.shader, one
// SubShader per render pipeline), which lifts each vertex to the finest level whose window
// holds it (Runtime/FarLift.cs is the same lift on the CPU). Each level is an RFloat texture
// holding relief's storage as it is (toroidal); the shader fetches its texels by index and
// blends them itself, since many GPUs cannot filter 32-bit floats. Only dirty levels are
// uploaded. Per frame only uniforms change: no allocation, no upload.
using System;
using System.Runtime.InteropServices;
using UnityEngine;
using UnityEngine.Rendering;

namespace Relief.Unity
{
    sealed class FarGroundMesh
    {
        const int MaxLevels = 8;
        static readonly int[] LevelIds = new int[MaxLevels];
        static readonly int WindowsId, PhasesId, GridId, LevelCountId, PlaneXId, PlaneUpId, PlaneZId, RadiusId, SinkId, RingQuadId, RingHalfId;

        static FarGroundMesh()
        {
            for (int k = 0; k < MaxLevels; k++)
                LevelIds[k] = Shader.PropertyToID("_Level" + k);
            WindowsId = Shader.PropertyToID("_LevelWindows");
            PhasesId = Shader.PropertyToID("_LevelPhases");
            GridId = Shader.PropertyToID("_GridOffset");
            LevelCountId = Shader.PropertyToID("_LevelCount");
            PlaneXId = Shader.PropertyToID("_PlaneX");
            PlaneUpId = Shader.PropertyToID("_PlaneUp");
            PlaneZId = Shader.PropertyToID("_PlaneZ");
            RadiusId = Shader.PropertyToID("_PlanetRadius");
            SinkId = Shader.PropertyToID("_Sink");
            RingQuadId = Shader.PropertyToID("_RingQuad");
            RingHalfId = Shader.PropertyToID("_RingHalf");
        }

        readonly GameObject obj;
        readonly Mesh mesh;
        internal readonly Material Material;
        readonly int levelCount;
        readonly double step;
        readonly double planetRadius;
        readonly Texture2D[] textures = new Texture2D[MaxLevels];
        readonly LevelInfo[] levels = new LevelInfo[MaxLevels];
        readonly Vector4[] windows = new Vector4[MaxLevels];
        readonly Vector4[] phases = new Vector4[MaxLevels];
        readonly float[] window = new float[4], phase = new float[2];
        int uploaded;

        /// <summary>Builds the rings for <paramref name="config"/>'s levels (at most 8) as a
        /// child of <paramref name="parent"/>, drawn with <paramref name="material"/> (a copy is
        /// made, so several components can share one), <paramref name="sink"/> metres below the
        /// ground so streamed terrain drawn over it wins the depth test.</summary>
        internal FarGroundMesh(Transform parent, Material material, RuntimeConfig config, double planetRadius, float sink)
        {
            levelCount = Math.Min(config.LevelCount, MaxLevels);
            this.planetRadius = planetRadius;
            step = FarRings.Step(levelCount, config.LevelSpacing);
            int quads = FarRings.QuadCount(levelCount, config.LevelSize);
            var v = new float[12 * quads];
            var indices = new int[6 * quads];
            FarRings.Build(levelCount, config.LevelSize, config.LevelSpacing, v, indices);
            var vertices = new Vector3[4 * quads];
            for (int i = 0; i < vertices.Length; i++)
                vertices[i] = new Vector3(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
            mesh = new Mesh();
            mesh.name = "relief far ground";
            mesh.indexFormat = IndexFormat.UInt32;
            mesh.SetVertices(vertices, 0, vertices.Length);
            mesh.SetTriangles(indices, 0, false, 0);
            // The shader moves vertices far from the flat grid (up to a planet's radius): never
            // cull it by the grid's own box.
            mesh.bounds = new Bounds(Vector3.zero, new Vector3(1e8f, 1e8f, 1e8f));

            Material = new Material(material);
            Material.SetFloat(LevelCountId, levelCount);
            Material.SetFloat(RadiusId, (float)planetRadius);
            Material.SetFloat(SinkId, sink);
            Material.SetFloat(RingQuadId, FarLift.RingQuad(config.LevelSpacing));
            Material.SetFloat(RingHalfId, FarLift.RingHalf(config.LevelSize));

            obj = new GameObject("relief far ground");
            obj.transform.SetParent(parent, false);
            obj.AddComponent<MeshFilter>().sharedMesh = mesh;
            obj.AddComponent<MeshRenderer>().sharedMaterial = Material;
            obj.SetActive(false); // until every level has heights
        }

        /// <summary>Uploads level <paramref name="info"/>'s storage (Size² floats) as it is.</summary>
        internal unsafe void Upload(LevelInfo info, ReadOnlySpan<float> heights)
        {
            int k = info.Level;
            if (k >= levelCount)
                return;
            int size = info.Size;
            if (heights.Length < size * size)
                return;
            Texture2D t = textures[k];
            if (t == null)
            {
                t = new Texture2D(size, size, TextureFormat.RFloat, false);
                // Fetched by index and blended in the shader: never filtered, never wrapped.
                t.wrapMode = TextureWrapMode.Clamp;
                t.filterMode = FilterMode.Point;
                textures[k] = t;
                Material.SetTexture(LevelIds[k], t);
                uploaded++;
            }
            fixed (float* p = &MemoryMarshal.GetReference(heights))
                t.LoadRawTextureData((IntPtr)p, size * size * sizeof(float));
            t.Apply(false, false);
            levels[k] = info;
        }

        /// <summary>Moves the rings under <paramref name="camera"/> (relief frame) in steps of
        /// the coarsest quad, and tells the shader where each level's window now is.</summary>
        internal void Follow(Double3 camera, Double3 origin)
        {
            if (uploaded < levelCount)
                return;
            LevelInfo first = levels[0];
            Double3 planeOrigin = first.PlaneOrigin, ax = first.PlaneX, az = first.PlaneZ;
            Double3 rel = camera - planeOrigin;
            double gx = FarRings.Snap(rel.Dot(ax), step), gz = FarRings.Snap(rel.Dot(az), step);
            for (int k = 0; k < levelCount; k++)
            {
                FarLift.Window(levels[k], gx, gz, window, phase);
                windows[k] = new Vector4(window[0], window[1], window[2], window[3]);
                phases[k] = new Vector4(phase[0], phase[1], 0, 0);
            }
            Material.SetVectorArray(WindowsId, windows);
            Material.SetVectorArray(PhasesId, phases);
            Material.SetVector(GridId, new Vector4((float)gx, (float)gz, 0, 0));
            Material.SetVector(PlaneXId, Direction(ax));
            Material.SetVector(PlaneUpId, Direction(first.PlaneUp));
            Material.SetVector(PlaneZId, Direction(az));
            // Flat: the mesh sits at the grid's centre. Planet: at the rings' anchor on the
            // sphere, the shader bending the grid around the planet from there.
            Double3 at = planetRadius > 0 ? planeOrigin : planeOrigin + ax * gx + az * gz;
            obj.transform.localPosition = Conversions.ToLocal(at, origin);
            if (!obj.activeSelf)
                obj.SetActive(true);
        }

        static Vector4 Direction(Double3 d) { return new Vector4((float)d.X, (float)d.Y, (float)d.Z, 0); }

        internal void Destroy()
        {
            for (int k = 0; k < MaxLevels; k++)
                if (textures[k] != null) UnityEngine.Object.Destroy(textures[k]);
            UnityEngine.Object.Destroy(obj);
            UnityEngine.Object.Destroy(mesh);
            UnityEngine.Object.Destroy(Material);
        }
    }
}
