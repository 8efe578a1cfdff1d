using System;
using System.Runtime.InteropServices;
using Relief.Native;

namespace Relief
{
    /// <summary>Questions about the ground, from any thread, over a streamer's regions (the
    /// overview answers heights where none is resident).</summary>
    public sealed class Terrain : IDisposable
    {
        public readonly TerrainHandle Handle;

        public Terrain(Streamer streamer)
        {
            ReliefException.Check(NativeMethods.relief_terrain_create(streamer.Handle, out Handle));
        }

        /// <summary>Queries over what a runtime streams (a flat world's).</summary>
        public Terrain(Runtime runtime)
        {
            ReliefException.Check(NativeMethods.relief_runtime_create_terrain(runtime.Handle, out Handle));
        }

        /// <summary>Height at (x, z), metres; <paramref name="origin"/> is a RELIEF_ORIGIN_*.</summary>
        public float Height(double x, double z, out uint origin)
        {
            float h;
            ReliefException.Check(NativeMethods.relief_terrain_height(Handle, x, z, out h, out origin));
            return h;
        }

        public float Height(double x, double z)
        {
            uint origin;
            return Height(x, z, out origin);
        }

        /// <summary>Heights for pairs (x0, z0, x1, z1, …) into <paramref name="heights"/> (at
        /// least one per pair); returns how many came from resident regions.</summary>
        public unsafe int Heights(ReadOnlySpan<double> xz, Span<float> heights)
        {
            UIntPtr fromRegions;
            fixed (double* p = &MemoryMarshal.GetReference(xz))
            fixed (float* o = &MemoryMarshal.GetReference(heights))
                ReliefException.Check(NativeMethods.relief_terrain_heights(Handle, p, (UIntPtr)(xz.Length / 2), o, (UIntPtr)heights.Length, out fromRegions));
            return (int)fromRegions;
        }

        /// <summary>Unit normal (x, y, z) at (x, z) into <paramref name="normal"/> (3 floats).</summary>
        public unsafe uint Normal(double x, double z, Span<float> normal)
        {
            if (normal.Length < 3)
                throw new ArgumentException("normal needs 3 floats");
            uint origin;
            fixed (float* o = &MemoryMarshal.GetReference(normal))
                ReliefException.Check(NativeMethods.relief_terrain_normal(Handle, x, z, o, out origin));
            return origin;
        }

        /// <summary>Normals for pairs (x, z) into <paramref name="normals"/> (3 floats each).</summary>
        public unsafe void Normals(ReadOnlySpan<double> xz, Span<float> normals)
        {
            fixed (double* p = &MemoryMarshal.GetReference(xz))
            fixed (float* o = &MemoryMarshal.GetReference(normals))
                ReliefException.Check(NativeMethods.relief_terrain_normals(Handle, p, (UIntPtr)(xz.Length / 2), o, (UIntPtr)normals.Length));
        }

        public relief_ground Ground(double x, double z)
        {
            var g = new relief_ground();
            g.struct_size = (uint)Marshal.SizeOf(typeof(relief_ground));
            ReliefException.Check(NativeMethods.relief_terrain_ground(Handle, x, z, ref g));
            return g;
        }

        /// <summary>The biome id at (x, z), or -1 where no resident region covers it.</summary>
        public int Biome(double x, double z)
        {
            uint found, biome;
            ReliefException.Check(NativeMethods.relief_terrain_biome(Handle, x, z, out found, out biome));
            return found != 0 ? (int)biome : -1;
        }

        public relief_river River(double x, double z, double radius)
        {
            var r = new relief_river();
            r.struct_size = (uint)Marshal.SizeOf(typeof(relief_river));
            ReliefException.Check(NativeMethods.relief_terrain_river(Handle, x, z, radius, ref r));
            return r;
        }

        public relief_lake Lake(double x, double z, double radius)
        {
            var l = new relief_lake();
            l.struct_size = (uint)Marshal.SizeOf(typeof(relief_lake));
            ReliefException.Check(NativeMethods.relief_terrain_lake(Handle, x, z, radius, ref l));
            return l;
        }

        public void Dispose() { Handle.Dispose(); }
    }
}
