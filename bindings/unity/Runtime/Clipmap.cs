using System;
using System.Runtime.InteropServices;
using Relief.Native;

namespace Relief
{
    /// <summary>Camera-following LOD height levels; each update fills only what came into
    /// view and reports the rectangles to upload.</summary>
    public sealed class Clipmap : IDisposable
    {
        public readonly ClipmapHandle Handle;

        public static relief_clipmap_config DefaultConfig()
        {
            Abi.Require();
            relief_clipmap_config c;
            ReliefException.Check(NativeMethods.relief_clipmap_config_default(out c));
            return c;
        }

        public Clipmap(Terrain terrain) : this(terrain, DefaultConfig()) { }

        public Clipmap(Terrain terrain, relief_clipmap_config config)
        {
            ReliefException.Check(NativeMethods.relief_clipmap_create(terrain.Handle, ref config, out Handle));
        }

        /// <summary>LOD rings over a planet (on a tangent plane near the focus).</summary>
        public Clipmap(PlanetTerrain terrain) : this(terrain, DefaultConfig()) { }

        public Clipmap(PlanetTerrain terrain, relief_clipmap_config config)
        {
            ReliefException.Check(NativeMethods.relief_planet_clipmap_create(terrain.Handle, ref config, out Handle));
        }

        /// <summary>Refills the rings over a planet tile (call on its LOADED event).</summary>
        public int RefreshTile(uint face, uint tx, uint ty)
        {
            UIntPtr n;
            ReliefException.Check(NativeMethods.relief_clipmap_refresh_tile(Handle, face, tx, ty, out n));
            return (int)n;
        }

        /// <summary>Recentres on (x, y, z); returns how many rectangles changed.</summary>
        public int Update(double x, double y, double z)
        {
            UIntPtr n;
            ReliefException.Check(NativeMethods.relief_clipmap_update(Handle, x, y, z, out n));
            return (int)n;
        }

        /// <summary>Refills what region (x, z) covers (call on its LOADED event).</summary>
        public int RefreshRegion(int x, int z)
        {
            UIntPtr n;
            ReliefException.Check(NativeMethods.relief_clipmap_refresh_region(Handle, x, z, out n));
            return (int)n;
        }

        /// <summary>Copies the last update's rectangles; <paramref name="rects"/> must hold
        /// them all (the count Update returned).</summary>
        public unsafe int GetDirty(Span<relief_dirty_rect> rects)
        {
            UIntPtr n;
            fixed (relief_dirty_rect* p = &MemoryMarshal.GetReference(rects))
                ReliefException.Check(NativeMethods.relief_clipmap_get_dirty(Handle, p, (UIntPtr)sizeof(relief_dirty_rect), (UIntPtr)rects.Length, out n));
            return (int)n;
        }

        /// <summary>Level k's view; its heights are valid until the next update.</summary>
        public relief_clipmap_level Level(uint k)
        {
            var level = new relief_clipmap_level();
            level.struct_size = (uint)Marshal.SizeOf(typeof(relief_clipmap_level));
            ReliefException.Check(NativeMethods.relief_clipmap_get_level(Handle, k, ref level));
            return level;
        }

        /// <summary>Level k's heights, toroidal: cell (i, j) at (j mod size) * size + (i mod size).</summary>
        public ReadOnlySpan<float> Heights(uint k)
        {
            return HeightsOf(Level(k));
        }

        /// <summary>A level view's heights as a span (size² floats, valid as the view is).</summary>
        internal static unsafe ReadOnlySpan<float> HeightsOf(relief_clipmap_level level)
        {
            return new ReadOnlySpan<float>((void*)level.heights, (int)(level.size * level.size));
        }

        public void Dispose() { Handle.Dispose(); }
    }
}
