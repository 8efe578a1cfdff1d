// The flat-world sample's forest: gives ReliefThings a mesh and a colour for each kind a baked
// world places (conifer, broadleaf, shrub, boulder, grass, reeds: relief bake's default
// things table), made when the scene starts so the sample needs no model assets. Each is a
// solid of revolution about its Y, standing on y = 0, about the size of the kind's collision
// shape in that table (a 9 m conifer, a 10 m broadleaf, 1.2 m shrubs, 0.8 m boulders), drawn
// with a copy of the active render pipeline's default material (URP's or HDRP's Lit, or the
// built-in pipeline's Standard) tinted per kind. Stand-ins, not art: give ReliefThings your own
// meshes or prefabs.
using Relief.Unity;
using UnityEngine;
using UnityEngine.Rendering;

namespace Relief.Samples
{
    [AddComponentMenu("Relief Samples/Sample Forest")]
    public sealed class SampleForest : MonoBehaviour
    {
        [Tooltip("The ReliefThings to fill (on the Relief Terrain's GameObject).")]
        [SerializeField] ReliefThings things;

        Mesh[] meshes;
        Material[] materials;

        void Awake()
        {
            if (things == null)
                return;
            Material basis = DefaultMaterial();
            // Profiles: (radius, height) pairs from the ground up, metres.
            meshes = new[]
            {
                Lathe("conifer", 8, 0f, 0f, 0.3f, 0f, 0.3f, 1.2f, 2.2f, 1.2f, 1.0f, 4.0f, 1.7f, 4.0f, 0.7f, 6.6f, 1.2f, 6.6f, 0f, 9.5f),
                Lathe("broadleaf", 8, 0f, 0f, 0.4f, 0f, 0.4f, 3.2f, 1.8f, 3.4f, 3.0f, 4.6f, 3.3f, 6.2f, 2.8f, 7.8f, 1.6f, 8.9f, 0f, 9.4f),
                Lathe("shrub", 7, 0f, 0f, 0.7f, 0.05f, 0.9f, 0.45f, 0.75f, 0.9f, 0.35f, 1.15f, 0f, 1.2f),
                Lathe("boulder", 6, 0f, -0.5f, 0.75f, -0.35f, 0.9f, 0.1f, 0.8f, 0.55f, 0.45f, 0.9f, 0f, 1.0f),
                Lathe("grass", 3, 0f, 0f, 0.12f, 0f, 0f, 0.45f),
                Lathe("reeds", 3, 0f, 0f, 0.06f, 0f, 0.04f, 1.4f, 0f, 1.7f),
            };
            var colours = new[]
            {
                new Color(0.13f, 0.32f, 0.17f),
                new Color(0.25f, 0.45f, 0.16f),
                new Color(0.36f, 0.45f, 0.20f),
                new Color(0.46f, 0.45f, 0.43f),
                new Color(0.42f, 0.58f, 0.22f),
                new Color(0.60f, 0.58f, 0.35f),
            };
            // Grass and reeds cast no shadows: thousands of slivers would cost more than they show.
            var shadows = new[] { true, true, true, true, false, false };
            materials = new Material[meshes.Length];
            var kinds = new ThingVisual[meshes.Length];
            for (int i = 0; i < meshes.Length; i++)
            {
                materials[i] = new Material(basis);
                materials[i].name = "relief sample " + meshes[i].name;
                materials[i].color = colours[i];
                materials[i].enableInstancing = true;
                kinds[i] = new ThingVisual(meshes[i].name, meshes[i], materials[i], shadows[i]);
            }
            things.Kinds = kinds;
        }

        /// <summary>The active pipeline's default material: a scriptable pipeline's own (URP's
        /// or HDRP's Lit), else the one Unity gives a primitive (the built-in pipeline's
        /// Standard); both draw instanced.</summary>
        static Material DefaultMaterial()
        {
            RenderPipelineAsset pipeline = GraphicsSettings.currentRenderPipeline;
            if (pipeline != null && pipeline.defaultMaterial != null)
                return pipeline.defaultMaterial;
            GameObject primitive = GameObject.CreatePrimitive(PrimitiveType.Cube);
            primitive.SetActive(false);
            Material m = primitive.GetComponent<MeshRenderer>().sharedMaterial;
            Destroy(primitive);
            return m;
        }

        /// <summary>A solid of revolution about Y with <paramref name="sides"/> faces around:
        /// <paramref name="profile"/> is (radius, height) pairs from the bottom up, each a ring of
        /// vertices; a radius of 0 closes an end. Triangles wind clockwise seen from outside,
        /// Unity's front face.</summary>
        static Mesh Lathe(string name, int sides, params float[] profile)
        {
            int rings = profile.Length / 2;
            var vertices = new Vector3[rings * sides];
            for (int r = 0; r < rings; r++)
                for (int s = 0; s < sides; s++)
                {
                    double a = 2 * System.Math.PI * s / sides;
                    float radius = profile[2 * r], height = profile[2 * r + 1];
                    vertices[r * sides + s] = new Vector3(radius * (float)System.Math.Cos(a), height, radius * (float)System.Math.Sin(a));
                }
            var triangles = new int[6 * (rings - 1) * sides];
            int n = 0;
            for (int r = 0; r + 1 < rings; r++)
                for (int s = 0; s < sides; s++)
                {
                    int a = r * sides + s, b = r * sides + (s + 1) % sides, c = a + sides, d = b + sides;
                    triangles[n++] = a; triangles[n++] = c; triangles[n++] = b;
                    triangles[n++] = b; triangles[n++] = c; triangles[n++] = d;
                }
            var mesh = new Mesh();
            mesh.name = name;
            mesh.SetVertices(vertices, 0, vertices.Length);
            mesh.SetTriangles(triangles, 0, true, 0);
            mesh.RecalculateNormals();
            return mesh;
        }

        void OnDestroy()
        {
            if (meshes != null)
                foreach (Mesh m in meshes)
                    Destroy(m);
            if (materials != null)
                foreach (Material m in materials)
                    Destroy(m);
        }
    }
}
