// Window → Relief: the worlds and planets in StreamingAssets (size, heights, census, a preview
// image), and baking or importing new ones into it. Everything it makes or reads comes from
// relief's own command-line tool (ReliefTool: `relief info`, `preview`, `bake`, `pack`,
// `import`), run as a process so the editor never waits on it and a bake can be cancelled.
using System;
using System.IO;
using UnityEditor;
using UnityEngine;

namespace Relief.Editor
{
    /// <summary>relief's editor window.</summary>
    public sealed class ReliefWindow : EditorWindow
    {
        /// <summary>Where Unity mounts the package (its tool is under <c>Tools~</c>).</summary>
        const string PackageFolder = "Packages/com.relief.terrain";
        const int PreviewPixels = 512;

        string[] entries = new string[0];
        int selected = -1;
        string summary = "", census = "", message = "";
        MessageType messageType = MessageType.None;
        Texture2D preview;
        Vector2 scroll;

        // The tool's run in flight, what it is for, what to do when it succeeds, whether it
        // only reads (a census, a preview: cancelled by choosing another entry) and whether
        // the user cancelled it. Assemblies don't reload while it runs (a reload would kill it).
        ToolRun run;
        string runTitle = "";
        Action<ToolRun> then;
        bool runReads, runCancelled;
        string previewFile;

        // Bake and import settings.
        string seed = "relief";
        int worldMetres = 4096;
        float planetKilometres = 50f;
        int faceResolution = 1024;
        string outName = "world";
        string importFile = "";
        float importMin = 0f, importMax = 1000f, importSpacing = 1f;

        [MenuItem("Window/Relief")]
        static void Open()
        {
            GetWindow<ReliefWindow>("Relief");
        }

        /// <summary>Opens the window on <paramref name="file"/> (a StreamingAssets entry).</summary>
        internal static void OpenOn(string file)
        {
            ReliefWindow w = GetWindow<ReliefWindow>("Relief");
            w.Scan();
            w.Select(Array.IndexOf(w.entries, file));
        }

        void OnEnable()
        {
            Scan();
            EditorApplication.update += Poll;
        }

        void OnDisable()
        {
            EditorApplication.update -= Poll;
            EndRun();
            DropPreview();
        }

        /// <summary>Stops and forgets the run in flight, if any.</summary>
        void EndRun()
        {
            if (run == null)
                return;
            run.Dispose();
            run = null;
            then = null;
            EditorApplication.UnlockReloadAssemblies();
        }

        string Tool()
        {
            string looked;
            string tool = ReliefTool.Find(Path.GetFullPath(PackageFolder), out looked);
            if (tool == null)
                Say(looked, MessageType.Error);
            return tool;
        }

        void Say(string text, MessageType type)
        {
            message = text;
            messageType = type;
            Repaint();
        }

        void Scan()
        {
            entries = Summary.Entries(Application.streamingAssetsPath).ToArray();
        }

        string PathOf(string entry) { return Path.Combine(Application.streamingAssetsPath, entry); }

        /// <summary>Shows entry <paramref name="i"/>: its summary now (through the API), then
        /// its census and preview from the tool.</summary>
        void Select(int i)
        {
            if (run != null && runReads)
                EndRun(); // the last entry's census or preview: no longer wanted
            selected = i;
            summary = census = "";
            DropPreview();
            if (i < 0 || i >= entries.Length)
                return;
            string path = PathOf(entries[i]);
            try
            {
                summary = Summary.Of(path);
            }
            catch (Exception e) // relief's message, or no native library for this editor
            {
                Say(entries[i] + " does not open: " + e.Message, MessageType.Error);
                return;
            }
            Start("Census of " + entries[i], ReliefTool.Info(path), r =>
            {
                if (selected != i)
                    return;
                census = r.Output;
                previewFile = Path.Combine(Path.GetFullPath("Temp"), "relief-preview.png");
                Start("Preview of " + entries[i], ReliefTool.Preview(path, previewFile, PreviewPixels), p =>
                {
                    if (selected == i)
                        LoadPreview();
                }, true);
            }, true);
        }

        void LoadPreview()
        {
            DropPreview();
            preview = new Texture2D(2, 2);
            if (!preview.LoadImage(File.ReadAllBytes(previewFile)))
            {
                DropPreview();
                Say("the preview image did not load", MessageType.Warning);
            }
        }

        void DropPreview()
        {
            if (preview != null)
                DestroyImmediate(preview);
            preview = null;
        }

        /// <summary>Runs the tool with <paramref name="args"/>; <paramref name="done"/> follows
        /// if it succeeds, else its output is shown. <paramref name="reads"/>: it only reads.</summary>
        void Start(string title, string[] args, Action<ToolRun> done, bool reads = false)
        {
            if (run != null)
            {
                Say("wait for " + runTitle + " to finish, or cancel it", MessageType.Warning);
                return;
            }
            string tool = Tool();
            if (tool == null)
                return;
            try
            {
                run = ReliefTool.Start(tool, args);
            }
            catch (Exception e) // the tool could not start (permissions, another platform's binary)
            {
                Say(tool + " could not start: " + e.Message, MessageType.Error);
                return;
            }
            runTitle = title;
            then = done;
            runReads = reads;
            runCancelled = false;
            EditorApplication.LockReloadAssemblies();
            Say(title + "…", MessageType.Info);
        }

        void Poll()
        {
            if (run == null)
                return;
            if (!run.Done)
            {
                Repaint(); // the last line moves
                return;
            }
            ToolRun finished = run;
            Action<ToolRun> next = then;
            run = null;
            then = null;
            EditorApplication.UnlockReloadAssemblies();
            using (finished)
            {
                if (finished.Succeeded)
                {
                    Say(runTitle + ": done", MessageType.Info);
                    next(finished);
                }
                else if (runCancelled)
                    Say(runTitle + " cancelled", MessageType.Warning);
                else
                    Say(runTitle + " failed:\n" + finished.Output, MessageType.Error);
            }
            Repaint();
        }

        /// <summary>Where a new pack or planet goes; null (with a message) if the name is taken.</summary>
        string NewEntry(string extension)
        {
            Directory.CreateDirectory(Application.streamingAssetsPath);
            string name = outName.Trim();
            if (name.Length == 0 || name.IndexOfAny(Path.GetInvalidFileNameChars()) >= 0)
            {
                Say("give the new file a name", MessageType.Warning);
                return null;
            }
            // Lowercase ASCII: Android stores such names uncompressed in the APK.
            string path = PathOf(name.ToLowerInvariant() + extension);
            if (File.Exists(path))
            {
                Say(Path.GetFileName(path) + " exists in StreamingAssets: choose another name", MessageType.Warning);
                return null;
            }
            return path;
        }

        /// <summary>A scratch path under the project's Temp folder for what becomes
        /// <paramref name="final"/>: the tool writes there, and only a finished file moves into
        /// StreamingAssets (a cancelled or failed one never appears there).</summary>
        static string Scratch(string final)
        {
            string dir = Path.Combine(Path.GetFullPath("Temp"), "relief");
            Directory.CreateDirectory(dir);
            string path = Path.Combine(dir, Path.GetFileName(final));
            if (File.Exists(path))
                File.Delete(path);
            if (Directory.Exists(path))
                Directory.Delete(path, true);
            return path;
        }

        /// <summary>Moves a finished <paramref name="scratch"/> file into StreamingAssets as
        /// <paramref name="final"/> and shows it.</summary>
        void Added(string scratch, string final)
        {
            File.Move(scratch, final);
            AssetDatabase.Refresh();
            Scan();
            Select(Array.IndexOf(entries, Path.GetFileName(final)));
        }

        void OnGUI()
        {
            scroll = EditorGUILayout.BeginScrollView(scroll);
            EditorGUILayout.LabelField("StreamingAssets", EditorStyles.boldLabel);
            if (entries.Length == 0)
                EditorGUILayout.HelpBox("No world (.rlpack or a baked folder) or planet (.plnt) in " + Application.streamingAssetsPath + ": bake or import one below.", MessageType.Info);
            else
            {
                int i = EditorGUILayout.Popup("Open", selected, entries);
                if (i != selected)
                    Select(i);
            }
            if (GUILayout.Button("Rescan"))
                Scan();
            if (summary.Length > 0)
                EditorGUILayout.HelpBox(summary, MessageType.None);
            if (preview != null)
            {
                float width = Math.Min(position.width - 20f, preview.width);
                Rect r = GUILayoutUtility.GetRect(width, width * preview.height / preview.width);
                EditorGUI.DrawPreviewTexture(r, preview);
            }
            if (census.Length > 0)
                EditorGUILayout.TextArea(census);

            EditorGUILayout.Space();
            EditorGUILayout.LabelField("Make a new one", EditorStyles.boldLabel);
            outName = EditorGUILayout.TextField("Name in StreamingAssets", outName);
            seed = EditorGUILayout.TextField("Seed", seed);
            worldMetres = EditorGUILayout.IntField("World side (m)", worldMetres);
            if (GUILayout.Button("Bake a flat world"))
                BakeWorld();
            planetKilometres = EditorGUILayout.FloatField("Planet radius (km)", planetKilometres);
            faceResolution = EditorGUILayout.IntField("Samples a cube face side", faceResolution);
            if (GUILayout.Button("Bake a planet"))
            {
                string plnt = NewEntry(".plnt");
                if (plnt != null)
                {
                    string scratch = Scratch(plnt);
                    Start("Baking " + Path.GetFileName(plnt), ReliefTool.BakePlanet(seed, planetKilometres * 1000.0, faceResolution, scratch), r => Added(scratch, plnt));
                }
            }
            importFile = EditorGUILayout.TextField("Heightmap or Terrain3D folder", importFile);
            importMin = EditorGUILayout.FloatField("Heightmap lowest (m)", importMin);
            importMax = EditorGUILayout.FloatField("Heightmap highest (m)", importMax);
            importSpacing = EditorGUILayout.FloatField("Metres between samples", importSpacing);
            if (GUILayout.Button("Choose a heightmap…"))
                importFile = EditorUtility.OpenFilePanel("Heightmap (.r16, .raw, .f32, 16-bit .png)", "", "");
            if (GUILayout.Button("Choose a Terrain3D data folder…"))
                importFile = EditorUtility.OpenFolderPanel("Terrain3D data directory", "", "");
            if (GUILayout.Button("Import"))
                Import();

            EditorGUILayout.Space();
            if (run != null)
            {
                EditorGUILayout.HelpBox(runTitle + "\n" + run.LastLine, MessageType.Info);
                if (GUILayout.Button("Cancel"))
                {
                    runCancelled = true;
                    run.Cancel();
                }
            }
            else if (message.Length > 0)
                EditorGUILayout.HelpBox(message, messageType);
            EditorGUILayout.EndScrollView();
        }

        void BakeWorld()
        {
            string pack = NewEntry(".rlpack");
            if (pack == null)
                return;
            string dir = Scratch(Path.ChangeExtension(pack, null)), scratch = Scratch(pack);
            Start("Baking " + Path.GetFileName(pack), ReliefTool.BakeWorld(seed, worldMetres, dir), r =>
                Start("Packing " + Path.GetFileName(pack), ReliefTool.Pack(dir, scratch), p =>
                {
                    Directory.Delete(dir, true);
                    Added(scratch, pack);
                }));
        }

        void Import()
        {
            string pack = NewEntry(".rlpack");
            if (pack == null)
                return;
            string scratch = Scratch(pack);
            if (Directory.Exists(importFile))
                Start("Importing " + importFile, ReliefTool.ImportTerrain3D(importFile, scratch), r => Added(scratch, pack));
            else if (File.Exists(importFile))
                Start("Importing " + importFile, ReliefTool.ImportHeightmap(importFile, scratch, importMin, importMax, importSpacing), r => Added(scratch, pack));
            else
                Say("choose a heightmap file or a Terrain3D data folder first", MessageType.Warning);
        }
    }

    /// <summary>The streaming components' inspector: their fields, then what their file is.</summary>
    [CustomEditor(typeof(Relief.Unity.ReliefStreaming), true)]
    public sealed class ReliefStreamingEditor : UnityEditor.Editor
    {
        string shownFor, summary;

        public override void OnInspectorGUI()
        {
            DrawDefaultInspector();
            var component = (Relief.Unity.ReliefStreaming)target;
            string file = component.File;
            if (string.IsNullOrEmpty(file) || file.StartsWith("http://") || file.StartsWith("https://"))
                return;
            if (file != shownFor)
            {
                shownFor = file;
                string path = Path.Combine(Application.streamingAssetsPath, file);
                try { summary = Summary.Of(path); }
                catch (Exception e) { summary = file + " does not open: " + e.Message; } // relief's message, or no native library
            }
            EditorGUILayout.HelpBox(summary, MessageType.None);
            if (GUILayout.Button("Open in the Relief window"))
                ReliefWindow.OpenOn(file);
        }
    }
}
