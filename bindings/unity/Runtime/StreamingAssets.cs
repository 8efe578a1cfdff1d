using System;
using System.IO;
using System.Text;

namespace Relief
{
    /// <summary>Where a file's bytes lie: <see cref="Length"/> bytes at <see cref="Offset"/>
    /// of the file at <see cref="Path"/> (the whole file on desktop; an entry's data inside
    /// the APK on Android).</summary>
    public readonly struct FileRange
    {
        public readonly string Path;
        public readonly long Offset;
        public readonly long Length;

        public FileRange(string path, long offset, long length)
        {
            Path = path;
            Offset = offset;
            Length = length;
        }

        public override string ToString() => $"{Path} @ {Offset} + {Length}";

        /// <summary>Throws unless <paramref name="offset"/> and <paramref name="length"/> are
        /// non-negative (what the C ABI's u64 range can hold).</summary>
        internal static void CheckRange(long offset, long length)
        {
            if (offset < 0 || length < 0)
                throw new ArgumentOutOfRangeException(offset < 0 ? nameof(offset) : nameof(length), "must not be negative");
        }
    }

    /// <summary>Why a StreamingAssets file can't be opened in place: missing, compressed in the
    /// APK, or the archive is damaged. The message says what to do.</summary>
    public sealed class StreamingAssetsException : Exception
    {
        public StreamingAssetsException(string message) : base(message) { }
    }

    /// <summary>Opens worlds and planets from StreamingAssets on every platform without copying
    /// them. On desktop and in the editor, StreamingAssets is a folder and a file opens by path.
    /// On Android, <c>Application.streamingAssetsPath</c> is <c>jar:file://&lt;apk&gt;!/assets</c>
    /// and the file is an entry of the APK (a zip): Unity stores StreamingAssets entries
    /// uncompressed, so relief opens the APK by path and reads the entry's bytes where they lie
    /// (<see cref="World.OpenFileRange"/>). Engine-free: pass Unity's
    /// <c>Application.streamingAssetsPath</c>; the components do.</summary>
    public static class StreamingAssets
    {
        const string JarPrefix = "jar:file://";

        /// <summary>Where <paramref name="name"/> (a path relative to StreamingAssets, with
        /// '/' separators) lies, given Unity's <paramref name="streamingAssetsPath"/>. Returns
        /// null when there is no file path at all (WebGL: StreamingAssets is a URL; open it with
        /// <see cref="World.OpenUrl"/> or a web request instead).</summary>
        public static FileRange? Locate(string streamingAssetsPath, string name)
        {
            if (streamingAssetsPath == null) throw new ArgumentNullException(nameof(streamingAssetsPath));
            if (string.IsNullOrEmpty(name)) throw new ArgumentException("name a file inside StreamingAssets", nameof(name));
            name = name.Replace('\\', '/').TrimStart('/');
            if (streamingAssetsPath.StartsWith(JarPrefix, StringComparison.Ordinal))
            {
                int bang = streamingAssetsPath.IndexOf("!/", StringComparison.Ordinal);
                if (bang < 0)
                    throw new StreamingAssetsException($"'{streamingAssetsPath}' names no entry inside an archive (expected jar:file://<apk>!/assets)");
                string apk = streamingAssetsPath.Substring(JarPrefix.Length, bang - JarPrefix.Length);
                string inside = streamingAssetsPath.Substring(bang + 2).TrimEnd('/');
                return FindZipEntry(apk, inside.Length == 0 ? name : inside + "/" + name);
            }
            if (streamingAssetsPath.Contains("://"))
                return null;
            string path = System.IO.Path.Combine(streamingAssetsPath, name);
            if (!File.Exists(path))
                throw new StreamingAssetsException($"StreamingAssets has no '{name}' (looked for {path})");
            return new FileRange(path, 0, new FileInfo(path).Length);
        }

        /// <summary>Opens the world pack <paramref name="name"/> in StreamingAssets in place.</summary>
        public static World OpenWorld(string streamingAssetsPath, string name)
        {
            var range = Locate(streamingAssetsPath, name) ?? throw new StreamingAssetsException(
                $"StreamingAssets is a URL here ('{streamingAssetsPath}'): open '{name}' with World.OpenUrl");
            return World.OpenFileRange(range.Path, range.Offset, range.Length);
        }

        /// <summary>Opens the PLNT blob <paramref name="name"/> in StreamingAssets in place.</summary>
        public static Planet OpenPlanet(string streamingAssetsPath, string name)
        {
            var range = Locate(streamingAssetsPath, name) ?? throw new StreamingAssetsException(
                $"StreamingAssets is a URL here ('{streamingAssetsPath}'): open '{name}' with Planet.OpenUrl");
            return Planet.OpenFileRange(range.Path, range.Offset, range.Length);
        }

        /// <summary>Opens the world pack <paramref name="name"/> in StreamingAssets in place on
        /// an Android player, through <paramref name="assets"/> (<c>AssetManager.openFd</c>):
        /// found in the base APK or in an install-time asset pack alike.</summary>
        public static World OpenWorld(IAndroidAssets assets, string name)
        {
            using (AssetFd a = OpenFd(assets, name))
                return World.OpenFd(a.Fd, a.Offset, a.Length);
        }

        /// <summary>Opens the PLNT blob <paramref name="name"/> in StreamingAssets in place on an
        /// Android player, as <see cref="OpenWorld(IAndroidAssets, string)"/> opens a world.</summary>
        public static Planet OpenPlanet(IAndroidAssets assets, string name)
        {
            using (AssetFd a = OpenFd(assets, name))
                return Planet.OpenFd(a.Fd, a.Offset, a.Length);
        }

        /// <summary><paramref name="assets"/>' descriptor for <paramref name="name"/>, with
        /// Android's refusals turned into messages that say what to do.</summary>
        static AssetFd OpenFd(IAndroidAssets assets, string name)
        {
            if (assets == null) throw new ArgumentNullException(nameof(assets));
            if (string.IsNullOrEmpty(name)) throw new ArgumentException("name a file inside StreamingAssets", nameof(name));
            name = name.Replace('\\', '/').TrimStart('/');
            AssetFd a;
            try
            {
                a = assets.OpenFd(name);
            }
            catch (FileNotFoundException e)
            {
                if (e.Message.IndexOf("compressed", StringComparison.OrdinalIgnoreCase) >= 0)
                    throw new StreamingAssetsException(Compressed(name, "the APK or its asset pack", e.Message));
                throw new StreamingAssetsException(
                    $"'{name}' is in neither the APK nor an install-time asset pack ({e.Message}): is the file in Assets/StreamingAssets, under that name? " +
                    "A fast-follow or on-demand asset pack must be downloaded (Play Asset Delivery) before it can be opened.");
            }
            if (a.Length < 0 || a.Offset < 0)
            {
                a.Dispose();
                throw new StreamingAssetsException($"Android gave '{name}' no byte range (offset {a.Offset}, length {a.Length})");
            }
            return a;
        }

        /// <summary>Why a compressed entry can't be read in place, and how to keep it stored.</summary>
        static string Compressed(string entry, string where, string detail) =>
            $"'{entry}' is compressed inside {where} ({detail}), so relief can't read it in place. " +
            "Unity stores StreamingAssets uncompressed unless a name is mixed-case or non-ASCII (in AAB builds): " +
            "name the file in lowercase ASCII (e.g. island.rlpack), or add its extension to the Gradle template's noCompress list.";

        /// <summary>The data of entry <paramref name="entry"/> of the zip archive (an APK) at
        /// <paramref name="zipPath"/>: its offset — found in the entry's local header, whose
        /// extra field differs from the central directory's — and length. A compressed entry is
        /// refused: relief must read the bytes as they are stored. Zip64 archives are read.</summary>
        public static FileRange FindZipEntry(string zipPath, string entry)
        {
            using (var f = File.OpenRead(zipPath))
            {
                var central = FindCentralDirectory(f, zipPath);
                var want = Encoding.UTF8.GetBytes(entry);
                var head = new byte[46];
                f.Position = central.Offset;
                for (long i = 0; i < central.Entries; i++)
                {
                    ReadExactly(f, head, zipPath);
                    if (U32(head, 0) != 0x02014b50)
                        throw Damaged(zipPath, "a central directory entry has no signature");
                    int method = U16(head, 10);
                    long compressed = U32(head, 20), size = U32(head, 24), local = U32(head, 42);
                    int nameLen = U16(head, 28), extraLen = U16(head, 30), commentLen = U16(head, 32);
                    var name = new byte[nameLen];
                    ReadExactly(f, name, zipPath);
                    var extra = new byte[extraLen];
                    ReadExactly(f, extra, zipPath);
                    f.Position += commentLen;
                    if (!Same(name, want))
                        continue;
                    Zip64(extra, ref size, ref compressed, ref local);
                    if (method != 0)
                        throw new StreamingAssetsException(Compressed(entry, zipPath, $"zip method {method}"));
                    var lh = new byte[30];
                    f.Position = local;
                    ReadExactly(f, lh, zipPath);
                    if (U32(lh, 0) != 0x04034b50)
                        throw Damaged(zipPath, $"'{entry}' has no local header at {local}");
                    long data = local + 30 + U16(lh, 26) + U16(lh, 28);
                    if (data + size > f.Length)
                        throw Damaged(zipPath, $"'{entry}' runs past the end of the archive");
                    return new FileRange(zipPath, data, size);
                }
                throw new StreamingAssetsException($"{zipPath} has no entry '{entry}': is the file in Assets/StreamingAssets, under that name?");
            }
        }

        struct Central { public long Offset; public long Entries; }

        static Central FindCentralDirectory(FileStream f, string path)
        {
            // The end-of-central-directory record: 22 bytes and a comment of up to 64 KiB.
            int tail = (int)Math.Min(f.Length, 22 + 65535);
            var buf = new byte[tail];
            f.Position = f.Length - tail;
            ReadExactly(f, buf, path);
            for (int at = tail - 22; at >= 0; at--)
            {
                if (U32(buf, at) != 0x06054b50)
                    continue;
                long entries = U16(buf, at + 10), offset = U32(buf, at + 16);
                if ((entries == 0xFFFF || offset == 0xFFFFFFFF) && at >= 20 && U32(buf, at - 20) == 0x07064b50)
                {
                    // Zip64: the locator before the record gives the zip64 record's offset.
                    long record = (long)U64(buf, at - 20 + 8);
                    var z = new byte[56];
                    f.Position = record;
                    ReadExactly(f, z, path);
                    if (U32(z, 0) != 0x06064b50)
                        throw Damaged(path, "the zip64 end record has no signature");
                    entries = (long)U64(z, 32);
                    offset = (long)U64(z, 48);
                }
                if (offset < 0 || offset > f.Length)
                    throw Damaged(path, "the central directory lies past the end");
                return new Central { Offset = offset, Entries = entries };
            }
            throw Damaged(path, "no end of central directory (not a zip archive)");
        }

        /// <summary>Sizes and offset saturated at 0xFFFFFFFF come from the zip64 extra field
        /// (id 1), in the order size, compressed size, local header offset.</summary>
        static void Zip64(byte[] extra, ref long size, ref long compressed, ref long local)
        {
            for (int at = 0; at + 4 <= extra.Length;)
            {
                int id = U16(extra, at), len = U16(extra, at + 2);
                int p = at + 4;
                if (id == 1)
                {
                    if (size == 0xFFFFFFFF && p + 8 <= extra.Length) { size = (long)U64(extra, p); p += 8; }
                    if (compressed == 0xFFFFFFFF && p + 8 <= extra.Length) { compressed = (long)U64(extra, p); p += 8; }
                    if (local == 0xFFFFFFFF && p + 8 <= extra.Length) { local = (long)U64(extra, p); }
                    return;
                }
                at = p + len;
            }
        }

        static StreamingAssetsException Damaged(string path, string why) =>
            new StreamingAssetsException($"{path} is not a readable zip archive: {why}");

        static void ReadExactly(Stream s, byte[] buf, string path)
        {
            int done = 0;
            while (done < buf.Length)
            {
                int n = s.Read(buf, done, buf.Length - done);
                if (n == 0) throw Damaged(path, "it ends early");
                done += n;
            }
        }

        static bool Same(byte[] a, byte[] b)
        {
            if (a.Length != b.Length) return false;
            for (int i = 0; i < a.Length; i++) if (a[i] != b[i]) return false;
            return true;
        }

        static int U16(byte[] b, int at) => b[at] | b[at + 1] << 8;
        static long U32(byte[] b, int at) => (uint)(b[at] | b[at + 1] << 8 | b[at + 2] << 16 | b[at + 3] << 24);
        static ulong U64(byte[] b, int at) => (ulong)U32(b, at) | (ulong)U32(b, at + 4) << 32;
    }
}
