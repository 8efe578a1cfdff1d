using System;
using System.Runtime.InteropServices;
using System.Text;
using Relief.Native;

namespace Relief
{
    /// <summary>A caller's pack bytes, read from relief's loader threads (several at once):
    /// for packs that can't be opened by path, such as one inside an Android APK.</summary>
    public interface IPackReader
    {
        /// <summary>The pack's length in bytes.</summary>
        long Length { get; }
        /// <summary>Fills <paramref name="destination"/> with the bytes at
        /// <paramref name="offset"/>; false (or an exception) on failure.</summary>
        bool ReadAt(long offset, Span<byte> destination);
    }

    /// <summary>An opened world: a directory or a pack (relief pack), from a path, bytes or a
    /// reader. Runtimes made from it keep what they need, so it may be disposed first.</summary>
    public sealed class World : IDisposable
    {
        internal readonly WorldHandle Handle;
        public readonly WorldInfo Info;

        World(WorldHandle handle)
        {
            Handle = handle;
            var info = new relief_world_info();
            info.struct_size = (uint)Marshal.SizeOf(typeof(relief_world_info));
            ReliefException.Check(NativeMethods.relief_world_get_info(handle, ref info));
            Info = new WorldInfo(info);
        }

        /// <summary>Opens a world directory or pack file by path (desktop; on Android, where
        /// StreamingAssets lie inside the APK, <see cref="OpenFileRange"/>).</summary>
        public static World Open(string path)
        {
            Abi.Require();
            WorldHandle h;
            ReliefException.Check(NativeMethods.relief_world_open(ReliefException.CString(path), out h));
            return new World(h);
        }

        /// <summary>Opens a world pack on a server by http:// or https:// URL (presigned S3 or
        /// GCS URLs as they are): regions are fetched as they stream, one ranged GET each, on
        /// relief's threads, through the disk cache, which also opens the world offline.
        /// Blocks for the opening requests. <paramref name="options"/> null: the defaults.</summary>
        public static World OpenUrl(string url, HttpOptions options = null)
        {
            Abi.Require();
            WorldHandle h;
            using (var pinned = new HttpOptions.Pinned(options))
                ReliefException.Check(NativeMethods.relief_world_open_url(ReliefException.CString(url), ref pinned.Options, out h));
            return new World(h);
        }

        /// <summary>Opens a pack stored as <paramref name="length"/> bytes at
        /// <paramref name="offset"/> of the file at <paramref name="path"/>, read in place:
        /// on Android, a pack kept uncompressed inside the APK (see
        /// <see cref="StreamingAssets"/>, which finds the range). A range past the file's end
        /// is an error.</summary>
        public static World OpenFileRange(string path, long offset, long length)
        {
            Abi.Require();
            FileRange.CheckRange(offset, length);
            WorldHandle h;
            ReliefException.Check(NativeMethods.relief_world_open_file_range(ReliefException.CString(path), (ulong)offset, (ulong)length, out h));
            return new World(h);
        }

        /// <summary>Opens a pack stored as <paramref name="length"/> bytes at
        /// <paramref name="offset"/> of the open file descriptor <paramref name="fd"/>, read in
        /// place: on Android, what <c>AssetManager.openFd</c> gives for a StreamingAssets file
        /// in the base APK or in an install-time asset pack (see
        /// <see cref="StreamingAssets.OpenWorld"/>). relief duplicates the descriptor: close
        /// yours when this returns. Unix only (Android, iOS, Linux, macOS).</summary>
        public static World OpenFd(int fd, long offset, long length)
        {
            Abi.Require();
            FileRange.CheckRange(offset, length);
            WorldHandle h;
            ReliefException.Check(NativeMethods.relief_world_open_fd(fd, (ulong)offset, (ulong)length, out h));
            return new World(h);
        }

        /// <summary>Opens a pack held in memory; relief copies the bytes.</summary>
        public static unsafe World OpenMemory(ReadOnlySpan<byte> pack)
        {
            Abi.Require();
            WorldHandle h;
            fixed (byte* p = &MemoryMarshal.GetReference(pack))
                ReliefException.Check(NativeMethods.relief_world_open_memory(p, (UIntPtr)pack.Length, out h));
            return new World(h);
        }

        /// <summary>Opens a pack through <paramref name="reader"/>, which relief keeps (and
        /// calls from its threads) until the world and everything made from it are gone.</summary>
        public static World OpenReader(IPackReader reader)
        {
            Abi.Require();
            var r = ReaderFor(reader);
            WorldHandle h;
            ReliefException.Check(NativeMethods.relief_world_open_reader(ref r, out h));
            return new World(h);
        }

        /// <summary>A relief_reader over <paramref name="reader"/>: relief owns the GCHandle from
        /// the open call on and frees it through the release callback, even on failure.</summary>
        internal static relief_reader ReaderFor(IPackReader reader)
        {
            if (reader == null)
                throw new ArgumentNullException("reader");
            var r = new relief_reader();
            r.struct_size = (uint)Marshal.SizeOf(typeof(relief_reader));
            r.length = (ulong)reader.Length;
            r.user = GCHandle.ToIntPtr(GCHandle.Alloc(reader));
            r.read_at = Marshal.GetFunctionPointerForDelegate(ReadAtFn);
            r.release = Marshal.GetFunctionPointerForDelegate(ReleaseFn);
            return r;
        }

        // Kept in static fields so the delegates outlive every native call through them.
        static readonly relief_read_fn ReadAtFn = ReadAtCallback;
        static readonly relief_release_fn ReleaseFn = ReleaseCallback;

        [AOT.MonoPInvokeCallback(typeof(relief_read_fn))]
        static unsafe int ReadAtCallback(IntPtr user, ulong offset, ulong length, IntPtr output)
        {
            try
            {
                var reader = (IPackReader)GCHandle.FromIntPtr(user).Target;
                return reader.ReadAt((long)offset, new Span<byte>((void*)output, checked((int)length))) ? 0 : 1;
            }
            catch (Exception)
            {
                return 2; // never let an exception unwind into native code
            }
        }

        [AOT.MonoPInvokeCallback(typeof(relief_release_fn))]
        static void ReleaseCallback(IntPtr user)
        {
            GCHandle.FromIntPtr(user).Free();
        }

        /// <summary>Biome <paramref name="id"/>'s name (on worlds relief baked, <see cref="Biome"/>'s
        /// member in lower case with spaces).</summary>
        public unsafe string BiomeName(int id)
        {
            UIntPtr length;
            ReliefException.Check(NativeMethods.relief_world_get_biome_name(Handle, (uint)id, null, UIntPtr.Zero, out length));
            byte[] name = new byte[(int)length + 1];
            fixed (byte* p = name)
                ReliefException.Check(NativeMethods.relief_world_get_biome_name(Handle, (uint)id, p, (UIntPtr)name.Length, out length));
            return Encoding.UTF8.GetString(name, 0, (int)length);
        }

        public void Dispose() { Handle.Dispose(); }
    }
}
