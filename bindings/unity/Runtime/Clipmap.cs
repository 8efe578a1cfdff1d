using System;
using System.Runtime.InteropServices;
using Relief.Native;

namespace Relief
{
    /// <summary>Camera-following LOD height levels (a flat world's clipmap, or a planet's LOD
    /// rings); each update fills only what came into view and reports the rectangles that
    /// changed. <see cref="Runtime"/> keeps one of these for you.</summary>
    public sealed class Clipmap : ViewOwner, IDisposable
    {
        internal readonly ClipmapHandle Handle;

        public Clipmap(TerrainQueries terrain) : this(terrain, ClipmapConfig.Default()) { }

        public Clipmap(TerrainQueries terrain, ClipmapConfig config)
        {
            ReliefException.Check(NativeMethods.relief_clipmap_create(terrain.Handle, ref config.c, out Handle));
        }

        /// <summary>LOD rings over a planet (on a tangent plane near the focus).</summary>
        public Clipmap(PlanetQueries terrain) : this(terrain, ClipmapConfig.Default()) { }

        public Clipmap(PlanetQueries terrain, ClipmapConfig config)
        {
            ReliefException.Check(NativeMethods.relief_planet_clipmap_create(terrain.Handle, ref config.c, out Handle));
        }

        /// <summary>Refills the rings over a planet tile (call on its Loaded event); returns
        /// how many rectangles changed.</summary>
        public int RefreshTile(int face, int tx, int ty)
        {
            UIntPtr n;
            ReliefException.Check(NativeMethods.relief_clipmap_refresh_tile(Handle, (uint)face, (uint)tx, (uint)ty, out n));
            return (int)n;
        }

        /// <summary>Recentres on (x, y, z); returns how many rectangles changed.</summary>
        public int Update(double x, double y, double z)
        {
            UIntPtr n;
            ReliefException.Check(NativeMethods.relief_clipmap_update(Handle, x, y, z, out n));
            return (int)n;
        }

        /// <summary>Refills what region (x, z) covers (call on its Loaded event).</summary>
        public int RefreshRegion(int x, int z)
        {
            UIntPtr n;
            ReliefException.Check(NativeMethods.relief_clipmap_refresh_region(Handle, x, z, out n));
            return (int)n;
        }

        /// <summary>Copies the last call's rectangles into <paramref name="rects"/>, which must
        /// hold them all (the count that call returned); returns the count.</summary>
        public unsafe int GetDirty(Span<DirtyRect> rects)
        {
            UIntPtr n;
            fixed (DirtyRect* p = &MemoryMarshal.GetReference(rects))
                ReliefException.Check(NativeMethods.relief_clipmap_get_dirty(Handle, (relief_dirty_rect*)p, (UIntPtr)sizeof(relief_dirty_rect), (UIntPtr)rects.Length, out n));
            return (int)n;
        }

        /// <summary>Level <paramref name="k"/>'s window.</summary>
        public LevelInfo Level(int k)
        {
            return new LevelInfo(LevelOf(k));
        }

        /// <summary>Level <paramref name="k"/>'s heights (Size², toroidal, see
        /// <see cref="LevelInfo"/>), read in place: they change with the next update and can't
        /// be read once the clipmap is disposed.</summary>
        public ViewSpan<float> Heights(int k)
        {
            relief_clipmap_level level = LevelOf(k);
            return new ViewSpan<float>(this, level.heights, (int)(level.size * level.size));
        }

        relief_clipmap_level LevelOf(int k)
        {
            var level = new relief_clipmap_level();
            level.struct_size = (uint)Marshal.SizeOf(typeof(relief_clipmap_level));
            ReliefException.Check(NativeMethods.relief_clipmap_get_level(Handle, (uint)k, ref level));
            return level;
        }

        public void Dispose()
        {
            Close(Handle.Dispose);
        }
    }
}
