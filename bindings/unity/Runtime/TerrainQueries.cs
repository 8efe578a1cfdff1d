using System;
using System.Runtime.InteropServices;
using Relief.Native;

namespace Relief
{
    /// <summary>Questions about a flat world's ground, from any thread, over what a runtime
    /// holds (the overview answers heights where no region is resident). Positions
    /// are world metres, Y up.</summary>
    public sealed class TerrainQueries : IDisposable
    {
        internal readonly TerrainHandle Handle;

        /// <summary>Queries over what a flat world's runtime has resident
        /// (relief_runtime_create_terrain); they may outlive the runtime.</summary>
        public TerrainQueries(Runtime runtime)
        {
            if (runtime == null) throw new ArgumentNullException("runtime");
            ReliefException.Check(NativeMethods.relief_runtime_create_terrain(runtime.Handle, out Handle));
        }

        /// <summary>Height at (x, z), metres, and where it came from.</summary>
        public float Height(double x, double z, out HeightOrigin origin)
        {
            float h;
            uint o;
            ReliefException.Check(NativeMethods.relief_terrain_height(Handle, x, z, out h, out o));
            origin = (HeightOrigin)o;
            return h;
        }

        public float Height(double x, double z)
        {
            HeightOrigin origin;
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

        /// <summary>The unit normal at (x, z) (Y up) and where it came from.</summary>
        public unsafe Double3 Normal(double x, double z, out HeightOrigin origin)
        {
            float* n = stackalloc float[3];
            uint o;
            ReliefException.Check(NativeMethods.relief_terrain_normal(Handle, x, z, n, out o));
            origin = (HeightOrigin)o;
            return new Double3(n[0], n[1], n[2]);
        }

        public Double3 Normal(double x, double z)
        {
            HeightOrigin origin;
            return Normal(x, z, out origin);
        }

        /// <summary>Normals for pairs (x, z) into <paramref name="normals"/> (3 floats each).</summary>
        public unsafe void Normals(ReadOnlySpan<double> xz, Span<float> normals)
        {
            fixed (double* p = &MemoryMarshal.GetReference(xz))
            fixed (float* o = &MemoryMarshal.GetReference(normals))
                ReliefException.Check(NativeMethods.relief_terrain_normals(Handle, p, (UIntPtr)(xz.Length / 2), o, (UIntPtr)normals.Length));
        }

        /// <summary>The region maps at (x, z): texture, hole, biome, lake.</summary>
        public Ground Ground(double x, double z)
        {
            var g = new relief_ground();
            g.struct_size = (uint)Marshal.SizeOf(typeof(relief_ground));
            ReliefException.Check(NativeMethods.relief_terrain_ground(Handle, x, z, ref g));
            return new Ground(g);
        }

        /// <summary>The biome id at (x, z), or -1 where no resident region covers it.</summary>
        public int BiomeId(double x, double z)
        {
            uint found, biome;
            ReliefException.Check(NativeMethods.relief_terrain_biome(Handle, x, z, out found, out biome));
            return found != 0 ? (int)biome : -1;
        }

        /// <summary>The nearest river within <paramref name="radius"/> metres.</summary>
        public RiverAt River(double x, double z, double radius)
        {
            var r = new relief_river();
            r.struct_size = (uint)Marshal.SizeOf(typeof(relief_river));
            ReliefException.Check(NativeMethods.relief_terrain_river(Handle, x, z, radius, ref r));
            return new RiverAt(r);
        }

        /// <summary>The nearest lake within <paramref name="radius"/> metres.</summary>
        public LakeAt Lake(double x, double z, double radius)
        {
            var l = new relief_lake();
            l.struct_size = (uint)Marshal.SizeOf(typeof(relief_lake));
            ReliefException.Check(NativeMethods.relief_terrain_lake(Handle, x, z, radius, ref l));
            return new LakeAt(l);
        }

        public void Dispose() { Handle.Dispose(); }
    }
}
