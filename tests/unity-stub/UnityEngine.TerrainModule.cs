// A stand-in for Unity's UnityEngine.TerrainModule.dll holding exactly the members relief's package
// (bindings/unity) uses from it, so tests/unity_compile.rs can compile each of the package's
// assemblies against the modules Unity gives it. Each member has the signature its page in
// Unity's Scripting Reference gives (Unity 2021.3 LTS and later; pages at
// https://docs.unity3d.com/ScriptReference/<page>, cited per member); bodies throw, nothing
// here runs. Why these types are in this module (UnityCsReference, 2021.3 branch; code under
// Modules/<X>/ is built into UnityEngine.<X>Module.dll, Runtime/Export/ into CoreModule):
//   Modules/Terrain/Public/Terrain.bindings.cs, TerrainData.bindings.cs: Terrain, TerrainData
//   Modules/Terrain/Public/TerrainLayer.bindings.cs: TerrainLayer
using System;

namespace UnityEngine
{
    static class Stub { internal static Exception Never() { return new NotSupportedException("UnityEngine stand-in: compile only"); } }

    // ScriptReference/Terrain.html
    public sealed class Terrain : Behaviour
    {
        // Terrain.CreateTerrainGameObject.html: public static GameObject CreateTerrainGameObject(TerrainData assignTerrain);
        public static GameObject CreateTerrainGameObject(TerrainData assignTerrain) { throw Stub.Never(); }
        // Terrain-materialTemplate.html, Terrain-allowAutoConnect.html
        public Material materialTemplate { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public bool allowAutoConnect { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        // Terrain.SetNeighbors.html: public void SetNeighbors(Terrain left, Terrain top, Terrain right, Terrain bottom);
        public void SetNeighbors(Terrain left, Terrain top, Terrain right, Terrain bottom) { throw Stub.Never(); }
    }

    // ScriptReference/TerrainData.html
    public sealed class TerrainData : Object
    {
        // TerrainData-ctor.html
        public TerrainData() { throw Stub.Never(); }
        // TerrainData-heightmapResolution.html, TerrainData-size.html
        public int heightmapResolution { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public Vector3 size { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        // TerrainData.SetHeightsDelayLOD.html: public void SetHeightsDelayLOD(int xBase, int yBase, float[,] heights);
        public void SetHeightsDelayLOD(int xBase, int yBase, float[,] heights) { throw Stub.Never(); }
        // TerrainData.SyncHeightmap.html
        public void SyncHeightmap() { throw Stub.Never(); }
        // TerrainData.SetHolesDelayLOD.html: public void SetHolesDelayLOD(int xBase, int yBase, bool[,] holes);
        public void SetHolesDelayLOD(int xBase, int yBase, bool[,] holes) { throw Stub.Never(); }
        // TerrainData.SyncTexture.html: public void SyncTexture(string textureName);
        public void SyncTexture(string textureName) { throw Stub.Never(); }
        // TerrainData.HolesTextureName.html
        public static string HolesTextureName { get { throw Stub.Never(); } }
        // TerrainData-alphamapResolution.html, TerrainData-terrainLayers.html
        public int alphamapResolution { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public TerrainLayer[] terrainLayers { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        // TerrainData.GetAlphamapTexture.html: public Texture2D GetAlphamapTexture(int index);
        public Texture2D GetAlphamapTexture(int index) { throw Stub.Never(); }
        // TerrainData.SetBaseMapDirty.html
        public void SetBaseMapDirty() { throw Stub.Never(); }
    }

    // ScriptReference/TerrainLayer.html
    public sealed class TerrainLayer : Object
    {
        // TerrainLayer-ctor.html
        public TerrainLayer() { throw Stub.Never(); }
        // TerrainLayer-diffuseTexture.html, TerrainLayer-tileSize.html
        public Texture2D diffuseTexture { get { throw Stub.Never(); } set { throw Stub.Never(); } }
        public Vector2 tileSize { get { throw Stub.Never(); } set { throw Stub.Never(); } }
    }
}
