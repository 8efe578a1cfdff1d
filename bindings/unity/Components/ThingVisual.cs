// What one kind of placed thing looks like: an entry of ReliefThings' inspector list, naming a
// kind of the world's things.json and giving it a mesh and material (or a prefab holding both).
// A file of its own: its fields are the entry's, not the component's.
using System;
using UnityEngine;

namespace Relief.Unity
{
    /// <summary>How <see cref="ReliefThings"/> draws one kind of placed thing: <see cref="Kind"/>
    /// names it as the world's things.json does (a baked world's: conifer, broadleaf, shrub,
    /// boulder, grass, reeds); <see cref="Mesh"/> and <see cref="Material"/> draw it, or, when
    /// no mesh is set, <see cref="Prefab"/>'s own MeshFilter and MeshRenderer (on its root: its
    /// children, LOD groups and the root's own transform are not used). The mesh is drawn at
    /// each thing's origin, on the ground, its Y the thing's up, scaled by the thing's scale:
    /// model it standing on y = 0, in metres.</summary>
    [Serializable]
    public sealed class ThingVisual
    {
        [Tooltip("The kind's name in the world's things.json (baked worlds: conifer, broadleaf, shrub, boulder, grass, reeds).")]
        [SerializeField] string kind = "";
        [Tooltip("What each thing of the kind draws: standing on y = 0, in metres. Empty: the prefab's.")]
        [SerializeField] Mesh mesh;
        [Tooltip("The mesh's material (submesh 0); a copy with GPU instancing on is used if it has it off. Empty: the prefab's.")]
        [SerializeField] Material material;
        [Tooltip("Used when Mesh is empty: its root's MeshFilter mesh and MeshRenderer materials (one per submesh).")]
        [SerializeField] GameObject prefab;
        [Tooltip("Whether the things cast shadows (trees and rocks: yes; grass: usually not).")]
        [SerializeField] bool castShadows = true;

        /// <summary>An empty entry (the inspector's).</summary>
        public ThingVisual() { }

        /// <summary>An entry drawing kind <paramref name="kind"/> with <paramref name="mesh"/>
        /// and <paramref name="material"/>.</summary>
        public ThingVisual(string kind, Mesh mesh, Material material, bool castShadows)
        {
            this.kind = kind;
            this.mesh = mesh;
            this.material = material;
            this.castShadows = castShadows;
        }

        /// <summary>An entry drawing kind <paramref name="kind"/> as <paramref name="prefab"/>
        /// looks.</summary>
        public ThingVisual(string kind, GameObject prefab, bool castShadows)
        {
            this.kind = kind;
            this.prefab = prefab;
            this.castShadows = castShadows;
        }

        /// <summary>The kind's name in the world's things.json.</summary>
        public string Kind { get { return kind; } set { kind = value; } }
        public Mesh Mesh { get { return mesh; } set { mesh = value; } }
        public Material Material { get { return material; } set { material = value; } }
        public GameObject Prefab { get { return prefab; } set { prefab = value; } }
        public bool CastShadows { get { return castShadows; } set { castShadows = value; } }
    }
}
