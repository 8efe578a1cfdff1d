using System.Globalization;
using System.Text;

namespace Relief
{
    /// <summary>What the samples print about the ground at the player, engine-free so it is
    /// tested: one line each for ground, river and lake. Invariant culture, so the text reads the
    /// same on every player's machine.</summary>
    public static class Readout
    {
        static readonly CultureInfo Invariant = CultureInfo.InvariantCulture;

        /// <summary>"ground: grassland" (or "ground: not loaded"), then river and lake lines.
        /// <paramref name="biomeName"/> is the world's name for the ground's biome (World.BiomeName),
        /// or null to use the <see cref="Biome"/> enum's.</summary>
        public static string Describe(bool groundFound, Ground ground, string biomeName, bool riverFound, float riverDistance,
            float riverWidth, ReachKind riverKind, bool lakeFound, LakeAt lake)
        {
            var s = new StringBuilder();
            s.Append("ground: ");
            if (!groundFound)
                s.Append("not loaded");
            else if (ground.Hole)
                s.Append("hole");
            else if (ground.HasBiome)
                s.Append(biomeName ?? Name(ground.Biome));
            else
                s.Append("no biome layer");
            s.Append('\n');
            AppendWater(s, riverFound, riverDistance, riverWidth, riverKind, lakeFound, lake);
            return s.ToString();
        }

        /// <summary>A planet's readout: latitude/longitude and height, then the biome, river and
        /// lake lines.</summary>
        public static string DescribePlanet(double latitude, double longitude, float heightAboveSea, bool biomeFound, Biome biome,
            string biomeName, bool riverFound, float riverDistance, float riverWidth, ReachKind riverKind, bool lakeFound, LakeAt lake)
        {
            var s = new StringBuilder();
            s.AppendFormat(Invariant, "{0:0.0000}° {1}, {2:0.0000}° {3}, {4:0} m\n", System.Math.Abs(latitude), latitude < 0 ? "S" : "N",
                System.Math.Abs(longitude), longitude < 0 ? "W" : "E", heightAboveSea);
            s.Append("ground: ").Append(biomeFound ? biomeName ?? Name(biome) : "not loaded").Append('\n');
            AppendWater(s, riverFound, riverDistance, riverWidth, riverKind, lakeFound, lake);
            return s.ToString();
        }

        static void AppendWater(StringBuilder s, bool riverFound, float distance, float width, ReachKind kind, bool lakeFound, LakeAt lake)
        {
            s.Append(riverFound && kind == ReachKind.Creek ? "creek: " : "river: ");
            if (riverFound)
                s.AppendFormat(Invariant, "{0:0} m away, {1:0.0} m wide\n", distance, width);
            else
                s.Append("none near\n");
            s.Append("lake: ");
            if (!lakeFound)
                s.Append("none near");
            else if (lake.Inside)
                s.AppendFormat(Invariant, "in lake {0}, surface at {1:0.0} m", lake.Lake, lake.Level);
            else
                s.AppendFormat(Invariant, "lake {0} {1:0} m away", lake.Lake, lake.Distance);
        }

        /// <summary>A biome's name as the baker writes it: <c>TemperateForest</c> → "temperate forest".</summary>
        public static string Name(Biome biome)
        {
            string n = biome.ToString();
            var s = new StringBuilder(n.Length + 4);
            for (int i = 0; i < n.Length; i++)
            {
                char c = n[i];
                if (char.IsUpper(c) && i > 0)
                    s.Append(' ');
                s.Append(char.ToLowerInvariant(c));
            }
            return s.ToString();
        }
    }
}
