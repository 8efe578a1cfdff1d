using System;

namespace Relief
{
    /// <summary>Opens the world or planet a component names, never throwing: a pack or blob
    /// in StreamingAssets (opened in place on every platform, Android's APK included), or an
    /// http(s) URL. On failure the message says what was looked for and why it failed, ready
    /// for <c>Debug.LogError</c>.</summary>
    public static class Sources
    {
        /// <summary>Opens the world pack <paramref name="name"/>: a path inside
        /// <paramref name="streamingAssetsPath"/> (Unity's Application.streamingAssetsPath) or
        /// an http(s) URL. <paramref name="http"/> is used for URLs (null: the defaults). On an
        /// Android player pass <paramref name="android"/> (the components do): a file in
        /// StreamingAssets is then found through AssetManager.openFd, in the base APK or an
        /// install-time asset pack.</summary>
        public static bool TryOpenWorld(string streamingAssetsPath, string name, out World world, out string error, HttpOptions http = null, IAndroidAssets android = null)
        {
            world = null;
            try
            {
                string url = UrlOf(streamingAssetsPath, name, "world");
                world = url != null ? World.OpenUrl(url, http)
                    : android != null ? StreamingAssets.OpenWorld(android, name)
                    : StreamingAssets.OpenWorld(streamingAssetsPath, name);
                error = null;
                return true;
            }
            catch (Exception e)
            {
                error = Explain("world", name, e);
                return false;
            }
        }

        /// <summary>Opens the planet blob <paramref name="name"/>, as
        /// <see cref="TryOpenWorld"/> opens a world.</summary>
        public static bool TryOpenPlanet(string streamingAssetsPath, string name, out Planet planet, out string error, HttpOptions http = null, IAndroidAssets android = null)
        {
            planet = null;
            try
            {
                string url = UrlOf(streamingAssetsPath, name, "planet");
                planet = url != null ? Planet.OpenUrl(url, http)
                    : android != null ? StreamingAssets.OpenPlanet(android, name)
                    : StreamingAssets.OpenPlanet(streamingAssetsPath, name);
                error = null;
                return true;
            }
            catch (Exception e)
            {
                error = Explain("planet", name, e);
                return false;
            }
        }

        /// <summary>The URL to open, or null for a file: <paramref name="name"/> itself if it
        /// is one, else StreamingAssets' own URL where it has no file path (WebGL).</summary>
        static string UrlOf(string streamingAssetsPath, string name, string what)
        {
            if (string.IsNullOrEmpty(name))
                throw new ArgumentException("no " + what + " named: set the component's file (a name inside StreamingAssets, or an http(s) URL)");
            if (name.StartsWith("http://", StringComparison.OrdinalIgnoreCase) || name.StartsWith("https://", StringComparison.OrdinalIgnoreCase))
                return name;
            if (streamingAssetsPath == null)
                throw new ArgumentNullException("streamingAssetsPath");
            if (!streamingAssetsPath.StartsWith("jar:", StringComparison.Ordinal) && streamingAssetsPath.Contains("://"))
                return streamingAssetsPath.TrimEnd('/') + "/" + name.TrimStart('/');
            return null;
        }

        static string Explain(string what, string name, Exception e)
        {
            // A ReliefException's message starts with the status's name ("CORRUPT: ...").
            string why = e.Message;
            return string.IsNullOrEmpty(name) ? why : string.Format("relief could not open the {0} '{1}': {2}", what, name, why);
        }
    }
}
