// The package's default ground layers as Unity TerrainLayers: made at run time from
// GroundPalette (no texture assets to import), one per texture slot a baked world paints.
using UnityEngine;

namespace Relief.Unity
{
    static class DefaultGroundLayers
    {
        /// <summary>Metres one repeat of a layer's texture covers.</summary>
        const float TileMetres = 4f;

        /// <summary>New layers (and their textures) for the first <paramref name="count"/>
        /// slots; the caller destroys them with <see cref="Destroy"/>.</summary>
        internal static TerrainLayer[] Make(int count)
        {
            var layers = new TerrainLayer[System.Math.Min(count, GroundPalette.Names.Length)];
            var rgba = new byte[GroundPalette.Size * GroundPalette.Size * 4];
            for (int slot = 0; slot < layers.Length; slot++)
            {
                GroundPalette.Fill(slot, rgba);
                var texture = new Texture2D(GroundPalette.Size, GroundPalette.Size, TextureFormat.RGBA32, true);
                texture.name = "relief " + GroundPalette.Names[slot];
                texture.wrapMode = TextureWrapMode.Repeat;
                texture.SetPixelData(rgba, 0);
                texture.Apply(true, true);
                var layer = new TerrainLayer();
                layer.name = texture.name;
                layer.diffuseTexture = texture;
                layer.tileSize = new Vector2(TileMetres, TileMetres);
                layers[slot] = layer;
            }
            return layers;
        }

        internal static void Destroy(TerrainLayer[] layers)
        {
            foreach (TerrainLayer l in layers)
            {
                if (l == null)
                    continue;
                Object.Destroy(l.diffuseTexture);
                Object.Destroy(l);
            }
        }
    }
}
