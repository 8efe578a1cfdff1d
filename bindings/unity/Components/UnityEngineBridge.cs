// IReliefEngine for Unity: the StreamingDriver decides, this only touches engine objects.
// Every object it makes is a child of the streaming component, placed in its local space.
using System;
using System.Collections.Generic;
using UnityEngine;
using UnityEngine.Rendering;

namespace Relief.Unity
{
    /// <summary>A pooled terrain tile: one Terrain and the TerrainData only it uses.</summary>
    public sealed class TerrainTile
    {
        public readonly Terrain Terrain;
        public readonly TerrainData Data;
        internal Double3 Position;
        internal bool HasHoles;

        internal TerrainTile(Terrain terrain, TerrainData data) { Terrain = terrain; Data = data; }
    }

    /// <summary>A pooled collision chunk: a GameObject with a MeshCollider and its mesh. The
    /// mesh's instance id is read on the main thread when it is made, for
    /// <c>Physics.BakeMesh</c> on a worker.</summary>
    public sealed class ColliderChunk
    {
        public readonly GameObject Object;
        public readonly MeshCollider Collider;
        public readonly Mesh Mesh;
        internal readonly int MeshId;
        internal Vector3[] Vertices = new Vector3[0];
        internal int[] Indices = new int[0];
        internal ChunkPlacement Placement;

        internal ColliderChunk(GameObject o, MeshCollider collider, Mesh mesh)
        {
            Object = o; Collider = collider; Mesh = mesh; MeshId = mesh.GetInstanceID();
        }
    }

    /// <summary>The driver's engine calls on Unity objects.</summary>
    sealed class UnityEngineBridge : IReliefEngine<TerrainTile, ColliderChunk>
    {
        readonly ReliefStreaming owner;
        readonly Transform parent;
        readonly Material terrainMaterial;
        readonly TerrainLayer[] groundLayers;
        bool warnedSplatFormat;
        /// <summary>The far ground, if drawn; set once the source is open.</summary>
        internal FarGroundMesh Far;
        readonly HashSet<TerrainTile> shownTiles = new HashSet<TerrainTile>();
        readonly HashSet<ColliderChunk> shownChunks = new HashSet<ColliderChunk>();

        /// <summary>Tiles draw with <paramref name="terrainMaterial"/> (null: Unity's default)
        /// and carry <paramref name="groundLayers"/> (null or empty: no splat).</summary>
        internal UnityEngineBridge(ReliefStreaming owner, Material terrainMaterial, TerrainLayer[] groundLayers)
        {
            this.owner = owner;
            parent = owner.transform;
            this.terrainMaterial = terrainMaterial;
            this.groundLayers = groundLayers;
        }

        public TerrainTile NewTile(int resolution)
        {
            var data = new TerrainData();
            data.heightmapResolution = resolution;
            if (groundLayers != null && groundLayers.Length > 0)
            {
                // The resolution first (it does not resample), then the layers, which make
                // one splat texture per four.
                data.alphamapResolution = GroundSplat.Resolution(resolution - 1);
                data.terrainLayers = groundLayers;
            }
            // CreateTerrainGameObject adds a TerrainCollider: a flat world's collision.
            GameObject o = Terrain.CreateTerrainGameObject(data);
            o.name = "relief region";
            o.transform.SetParent(parent, false);
            var terrain = o.GetComponent<Terrain>();
            // The driver connects neighbours itself; auto-connect would join unrelated tiles.
            terrain.allowAutoConnect = false;
            if (terrainMaterial != null)
                terrain.materialTemplate = terrainMaterial;
            o.SetActive(false);
            return new TerrainTile(terrain, data);
        }

        public void ShowTile(TerrainTile tile, TilePlacement placement)
        {
            tile.Data.size = Conversions.ToVector3(placement.Size);
            tile.Position = placement.Position;
            tile.Terrain.transform.localPosition = Conversions.ToLocal(placement.Position, owner.Origin);
            tile.Terrain.gameObject.SetActive(true);
            shownTiles.Add(tile);
        }

        public void SetTileHeights(TerrainTile tile, int xBase, int yBase, float[,] heights)
        {
            tile.Data.SetHeightsDelayLOD(xBase, yBase, heights);
        }

        public void SetTileHoles(TerrainTile tile, bool[,] surface)
        {
            tile.Data.SetHolesDelayLOD(0, 0, surface);
            tile.HasHoles = true;
        }

        /// <summary>Writes the worker's control textures into the tile's own splat textures as
        /// Unity's terrain tools do (GetAlphamapTexture, pixels, Apply with mips:
        /// TerrainData.CopyActiveRenderTextureToTexture's non-delayed path), then marks the
        /// distant base map for a rebuild. A memcpy and an upload on the main thread, not
        /// SetAlphamaps' per-texel conversion of a float array.</summary>
        public void SetTileSplat(TerrainTile tile, byte[][] controlTextures)
        {
            for (int t = 0; t < controlTextures.Length; t++)
            {
                Texture2D splat = tile.Data.GetAlphamapTexture(t);
                if (splat.format != TextureFormat.RGBA32)
                {
                    if (!warnedSplatFormat)
                        Debug.LogWarning("relief: a terrain splat texture is " + splat.format + ", not RGBA32; tiles stay unpainted", owner);
                    warnedSplatFormat = true;
                    return;
                }
                splat.SetPixelData(controlTextures[t], 0);
                splat.Apply(true);
            }
            tile.Data.SetBaseMapDirty();
        }

        public void SyncTile(TerrainTile tile)
        {
            tile.Data.SyncHeightmap();
            if (tile.HasHoles)
                tile.Data.SyncTexture(TerrainData.HolesTextureName);
            tile.HasHoles = false;
        }

        public void SetTileNeighbors(TerrainTile tile, TerrainTile left, TerrainTile top, TerrainTile right, TerrainTile bottom)
        {
            tile.Terrain.SetNeighbors(TerrainOf(left), TerrainOf(top), TerrainOf(right), TerrainOf(bottom));
        }

        static Terrain TerrainOf(TerrainTile t) { return t != null ? t.Terrain : null; }

        public void HideTile(TerrainTile tile)
        {
            tile.Terrain.gameObject.SetActive(false);
            shownTiles.Remove(tile);
        }

        public void DestroyTile(TerrainTile tile)
        {
            shownTiles.Remove(tile);
            UnityEngine.Object.Destroy(tile.Terrain.gameObject);
            UnityEngine.Object.Destroy(tile.Data);
        }

        public ColliderChunk NewChunkMesh()
        {
            var o = new GameObject("relief collision chunk");
            o.transform.SetParent(parent, false);
            MeshCollider collider = o.AddComponent<MeshCollider>();
            var mesh = new Mesh();
            mesh.MarkDynamic();
            o.SetActive(false);
            return new ColliderChunk(o, collider, mesh);
        }

        public void SetChunkMesh(ColliderChunk chunk, float[] vertices, int vertexCount, int[] indices, int indexCount)
        {
            if (chunk.Vertices.Length < vertexCount)
                chunk.Vertices = new Vector3[vertexCount];
            Vector3[] v = chunk.Vertices;
            for (int i = 0; i < vertexCount; i++)
                v[i] = new Vector3(vertices[3 * i], vertices[3 * i + 1], vertices[3 * i + 2]);
            // SetTriangles takes a whole array: a chunk with holes has fewer triangles than the
            // last one, so the tail is padded with degenerate (0, 0, 0) triangles, which mesh
            // cooking drops. The per-chunk array is sized once.
            if (chunk.Indices.Length < indices.Length)
                chunk.Indices = new int[indices.Length];
            Array.Copy(indices, chunk.Indices, indexCount);
            Array.Clear(chunk.Indices, indexCount, chunk.Indices.Length - indexCount);
            chunk.Mesh.indexFormat = vertexCount > 65535 ? IndexFormat.UInt32 : IndexFormat.UInt16;
            chunk.Mesh.SetVertices(v, 0, vertexCount);
            chunk.Mesh.SetTriangles(chunk.Indices, 0, true, 0);
        }

        public void BakeChunkMesh(ColliderChunk chunk)
        {
            Physics.BakeMesh(chunk.MeshId, false);
        }

        public void ShowChunk(ColliderChunk chunk, ChunkPlacement placement)
        {
            chunk.Placement = placement;
            chunk.Object.transform.localPosition = Conversions.ToLocal(placement.Position, owner.Origin);
            chunk.Object.transform.localRotation = Conversions.ToQuaternion(placement.Rotation);
            // Assigned after the bake: the collider reuses the cooked data.
            chunk.Collider.sharedMesh = chunk.Mesh;
            chunk.Object.SetActive(true);
            shownChunks.Add(chunk);
        }

        public void HideChunk(ColliderChunk chunk)
        {
            chunk.Object.SetActive(false);
            chunk.Collider.sharedMesh = null;
            shownChunks.Remove(chunk);
        }

        public void DestroyChunk(ColliderChunk chunk)
        {
            shownChunks.Remove(chunk);
            UnityEngine.Object.Destroy(chunk.Object);
            UnityEngine.Object.Destroy(chunk.Mesh);
        }

        public void UploadLevel(LevelInfo info, ReadOnlySpan<float> heights)
        {
            if (Far != null)
                Far.Upload(info, heights);
        }

        public void Log(LogLevel level, string message)
        {
            switch (level)
            {
                case LogLevel.Error: Debug.LogError(message, owner); break;
                case LogLevel.Warn: Debug.LogWarning(message, owner); break;
                default: Debug.Log(message, owner); break;
            }
        }

        /// <summary>Re-places every shown piece after the floating origin moved.</summary>
        internal void Replace(Double3 origin)
        {
            foreach (TerrainTile t in shownTiles)
                t.Terrain.transform.localPosition = Conversions.ToLocal(t.Position, origin);
            foreach (ColliderChunk c in shownChunks)
                c.Object.transform.localPosition = Conversions.ToLocal(c.Placement.Position, origin);
        }
    }
}
