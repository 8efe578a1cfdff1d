using System;
using System.IO;

namespace Relief
{
    /// <summary>A StreamingAssets file as Android's <c>AssetManager.openFd</c> gives it: an open
    /// file descriptor (of the base APK, or of the split APK of an install-time asset pack), and
    /// where the file's bytes lie in it. Disposing it closes what holds the descriptor open
    /// (the <c>AssetFileDescriptor</c>); relief keeps a duplicate of its own.</summary>
    public sealed class AssetFd : IDisposable
    {
        /// <summary>The descriptor: <c>getParcelFileDescriptor().getFd()</c>.</summary>
        public readonly int Fd;
        /// <summary>Where the file starts in it: <c>getStartOffset()</c>.</summary>
        public readonly long Offset;
        /// <summary>The file's length: <c>getLength()</c>.</summary>
        public readonly long Length;
        readonly IDisposable owner;

        /// <summary><paramref name="owner"/> closes the descriptor when this is disposed (null:
        /// nothing to close).</summary>
        public AssetFd(int fd, long offset, long length, IDisposable owner)
        {
            Fd = fd;
            Offset = offset;
            Length = length;
            this.owner = owner;
        }

        public void Dispose()
        {
            if (owner != null)
                owner.Dispose();
        }
    }

    /// <summary>Android's <c>AssetManager</c>, as far as relief needs it: it finds a
    /// StreamingAssets file wherever Google Play put it — the base APK, or an install-time asset
    /// pack (an AAB built with "Split Application Binary" moves StreamingAssets into one) — where
    /// <c>Application.streamingAssetsPath</c> only ever names the base APK. Relief.Unity
    /// implements it with JNI on Android players; <see cref="StreamingAssets.OpenWorld(IAndroidAssets, string)"/>
    /// uses it.</summary>
    public interface IAndroidAssets
    {
        /// <summary><c>AssetManager.openFd(name)</c>, <paramref name="name"/> relative to the
        /// APK's <c>assets/</c> folder. Throws <see cref="FileNotFoundException"/> carrying
        /// Android's message when there is no such file, or when it is compressed (Android
        /// then says "it is probably compressed").</summary>
        AssetFd OpenFd(string name);
    }
}
