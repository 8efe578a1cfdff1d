// SafeHandles own relief's objects and held pieces: each frees (or releases) its object exactly
// once, on Dispose or, if the caller forgets, from the finalizer. relief's destroy and release
// functions accept any thread.
using System;
using System.Runtime.InteropServices;

namespace Relief.Native
{
    abstract class ReliefHandle : SafeHandle
    {
        protected ReliefHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
    }

    sealed class WorldHandle : ReliefHandle
    {
        protected override bool ReleaseHandle() { NativeMethods.relief_world_destroy(handle); return true; }
    }

    sealed class PlanetHandle : ReliefHandle
    {
        protected override bool ReleaseHandle() { NativeMethods.relief_planet_destroy(handle); return true; }
    }

    sealed class RuntimeHandle : ReliefHandle
    {
        protected override bool ReleaseHandle() { NativeMethods.relief_runtime_destroy(handle); return true; }
    }

    sealed class TerrainHandle : ReliefHandle
    {
        protected override bool ReleaseHandle() { NativeMethods.relief_terrain_destroy(handle); return true; }
    }

    sealed class PlanetTerrainHandle : ReliefHandle
    {
        protected override bool ReleaseHandle() { NativeMethods.relief_planet_terrain_destroy(handle); return true; }
    }

    /// <summary>A held region (relief_region): its maps stay valid until released.</summary>
    sealed class RegionHandle : ReliefHandle
    {
        protected override bool ReleaseHandle() { NativeMethods.relief_region_release(handle); return true; }
    }

    /// <summary>A held planet tile (relief_tile).</summary>
    sealed class TileHandle : ReliefHandle
    {
        protected override bool ReleaseHandle() { NativeMethods.relief_tile_release(handle); return true; }
    }

    /// <summary>A held collision chunk (relief_chunk).</summary>
    sealed class ChunkHandle : ReliefHandle
    {
        protected override bool ReleaseHandle() { NativeMethods.relief_chunk_release(handle); return true; }
    }

    /// <summary>A held chunk of placed things (relief_things).</summary>
    sealed class ThingsHandle : ReliefHandle
    {
        protected override bool ReleaseHandle() { NativeMethods.relief_things_release(handle); return true; }
    }
}
