using System;
using System.Runtime.InteropServices;
using Relief.Native;

namespace Relief
{
    /// <summary>Collision heightfield chunks streamed near their own focus (the player), in
    /// HeightMapShape3D / Jolt HeightFieldShape layout.</summary>
    public sealed class Collision : IDisposable
    {
        public readonly CollisionHandle Handle;

        /// <summary>Chunks of <paramref name="chunkSize"/> metres (0: 64 m) with the collision
        /// defaults.</summary>
        public Collision(Streamer streamer, double chunkSize)
            : this(streamer, Streamer.DefaultConfig(NativeMethods.RELIEF_STREAM_KIND_COLLISION), chunkSize) { }

        public Collision(Streamer streamer, relief_stream_config config, double chunkSize)
        {
            ReliefException.Check(NativeMethods.relief_collision_create(streamer.Handle, ref config, chunkSize, out Handle));
        }

        public void Update(double x, double y, double z)
        {
            ReliefException.Check(NativeMethods.relief_collision_update(Handle, x, y, z));
        }

        public bool Settle(double x, double y, double z, uint timeoutMs)
        {
            uint settled;
            ReliefException.Check(NativeMethods.relief_collision_settle(Handle, x, y, z, timeoutMs, out settled));
            return settled != 0;
        }

        public unsafe int PollEvents(Span<relief_event> events)
        {
            UIntPtr n;
            fixed (relief_event* p = &MemoryMarshal.GetReference(events))
                ReliefException.Check(NativeMethods.relief_collision_poll_events(Handle, p, (UIntPtr)sizeof(relief_event), (UIntPtr)events.Length, out n));
            return (int)n;
        }

        public relief_stream_stats Stats
        {
            get
            {
                var s = new relief_stream_stats();
                s.struct_size = (uint)Marshal.SizeOf(typeof(relief_stream_stats));
                ReliefException.Check(NativeMethods.relief_collision_get_stats(Handle, ref s));
                return s;
            }
        }

        /// <summary>The chunk containing a position: world (x, y, z) on a flat world (y is
        /// ignored), the planet frame on a planet (face 0 on flat worlds).</summary>
        public unsafe void ChunkAt(double x, double y, double z, out uint face, out int chunkX, out int chunkZ)
        {
            double* p = stackalloc double[3];
            p[0] = x;
            p[1] = y;
            p[2] = z;
            ReliefException.Check(NativeMethods.relief_collision_chunk_at(Handle, p, out face, out chunkX, out chunkZ));
        }

        /// <summary>Built chunk (face, x, z), read in place until disposed; null if not built.</summary>
        public ChunkView AcquireChunk(uint face, int x, int z)
        {
            var view = new relief_chunk_view();
            view.struct_size = (uint)Marshal.SizeOf(typeof(relief_chunk_view));
            uint status = NativeMethods.relief_collision_acquire(Handle, face, x, z, ref view);
            if (status == NativeMethods.RELIEF_STATUS_NOT_FOUND)
                return null;
            ReliefException.Check(status);
            return new ChunkView(view);
        }

        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>One chunk's heights (Samples², X fastest, NaN for holes), zero-copy until
    /// Dispose.</summary>
    public sealed class ChunkView : IDisposable
    {
        relief_chunk_view view;

        internal ChunkView(relief_chunk_view view) { this.view = view; }
        ~ChunkView() { NativeMethods.relief_collision_release(ref view); }

        public relief_chunk_view Raw { get { return view; } }

        public unsafe ReadOnlySpan<float> Heights
        {
            get
            {
                if (view.token == IntPtr.Zero)
                    throw new ObjectDisposedException("ChunkView");
                return new ReadOnlySpan<float>((void*)view.heights, (int)(view.samples * view.samples));
            }
        }

        public void Dispose()
        {
            NativeMethods.relief_collision_release(ref view);
            GC.SuppressFinalize(this);
        }
    }
}
