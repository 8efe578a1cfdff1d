// Android's AssetManager through Unity's JNI wrappers: how the components find a file in
// StreamingAssets wherever Google Play put it (the base APK, or an install-time asset pack such
// as UnityDataAssetPack), where Application.streamingAssetsPath only names the base APK.
using System;
using System.IO;
using UnityEngine;

namespace Relief.Unity
{
    /// <summary>The app's <c>AssetManager</c> on an Android player (see
    /// <see cref="IAndroidAssets"/>): <see cref="OpenFd"/> is <c>AssetManager.openFd</c>, and
    /// relief reads the file through the descriptor it gives, in place. Take it from
    /// <see cref="Current"/> on the main thread and call <see cref="OpenFd"/> there, or on a
    /// thread of your own attached to the Java VM (<c>AndroidJNI.AttachCurrentThread</c>: Unity
    /// attaches only its own threads), as the components' openings do.</summary>
    public sealed class AndroidAssetManager : IAndroidAssets
    {
        /// <summary>The app's AssetManager on an Android player; null everywhere else, the
        /// editor included (StreamingAssets is a folder there). Read it on the main thread: the
        /// first read looks the AssetManager up through the activity, which only the main
        /// thread's class loader finds; <see cref="OpenFd"/> may then run on any thread
        /// attached to the Java VM.</summary>
        public static IAndroidAssets Current
        {
            get
            {
#if UNITY_ANDROID && !UNITY_EDITOR
                Instance.Prepare();
                return Instance;
#else
                return null;
#endif
            }
        }

        /// <summary>The app's <c>Context.getNoBackupFilesDir()</c> on an Android player: a
        /// folder of the app's private storage that no backup includes (Auto Backup is on by
        /// default and gives up on an app past 25 MB) and no cache sweep empties; null
        /// elsewhere, or if it cannot be reached. Call it on the main thread.</summary>
        public static string NoBackupFolder()
        {
#if UNITY_ANDROID && !UNITY_EDITOR
            try
            {
                using (var player = new AndroidJavaClass("com.unity3d.player.UnityPlayer"))
                using (var activity = player.GetStatic<AndroidJavaObject>("currentActivity"))
                using (var dir = activity.Call<AndroidJavaObject>("getNoBackupFilesDir"))
                    return dir.Call<string>("getAbsolutePath");
            }
            catch (Exception)
            {
                return null; // the caller falls back to persistentDataPath
            }
#else
            return null;
#endif
        }

        /// <summary>Runs <paramref name="work"/> on this thread attached to the Java VM on an
        /// Android player (JNI calls need it; Unity attaches only its own threads), detached
        /// again after; elsewhere just runs it. For a thread of the package's own (an
        /// opening's), never Unity's or a pool's, which detaching would cut off.</summary>
        internal static T Attached<T>(Func<T> work)
        {
#if UNITY_ANDROID && !UNITY_EDITOR
            AndroidJNI.AttachCurrentThread();
            try
            {
                return work();
            }
            finally
            {
                AndroidJNI.DetachCurrentThread();
            }
#else
            return work();
#endif
        }

#if UNITY_ANDROID && !UNITY_EDITOR
        static readonly AndroidAssetManager Instance = new AndroidAssetManager();
        AndroidJavaObject assets;
        string lookupFailure;

        AndroidAssetManager() { }

        /// <summary>Looks the AssetManager up on the main thread (again after a failure,
        /// which <see cref="OpenFd"/> then throws, on the caller's error path).</summary>
        void Prepare()
        {
            if (assets != null)
                return;
            lookupFailure = null;
            try
            {
                using (var player = new AndroidJavaClass("com.unity3d.player.UnityPlayer"))
                using (var activity = player.GetStatic<AndroidJavaObject>("currentActivity"))
                    assets = activity.Call<AndroidJavaObject>("getAssets");
            }
            catch (Exception e)
            {
                lookupFailure = "Android's AssetManager could not be reached: " + e.Message;
            }
        }

        /// <summary><c>AssetManager.openFd(name)</c>; a missing or compressed file is a
        /// <see cref="FileNotFoundException"/> with Android's message.</summary>
        public AssetFd OpenFd(string name)
        {
            if (assets == null)
                throw new InvalidOperationException(lookupFailure ?? "AndroidAssetManager.Current was not read on the main thread first");
            AndroidJavaObject afd;
            try
            {
                afd = assets.Call<AndroidJavaObject>("openFd", name);
            }
            catch (AndroidJavaException e)
            {
                // "java.io.FileNotFoundException: <name>", or "...: This file can not be opened
                // as a file descriptor; it is probably compressed".
                if (e.Message != null && e.Message.StartsWith("java.io.FileNotFoundException", StringComparison.Ordinal))
                    throw new FileNotFoundException(e.Message);
                throw;
            }
            var owner = new Closing(afd);
            try
            {
                int fd;
                using (var pfd = afd.Call<AndroidJavaObject>("getParcelFileDescriptor"))
                    fd = pfd.Call<int>("getFd");
                return new AssetFd(fd, afd.Call<long>("getStartOffset"), afd.Call<long>("getLength"), owner);
            }
            catch
            {
                owner.Dispose();
                throw;
            }
        }

        /// <summary>Closes the AssetFileDescriptor (and with it the descriptor it owns: relief
        /// reads through its own duplicate) and lets go of the Java object.</summary>
        sealed class Closing : IDisposable
        {
            readonly AndroidJavaObject afd;
            public Closing(AndroidJavaObject afd) { this.afd = afd; }
            public void Dispose()
            {
                try { afd.Call("close"); }
                finally { afd.Dispose(); }
            }
        }
#else
        AndroidAssetManager() { }

        /// <summary>Off Android players there is no AssetManager: always throws.</summary>
        public AssetFd OpenFd(string name)
        {
            throw new PlatformNotSupportedException("AssetManager.openFd exists on Android players only");
        }
#endif
    }
}
