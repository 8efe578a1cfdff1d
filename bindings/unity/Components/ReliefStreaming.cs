// What ReliefTerrain and ReliefPlanet share: open the source off the main thread when enabled,
// drive the runtime once a frame within a main-thread budget (the first loads included: no
// frame ever waits for them), keep a floating origin, and stop cleanly — one Debug.LogError
// with relief's message, never an exception every frame.
using System;
using System.IO;
using UnityEngine;

namespace Relief.Unity
{
    /// <summary>A component streaming relief ground around a focus. Keep its GameObject
    /// unrotated and unscaled: Unity terrains cannot rotate, and relief's frame is the
    /// component's local space shifted by <see cref="Origin"/>. Enabling starts opening the
    /// source on a thread of its own (a URL's requests included); the ground then loads over
    /// the following frames, <see cref="LoadingProgress"/> rising to 1, and
    /// <see cref="Ready"/> is raised when all the ground around the focus is shown: hold the
    /// player until then (a loading screen). A failure to open (missing or compressed
    /// StreamingAssets entry, corrupt file, unreachable server) logs relief's message once,
    /// raises <see cref="Failed"/> and disables the component. A failure while streaming, or a
    /// destroyed focus, logs once, raises <see cref="Failed"/> and stops streaming: what was
    /// shown stays until the component is disabled, which frees everything it made.</summary>
    [DisallowMultipleComponent]
    public abstract class ReliefStreaming : MonoBehaviour
    {
        [Header("Source")]
        [Tooltip("A file inside StreamingAssets (keep the name lowercase ASCII so Android stores it uncompressed in the APK), or an http(s) URL.")]
        [SerializeField] string file = "";

        [Header("Streaming")]
        [Tooltip("What the ground streams around: the player. Required.")]
        [SerializeField] Transform focus;
        [Tooltip("What the far ground follows; empty: Camera.main, else the focus.")]
        [SerializeField] Camera viewCamera;
        [Tooltip("Metres around the focus kept loaded; 0: relief's default.")]
        [SerializeField] float loadRadius;
        [Tooltip("Metres around the focus that get collision (planets: mesh colliders); 0: relief's default.")]
        [SerializeField] float collisionRadius;
        [Tooltip("The most memory loaded pieces may take, MiB; 0: relief's default.")]
        [SerializeField] int budgetMegabytes;
        [Tooltip("Milliseconds a frame may spend turning finished work into terrains and colliders.")]
        [SerializeField, Range(0.25f, 16f)] float mainThreadBudgetMs = 2f;

        [Header("Drawing")]
        [Tooltip("Draw the far ground (relief's levels) with this material; its shader must be Relief/FarGround. Empty: no far ground.")]
        [SerializeField] Material farGroundMaterial;

        [Header("Floating origin")]
        [Tooltip("When the focus gets this far (m) from the component's origin, everything shifts back by the focus's offset; 0: never.")]
        [SerializeField] float recentreDistance = 2048f;

        StreamingDriver<TerrainTile, ColliderChunk> driver;
        UnityEngineBridge bridge;
        Opening<IDisposable> opening;
        DriverSettings settings;
        bool ready;

        /// <summary>The relief position at the component's local (0, 0, 0).</summary>
        public Double3 Origin { get; private set; }

        /// <summary>Raised after the floating origin moved by <c>delta</c> (relief metres,
        /// which the focus and every streamed piece moved by −delta in Unity space): move your
        /// own world-placed objects by −delta too.</summary>
        public event Action<Vector3> OriginShifted;

        /// <summary>The streamed file: set it before enabling the component.</summary>
        public string File { get { return file; } set { file = value; } }
        public Transform Focus { get { return focus; } set { focus = value; } }
        public Camera ViewCamera { get { return viewCamera; } set { viewCamera = value; } }

        /// <summary>Whether the component is streaming (enabled, opened, not stopped).</summary>
        public bool IsStreaming { get { return driver != null && driver.State == DriverState.Running; } }
        /// <summary>Whether the source is still being opened (on its own thread).</summary>
        public bool IsOpening { get { return opening != null; } }
        /// <summary>How much of the ground around the focus is loaded and shown, 0 to 1, for a
        /// loading screen: 0 while opening; it falls below 1 again when the focus outruns the
        /// loads.</summary>
        public float LoadingProgress { get { return driver != null ? driver.Progress : 0f; } }
        /// <summary>Whether <see cref="Ready"/> has been raised since the component was enabled.</summary>
        public bool IsReady { get { return ready; } }
        /// <summary>Raised once per enabling, on the main thread, when all the ground the focus
        /// wants is first loaded and shown (collision included): let the player move.</summary>
        public event Action Ready;
        /// <summary>Raised on the main thread when opening fails or streaming stops, with
        /// relief's message (also in <see cref="StopReason"/> and the console).</summary>
        public event Action<string> Failed;
        /// <summary>Why streaming stopped or never started, or null.</summary>
        public string StopReason { get; private set; }
        /// <summary>Counts and the driver's own main-thread cost.</summary>
        public DriverStats Stats { get { return driver != null ? driver.Stats : new DriverStats(); } }

        internal StreamingDriver<TerrainTile, ColliderChunk> Driver { get { return driver; } }

        /// <summary>Opens the source (a World or a Planet), on the opening's own thread: throws
        /// with relief's message on failure.</summary>
        internal abstract IDisposable OpenSource(string streamingAssetsPath, string name, HttpOptions http, IAndroidAssets android);
        /// <summary>Makes the driver for what <see cref="OpenSource"/> opened (now the
        /// subclass's, freed in <see cref="Closed"/>), on the main thread. (Not "Start": Unity
        /// calls a MonoBehaviour's Start by name, and refuses one with parameters.)</summary>
        internal abstract StreamingDriver<TerrainTile, ColliderChunk> MakeDriver(IDisposable source, UnityEngineBridge bridge, DriverSettings settings);
        /// <summary>The far ground's plane radius: the planet's, or 0 on a flat world.</summary>
        internal abstract double PlanetRadius { get; }
        /// <summary>Where <see cref="Origin"/> starts, once the source is open.</summary>
        internal abstract Double3 StartOrigin();
        /// <summary>Frees what the subclass opened.</summary>
        internal abstract void Closed();
        /// <summary>Metres the far ground sits below the ground (under terrain tiles).</summary>
        internal virtual float FarGroundSink { get { return 0f; } }
        /// <summary>The material flat-world terrain tiles draw with (null: Unity's default).</summary>
        internal virtual Material TerrainMaterial { get { return null; } }
        /// <summary>The layers terrain tiles carry; null: no splat.</summary>
        internal virtual TerrainLayer[] GroundLayers { get { return null; } }

        protected virtual void OnEnable()
        {
            StopReason = null;
            ready = false;
            Origin = new Double3(0, 0, 0);
            if (focus == null)
            {
                Fail("no focus Transform set: drag the player into the component's Focus field");
                return;
            }
            settings = new DriverSettings
            {
                LoadRadius = loadRadius,
                CollisionRadius = collisionRadius,
                BudgetBytes = (ulong)Math.Max(budgetMegabytes, 0) << 20,
                MainThreadBudgetMs = mainThreadBudgetMs,
                FarGround = farGroundMaterial != null,
                // relief places things only for a ReliefThings to draw (its config is fixed
                // when the runtime is made, so the component must be there now).
                Things = GetComponent<ReliefThings>() != null,
            };
            try
            {
                // Everything Unity's API gives is read here, on the main thread; the opening's
                // thread touches relief only (and Java, attached, on Android).
                string streamingAssets = Application.streamingAssetsPath, name = file;
                var http = new HttpOptions { CacheDirectory = HttpCacheFolder() };
                IAndroidAssets android = AndroidAssetManager.Current;
                opening = new Opening<IDisposable>(() => AndroidAssetManager.Attached(
                    () => OpenSource(streamingAssets, name, http, android)));
            }
            catch (Exception e) // the library missing, or refusing this platform: its message, once
            {
                Fail(e.Message);
            }
        }

        /// <summary>Where a URL's verified pieces are kept: the app's persistent storage, so a
        /// multi-GB download outlives restarts and the system's cache sweeps, and never in a
        /// backup (the stores require that of data that can be fetched again):
        /// persistentDataPath, flagged never backed up on iOS; on Android the no-backup folder
        /// beside it (Auto Backup, on by default, would take persistentDataPath).</summary>
        static string HttpCacheFolder()
        {
            string root = AndroidAssetManager.NoBackupFolder() ?? Application.persistentDataPath;
            string dir = Path.Combine(root, "relief-cache");
#if UNITY_IOS && !UNITY_EDITOR
            Directory.CreateDirectory(dir);
            UnityEngine.iOS.Device.SetNoBackupFlag(dir);
#endif
            return dir;
        }

        /// <summary>Logs why, once; raises <see cref="Failed"/>; frees everything; disables.</summary>
        void Fail(string why)
        {
            StopReason = why;
            Debug.LogError("relief: " + why, this);
            Close();
            enabled = false;
            if (Failed != null)
                Failed(why);
        }

        /// <summary>Takes the opened source once the opening is over; false until then (or on
        /// failure, which disables the component).</summary>
        bool Opened()
        {
            IDisposable source;
            string error;
            if (!opening.Poll(out source, out error))
                return false;
            opening.Dispose();
            opening = null;
            if (source == null)
            {
                Fail(error);
                return false;
            }
            try
            {
                driver = MakeDriver(source, bridge = new UnityEngineBridge(this, TerrainMaterial, GroundLayers), settings);
                if (farGroundMaterial != null)
                    bridge.Far = new FarGroundMesh(transform, farGroundMaterial, RuntimeConfig.Default(), PlanetRadius, FarGroundSink);
                Origin = StartOrigin();
                return true;
            }
            catch (Exception e) // a bad config: relief's message, once
            {
                Fail(e.Message);
                return false;
            }
        }

        protected virtual void Update()
        {
            if (opening != null && !Opened())
                return;
            if (driver == null || driver.State != DriverState.Running)
                return; // stopped: what was shown stays until the component is disabled
            if (focus == null)
            {
                // Destroyed while streaming: stop once (logged by the driver), keep what is shown.
                driver.Stop("the focus Transform was destroyed");
                Stopped();
                return;
            }
            Recentre();
            if (driver == null)
                return; // an OriginShifted handler disabled the component
            Double3 at = FocusPosition();
            Camera cam = viewCamera != null ? viewCamera : Camera.main;
            Double3 eye = cam != null ? ToRelief(cam.transform.position) : at;
            if (!driver.Frame(at, eye))
            {
                Stopped(); // the driver logged it
                return;
            }
            if (bridge.Far != null)
                bridge.Far.Follow(eye, Origin);
            if (!ready && driver.Progress >= 1f)
            {
                ready = true;
                if (Ready != null)
                    Ready();
            }
        }

        void Stopped()
        {
            StopReason = driver.StopReason;
            if (Failed != null)
                Failed(StopReason);
        }

        void Recentre()
        {
            if (recentreDistance <= 0)
                return;
            Vector3 local = transform.InverseTransformPoint(focus.position);
            if (local.magnitude < recentreDistance)
                return;
            // Whole metres, so positions shift by exactly representable amounts.
            var delta = new Double3(Math.Round(local.x), Math.Round(local.y), Math.Round(local.z));
            Origin = Origin + delta;
            Vector3 d = Conversions.ToVector3(delta);
            bridge.Replace(Origin);
            MoveFocus(transform.TransformPoint(local - d));
            if (OriginShifted != null)
                OriginShifted(d);
        }

        /// <summary>Puts the focus at a Unity world position: its transform, a Rigidbody's
        /// position too (else an interpolated one lerps back and the next step undoes the
        /// move), then the physics scene synced, so that colliders — a CharacterController's
        /// next Move included — meet the ground where it is drawn this frame, not at the
        /// next simulation step.</summary>
        internal void MoveFocus(Vector3 position)
        {
            focus.position = position;
            var body = focus.GetComponent<Rigidbody>();
            if (body != null)
                body.position = position;
            Physics.SyncTransforms();
        }

        Double3 FocusPosition() { return ToRelief(focus.position); }

        /// <summary>A Unity world position in relief's frame (world or planet metres).</summary>
        public Double3 ToRelief(Vector3 position)
        {
            return Conversions.ToRelief(transform.InverseTransformPoint(position), Origin);
        }

        /// <summary>A relief position as a Unity world position.</summary>
        public Vector3 ToUnity(Double3 position)
        {
            return transform.TransformPoint(Conversions.ToLocal(position, Origin));
        }

        protected virtual void OnDisable() { Close(); }

        void Close()
        {
            if (opening != null)
                opening.Dispose(); // what it opens later is freed on its thread
            opening = null;
            if (driver != null)
                driver.Dispose(); // destroys every tile and collider it made
            driver = null;
            if (bridge != null && bridge.Far != null)
                bridge.Far.Destroy();
            bridge = null;
            Closed();
        }
    }
}
