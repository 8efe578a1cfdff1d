// Where the tests' inputs lie: Tests/Fixtures~ inside the package (Unity skips folders whose
// name ends in '~'). `cargo test --release --test csharp` fills it; by hand:
//   relief bake --out Tests/Fixtures~/world
//   relief pack Tests/Fixtures~/world Tests/Fixtures~/world.rlpack
//   relief bake --planet --out Tests/Fixtures~/planet.plnt   (a small planet)
// layout.txt (what a C compiler makes of relief.h) and url.txt (the pack on a web server)
// are written by tests/csharp.rs; tests that need them are skipped without them.
using System.IO;
using System.Runtime.CompilerServices;
using NUnit.Framework;

namespace Relief.Tests
{
    static class Fixtures
    {
        static string Here([CallerFilePath] string path = "") { return path; }

        /// <summary>Tests/Fixtures~ of the package this file is in.</summary>
        public static readonly string Folder = Path.Combine(Path.GetDirectoryName(Here()), "Fixtures~");

        static string Need(string name)
        {
            string path = Path.Combine(Folder, name);
            if (!File.Exists(path) && !Directory.Exists(path))
                Assert.Fail("{0} is missing: run `cargo test --release --test csharp` from relief's repository (it bakes and places the fixtures), or see Tests/Fixtures.cs", path);
            return path;
        }

        static string Optional(string name)
        {
            string path = Path.Combine(Folder, name);
            if (!File.Exists(path))
                Assert.Ignore("{0} is written by tests/csharp.rs", path);
            return path;
        }

        /// <summary>The default world, baked (a directory).</summary>
        public static string World { get { return Need("world"); } }
        /// <summary>The same world packed.</summary>
        public static string Pack { get { return Need("world.rlpack"); } }
        /// <summary>A small PLNT planet.</summary>
        public static string Planet { get { return Need("planet.plnt"); } }
        /// <summary>What a C program compiled from relief.h printed.</summary>
        public static string Layout { get { return Optional("layout.txt"); } }
        /// <summary>The pack's URL on a loopback web server.</summary>
        public static string Url { get { return File.ReadAllText(Optional("url.txt")).Trim(); } }
    }
}
