using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;

namespace Relief
{
    /// <summary>What an editor shows of the worlds and planets a project ships: which entries
    /// of StreamingAssets relief can open, and a few lines about one (its size, heights, water,
    /// biomes), read through the same API the game uses.</summary>
    public static class Summary
    {
        /// <summary>Whether <paramref name="path"/> names a planet (<c>.plnt</c>); anything
        /// else is opened as a world (a pack, or a baked directory).</summary>
        public static bool IsPlanet(string path)
        {
            return path.EndsWith(".plnt", StringComparison.OrdinalIgnoreCase);
        }

        /// <summary>The entries under <paramref name="folder"/> relief opens, relative to it with
        /// '/' between folders, sorted: <c>*.rlpack</c> and <c>*.plnt</c> files, and world
        /// directories (holding <c>world.json</c>, not looked into further). None if the folder
        /// does not exist.</summary>
        public static List<string> Entries(string folder)
        {
            var found = new List<string>();
            if (Directory.Exists(folder))
                Walk(folder, "", found);
            found.Sort(StringComparer.Ordinal);
            return found;
        }

        static void Walk(string dir, string prefix, List<string> found)
        {
            foreach (string f in Directory.GetFiles(dir))
            {
                string name = Path.GetFileName(f);
                if (name.EndsWith(".rlpack", StringComparison.OrdinalIgnoreCase) || IsPlanet(name))
                    found.Add(prefix + name);
            }
            foreach (string d in Directory.GetDirectories(dir))
            {
                string name = Path.GetFileName(d);
                if (File.Exists(Path.Combine(d, "world.json")))
                    found.Add(prefix + name);
                else
                    Walk(d, prefix + name + "/", found);
            }
        }

        /// <summary>A few lines about the world or planet at <paramref name="path"/>; relief's
        /// message (a <see cref="ReliefException"/>) if it does not open.</summary>
        public static string Of(string path)
        {
            var c = CultureInfo.InvariantCulture;
            if (IsPlanet(path))
                using (Planet p = Planet.Open(path))
                {
                    PlanetInfo i = p.Info;
                    return string.Format(c,
                        "planet, radius {0:0.0} km\n6 faces of {1}² samples ({2:0.0} m apart), tiles of {3}²\nheights {4:0.0} … {5:0.0} m, sea level {6:0.0} m\n{7} river reaches, {8} lakes, {9} biomes",
                        i.Radius / 1000, i.FaceResolution, i.Spacing, i.TileSize, i.HeightMin, i.HeightMax, i.SeaLevel, i.ReachCount, i.LakeCount, i.BiomeCount);
                }
            using (World w = World.Open(path))
            {
                WorldInfo i = w.Info;
                int across = i.RegionMaxX - i.RegionMinX + 1, down = i.RegionMaxZ - i.RegionMinZ + 1;
                return string.Format(c,
                    "flat world, {0:0.00} × {1:0.00} km\n{2} regions of {3}² samples ({4} m apart)\nheights {5:0.0} … {6:0.0} m, {7}\n{8} river reaches, {9} lakes, {10} biomes",
                    across * i.RegionExtent / 1000, down * i.RegionExtent / 1000, i.RegionCount, i.RegionSize, i.VertexSpacing,
                    i.HeightMin, i.HeightMax,
                    // NaN: a world imported without a sea.
                    float.IsNaN(i.SeaLevel) ? "no sea" : string.Format(c, "sea level {0:0.0} m", i.SeaLevel),
                    i.ReachCount, i.LakeCount, i.BiomeCount);
            }
        }
    }
}
