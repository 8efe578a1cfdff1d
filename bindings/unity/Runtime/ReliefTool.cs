using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Text;

namespace Relief
{
    /// <summary>relief's command-line tool (<c>relief</c>), run from .NET: the same code the
    /// CLI runs, for an editor or a build script (bake, import, pack, census, preview). It is
    /// never needed at run time, and players on mobile platforms cannot start processes.
    /// The package's tarball carries the host's tool in <c>Tools~/&lt;platform&gt;/</c>
    /// (Unity imports nothing from a folder ending in ~).</summary>
    public static class ReliefTool
    {
        /// <summary>An environment variable naming the tool, tried first.</summary>
        public const string Variable = "RELIEF_TOOL";

        /// <summary>The tool's file name on this machine.</summary>
        public static string FileName
        {
            get { return Environment.OSVersion.Platform == PlatformID.Win32NT ? "relief.exe" : "relief"; }
        }

        /// <summary>The folder under <c>Tools~</c> for this machine.</summary>
        public static string Platform
        {
            get
            {
                switch (Environment.OSVersion.Platform)
                {
                    case PlatformID.Win32NT: return "windows-x86_64";
                    case PlatformID.MacOSX: return "macos";
                }
                // Mono reports macOS as Unix: its kernel names it.
                return Directory.Exists("/System/Library/CoreServices") ? "macos" : "linux-x86_64";
            }
        }

        /// <summary>Where the tool is: <see cref="Variable"/>, else
        /// <c>&lt;packageRoot&gt;/Tools~/&lt;platform&gt;/relief</c>, else the first on PATH;
        /// null if none is, with <paramref name="looked"/> saying where it looked.</summary>
        public static string Find(string packageRoot, out string looked)
        {
            var places = new List<string>();
            string named = Environment.GetEnvironmentVariable(Variable);
            if (!string.IsNullOrEmpty(named))
                places.Add(named);
            if (!string.IsNullOrEmpty(packageRoot))
                places.Add(Path.Combine(Path.Combine(Path.Combine(packageRoot, "Tools~"), Platform), FileName));
            string path = Environment.GetEnvironmentVariable("PATH") ?? "";
            foreach (string dir in path.Split(Path.PathSeparator))
                if (dir.Length > 0)
                    places.Add(Path.Combine(dir, FileName));
            foreach (string p in places)
                if (File.Exists(p))
                {
                    looked = null;
                    return p;
                }
            looked = "relief's tool is not in $" + Variable + ", " + (string.IsNullOrEmpty(packageRoot) ? "" : Path.Combine(packageRoot, "Tools~") + ", ")
                + "or on PATH: build the package with bindings/unity-package (it carries the host's tool), or set " + Variable;
            return null;
        }

        /// <summary>One argument quoted for the command line the process is started with:
        /// Windows' rules on Windows; the shell's elsewhere, as the Mono that Unity's Linux and
        /// macOS editors run splits it (with <c>g_shell_parse_argv</c>). (.NET on Linux or
        /// macOS splits by Windows' rules instead: there a '$', '`' or '\' in an argument
        /// would arrive escaped.)</summary>
        public static string Quote(string arg)
        {
            return Environment.OSVersion.Platform == PlatformID.Win32NT ? QuoteForWindows(arg) : QuoteForShell(arg);
        }

        /// <summary>Windows' rules: plain when it has no space, tab or quote; else in quotes,
        /// each quote and the backslashes before a quote doubled.</summary>
        public static string QuoteForWindows(string arg)
        {
            if (arg == null)
                throw new ArgumentNullException("arg");
            if (arg.Length > 0 && arg.IndexOfAny(new[] { ' ', '\t', '\n', '"' }) < 0)
                return arg;
            var b = new StringBuilder("\"");
            int slashes = 0;
            foreach (char c in arg)
            {
                if (c == '\\')
                {
                    slashes++;
                    continue;
                }
                b.Append('\\', c == '"' ? 2 * slashes + 1 : slashes);
                slashes = 0;
                b.Append(c);
            }
            b.Append('\\', 2 * slashes);
            return b.Append('"').ToString();
        }

        /// <summary>The shell's rules: always in double quotes, with the four characters
        /// special there (backslash, quote, dollar, backtick) escaped.</summary>
        public static string QuoteForShell(string arg)
        {
            if (arg == null)
                throw new ArgumentNullException("arg");
            var b = new StringBuilder("\"");
            foreach (char c in arg)
            {
                if (c == '\\' || c == '"' || c == '$' || c == '`')
                    b.Append('\\');
                b.Append(c);
            }
            return b.Append('"').ToString();
        }

        /// <summary>Starts <paramref name="tool"/> with <paramref name="args"/>; poll the run.</summary>
        public static ToolRun Start(string tool, params string[] args)
        {
            if (tool == null) throw new ArgumentNullException("tool");
            if (args == null) throw new ArgumentNullException("args");
            var parts = new string[args.Length];
            for (int i = 0; i < args.Length; i++)
                parts[i] = Quote(args[i]);
            return new ToolRun(tool, string.Join(" ", parts));
        }

        /// <summary><c>relief info</c>: a world's or planet's census.</summary>
        public static string[] Info(string world) { return new[] { "info", world }; }

        /// <summary><c>relief preview</c>: a PNG of the world (hillshade, ground classes,
        /// rivers, lakes, a legend), <paramref name="pixels"/> a side (a planet's twice as wide).</summary>
        public static string[] Preview(string world, string png, int pixels)
        {
            return new[] { "preview", world, "--out", png, "--pixels", pixels.ToString() };
        }

        /// <summary><c>relief bake</c>: a flat world of <paramref name="sizeMetres"/> a side
        /// into the directory <paramref name="outDir"/>, stored compact (what to ship).</summary>
        public static string[] BakeWorld(string seed, int sizeMetres, string outDir)
        {
            return new[] { "bake", "--seed", seed, "--size", sizeMetres.ToString(), "--codecs", "compact", "--out", outDir };
        }

        /// <summary><c>relief pack</c>: a world directory as one pack file (what StreamingAssets takes).</summary>
        public static string[] Pack(string worldDir, string pack) { return new[] { "pack", worldDir, pack }; }

        /// <summary><c>relief bake --planet</c>: a PLNT planet of <paramref name="radiusMetres"/>
        /// with <paramref name="faceResolution"/> samples a cube-face side.</summary>
        public static string[] BakePlanet(string seed, double radiusMetres, int faceResolution, string plnt)
        {
            return new[]
            {
                "bake", "--planet", "--seed", seed, "--radius", radiusMetres.ToString(System.Globalization.CultureInfo.InvariantCulture),
                "--face-resolution", faceResolution.ToString(), "--out", plnt,
            };
        }

        /// <summary><c>relief import heightmap</c>: a heightmap file (.r16/.raw, .f32, 16-bit
        /// PNG) as a pack, its full range mapped onto [<paramref name="min"/>,
        /// <paramref name="max"/>] metres, <paramref name="spacing"/> metres between samples.</summary>
        public static string[] ImportHeightmap(string file, string pack, float min, float max, double spacing)
        {
            var c = System.Globalization.CultureInfo.InvariantCulture;
            return new[]
            {
                "import", "heightmap", file, "--pack", pack,
                "--height-range", min.ToString("R", c) + "," + max.ToString("R", c), "--spacing", spacing.ToString("R", c),
            };
        }

        /// <summary><c>relief import terrain3d</c>: a Terrain3D data directory as a pack.</summary>
        public static string[] ImportTerrain3D(string dataDir, string pack)
        {
            return new[] { "import", "terrain3d", dataDir, "--pack", pack };
        }
    }

    /// <summary>A running <see cref="ReliefTool"/> command: poll <see cref="Done"/> (from an
    /// editor's update, say), read what it printed, or <see cref="Cancel"/> it.</summary>
    public sealed class ToolRun : IDisposable
    {
        readonly Process process;
        readonly StringBuilder output = new StringBuilder();
        string lastLine = "";
        int exit = -1;
        /// <summary>Streams at their end (stdout, stderr): all it printed has been read.</summary>
        int ended;
        bool done, cancelled;

        internal ToolRun(string tool, string arguments)
        {
            var info = new ProcessStartInfo(tool, arguments)
            {
                UseShellExecute = false,
                CreateNoWindow = true,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                // relief prints UTF-8 ("…", "²") whatever the locale says.
                StandardOutputEncoding = Encoding.UTF8,
                StandardErrorEncoding = Encoding.UTF8,
            };
            process = new Process { StartInfo = info };
            process.OutputDataReceived += (s, e) => Take(e.Data);
            process.ErrorDataReceived += (s, e) => Take(e.Data);
            Command = tool + " " + arguments;
            try
            {
                process.Start(); // Win32Exception if the tool cannot start
            }
            catch
            {
                process.Dispose();
                throw;
            }
            process.BeginOutputReadLine();
            process.BeginErrorReadLine();
        }

        /// <summary>What ran, as one line.</summary>
        public readonly string Command;

        void Take(string line)
        {
            if (line == null)
            {
                lock (output)
                    ended++;
                return;
            }
            lock (output)
            {
                output.AppendLine(line);
                if (line.Trim().Length > 0)
                    lastLine = line;
            }
        }

        /// <summary>Whether the tool has exited and everything it printed is in
        /// <see cref="Output"/>. Polled, never waited on: Mono's WaitForExit races its own
        /// stream readers.</summary>
        public bool Done
        {
            get
            {
                lock (output)
                {
                    if (!done && ended == 2 && process.HasExited)
                    {
                        exit = process.ExitCode;
                        done = true;
                    }
                    return done;
                }
            }
        }

        /// <summary>True once it exited with status 0.</summary>
        public bool Succeeded
        {
            get
            {
                if (!Done)
                    return false;
                lock (output)
                    return exit == 0 && !cancelled;
            }
        }

        /// <summary>Its exit status; −1 while running.</summary>
        public int ExitCode { get { return Done ? exit : -1; } }

        /// <summary>Everything it printed so far, stdout and stderr interleaved as they came.</summary>
        public string Output { get { lock (output) return output.ToString(); } }

        /// <summary>The last non-empty line it printed: a progress line for a status bar.</summary>
        public string LastLine { get { lock (output) return lastLine; } }

        /// <summary>Blocks until it exits or <paramref name="timeoutMs"/> pass; whether it exited.</summary>
        public bool Wait(int timeoutMs)
        {
            var clock = Stopwatch.StartNew();
            while (!Done)
            {
                if (clock.ElapsedMilliseconds > timeoutMs)
                    return false;
                System.Threading.Thread.Sleep(5);
            }
            return true;
        }

        /// <summary>Stops it (a half-written output is the caller's to remove).</summary>
        public void Cancel()
        {
            if (Done)
                return;
            lock (output)
                cancelled = true;
            try { process.Kill(); }
            catch (InvalidOperationException) { } // exited meanwhile
        }

        /// <summary>Cancels it if still running and frees the process handle, once its output
        /// readers are done (or have been given two seconds).</summary>
        public void Dispose()
        {
            Cancel();
            Wait(2000);
            try
            {
                process.CancelOutputRead();
                process.CancelErrorRead();
            }
            catch (InvalidOperationException) { } // never started reading
            process.Dispose();
        }
    }
}
