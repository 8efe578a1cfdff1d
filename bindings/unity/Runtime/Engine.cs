using System;

namespace Relief
{
    /// <summary>Where a flat world's region tile goes: the Terrain's position (the region's
    /// corner at the world's lowest height) and TerrainData.size.</summary>
    public readonly struct TilePlacement
    {
        /// <summary>The region's location, in regions.</summary>
        public readonly int RegionX, RegionZ;
        /// <summary>Heightmap samples a side (region size + 1).</summary>
        public readonly int Resolution;
        /// <summary>The tile's corner, world metres.</summary>
        public readonly Double3 Position;
        /// <summary>TerrainData.size: extent, height span, extent.</summary>
        public readonly Double3 Size;

        public TilePlacement(int regionX, int regionZ, int resolution, Double3 position, Double3 size)
        {
            RegionX = regionX; RegionZ = regionZ; Resolution = resolution; Position = position; Size = size;
        }
    }

    /// <summary>A rotation as a Unity Quaternion's (x, y, z, w), in doubles.</summary>
    public readonly struct Rotation
    {
        public readonly double X, Y, Z, W;
        public Rotation(double x, double y, double z, double w) { X = x; Y = y; Z = z; W = w; }
        public static readonly Rotation Identity = new Rotation(0, 0, 0, 1);
    }

    /// <summary>Where a collision chunk's mesh goes: its centre (world or planet frame, before
    /// a floating origin is taken off) and the rotation taking the mesh's X, Y, Z to the
    /// chunk's axes.</summary>
    public readonly struct ChunkPlacement
    {
        public readonly ChunkKey Key;
        public readonly Double3 Position;
        public readonly Rotation Rotation;

        public ChunkPlacement(ChunkKey key, Double3 position, Rotation rotation)
        {
            Key = key; Position = position; Rotation = rotation;
        }
    }

    /// <summary>What <see cref="StreamingDriver{TTile, TMesh}"/> asks of an engine: everything
    /// that touches engine objects, and nothing that decides. The Unity components implement
    /// it with Terrains, MeshColliders and Texture2Ds; tests implement it with plain arrays.
    /// Every call comes on the main thread except <see cref="BakeChunkMesh"/>, which comes on a
    /// worker thread.</summary>
    public interface IReliefEngine<TTile, TMesh> where TTile : class where TMesh : class
    {
        /// <summary>A new, hidden terrain tile of <paramref name="resolution"/> samples a
        /// side; called only when the driver's pool of hidden tiles is empty.</summary>
        TTile NewTile(int resolution);
        /// <summary>Moves and sizes a tile and shows it.</summary>
        void ShowTile(TTile tile, TilePlacement placement);
        /// <summary>Writes heights (0…1, <c>[y, x]</c>) at (xBase, yBase) without LOD rebuild
        /// (<c>TerrainData.SetHeightsDelayLOD</c>); the array may be reused after the call.</summary>
        void SetTileHeights(TTile tile, int xBase, int yBase, float[,] heights);
        /// <summary>Writes the hole mask (true = ground) without LOD rebuild.</summary>
        void SetTileHoles(TTile tile, bool[,] surface);
        /// <summary>Writes the splat: <see cref="GroundSplat.Textures"/> RGBA32 control
        /// textures of <see cref="GroundSplat.Resolution"/>² texels, layer 4·t + c in texture
        /// t's channel c, each texel's weights adding up to 255 (<see cref="GroundSplat"/>);
        /// only with <see cref="DriverSettings.GroundLayers"/> set. Unity's terrain keeps its
        /// splat in exactly such textures (<c>TerrainData.GetAlphamapTexture</c>). The arrays
        /// may be reused after the call.</summary>
        void SetTileSplat(TTile tile, byte[][] controlTextures);
        /// <summary>Rebuilds LOD and collision after writes (<c>SyncHeightmap</c>).</summary>
        void SyncTile(TTile tile);
        /// <summary><c>Terrain.SetNeighbors(left −X, top +Z, right +X, bottom −Z)</c>; null
        /// where none is shown.</summary>
        void SetTileNeighbors(TTile tile, TTile left, TTile top, TTile right, TTile bottom);
        /// <summary>Hides a tile; the driver keeps it for reuse.</summary>
        void HideTile(TTile tile);
        /// <summary>Frees a tile for good (when the driver is disposed).</summary>
        void DestroyTile(TTile tile);

        /// <summary>A new, hidden collision mesh; only when the pool is empty.</summary>
        TMesh NewChunkMesh();
        /// <summary>Gives a mesh its vertices (x, y, z floats) and triangles; the arrays may be
        /// reused after the call.</summary>
        void SetChunkMesh(TMesh mesh, float[] vertices, int vertexCount, int[] indices, int indexCount);
        /// <summary>Cooks the mesh's collision data (<c>Physics.BakeMesh</c>). Called on a
        /// worker thread, never twice at once for one mesh.</summary>
        void BakeChunkMesh(TMesh mesh);
        /// <summary>Places a baked mesh and gives it to a collider.</summary>
        void ShowChunk(TMesh mesh, ChunkPlacement placement);
        void HideChunk(TMesh mesh);
        void DestroyChunk(TMesh mesh);

        /// <summary>Uploads far-ground level <paramref name="level"/>'s heights as they are
        /// stored (Size² floats, toroidal) and its window (<see cref="FarLevels.Window"/>).
        /// <paramref name="heights"/> is relief's memory, valid only during the call.</summary>
        void UploadLevel(LevelInfo info, ReadOnlySpan<float> heights);

        /// <summary>The driver's own message: <see cref="LogLevel.Warn"/> when one piece
        /// failed for good, <see cref="LogLevel.Error"/> once when streaming stopped.</summary>
        void Log(LogLevel level, string message);
    }
}
