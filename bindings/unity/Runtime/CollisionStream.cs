using System;
using System.Runtime.InteropServices;
using Relief.Native;

namespace Relief
{
    /// <summary>Collision heightfield chunks built near their own focus (the player), in
    /// HeightMapShape3D / Jolt HeightFieldShape layout. <see cref="Runtime"/> drives these with
    /// everything else; use this alone beside a <see cref="Streamer"/>.</summary>
    public sealed class CollisionStream : IDisposable
    {
        internal readonly CollisionHandle Handle;

        /// <summary>Chunks of <paramref name="chunkSize"/> metres (0: 64 m) with the collision
        /// defaults.</summary>
        public CollisionStream(Streamer streamer, double chunkSize)
            : this(streamer, StreamConfig.Default(StreamKind.Collision), chunkSize) { }

        public CollisionStream(Streamer streamer, StreamConfig config, double chunkSize)
        {
            ReliefException.Check(NativeMethods.relief_collision_create(streamer.Handle, ref config.c, chunkSize, out Handle));
        }

        /// <summary>Moves the focus; never blocks.</summary>
        public void Update(double x, double y, double z)
        {
            ReliefException.Check(NativeMethods.relief_collision_update(Handle, x, y, z));
        }

        /// <summary>Blocks until the chunks around the focus are built or the timeout; true if
        /// they all are.</summary>
        public bool Settle(double x, double y, double z, int timeoutMs)
        {
            uint settled;
            ReliefException.Check(NativeMethods.relief_collision_settle(Handle, x, y, z, (uint)timeoutMs, out settled));
            return settled != 0;
        }

        /// <summary>Moves pending events (Loaded / Unloaded / Failed for chunks) into
        /// <paramref name="events"/>; returns how many.</summary>
        public unsafe int PollEvents(Span<StreamEvent> events)
        {
            UIntPtr n;
            fixed (StreamEvent* p = &MemoryMarshal.GetReference(events))
                ReliefException.Check(NativeMethods.relief_collision_poll_events(Handle, (relief_event*)p, (UIntPtr)sizeof(relief_event), (UIntPtr)events.Length, out n));
            return (int)n;
        }

        public StreamStats Stats
        {
            get
            {
                var s = new relief_stream_stats();
                s.struct_size = (uint)Marshal.SizeOf(typeof(relief_stream_stats));
                ReliefException.Check(NativeMethods.relief_collision_get_stats(Handle, ref s));
                return new StreamStats(s);
            }
        }

        /// <summary>The chunk containing a position: world (x, y, z) on a flat world (y is
        /// ignored; face 0), the planet frame on a planet.</summary>
        public unsafe ChunkKey ChunkAt(Double3 position)
        {
            double* p = stackalloc double[3];
            p[0] = position.X; p[1] = position.Y; p[2] = position.Z;
            uint face;
            int x, z;
            ReliefException.Check(NativeMethods.relief_collision_chunk_at(Handle, p, out face, out x, out z));
            return new ChunkKey((int)face, x, z);
        }

        /// <summary>Built chunk <paramref name="key"/>, read in place until disposed; null if
        /// not built.</summary>
        public ChunkView AcquireChunk(ChunkKey key)
        {
            var view = ChunkView.Empty();
            uint status = NativeMethods.relief_collision_acquire(Handle, (uint)key.Face, key.X, key.Z, ref view);
            return ChunkView.From(status, view);
        }

        public void Dispose() { Handle.Dispose(); }
    }

    /// <summary>Which collision chunk: cube face (0 on flat worlds) and chunk (x, z).</summary>
    public readonly struct ChunkKey : IEquatable<ChunkKey>
    {
        public readonly int Face, X, Z;
        public ChunkKey(int face, int x, int z) { Face = face; X = x; Z = z; }
        public bool Equals(ChunkKey o) { return Face == o.Face && X == o.X && Z == o.Z; }
        public override bool Equals(object o) { return o is ChunkKey && Equals((ChunkKey)o); }
        public override int GetHashCode() { return (Face * 73856093) ^ (X * 19349663) ^ (Z * 83492791); }
        public override string ToString() { return string.Format("chunk ({0}, {1}) face {2}", X, Z, Face); }
    }

    /// <summary>One chunk's heights (Samples², X fastest, NaN in holes) and its frame,
    /// zero-copy until Dispose. Sample (i, j) lies at Origin + (CornerX + i·Spacing)·AxisX +
    /// height·Up + (CornerZ + j·Spacing)·AxisZ: on a flat world the axes are the world's and
    /// Origin is 0; on a planet they are the chunk's tangent frame.</summary>
    public sealed class ChunkView : ViewOwner, IDisposable
    {
        relief_chunk_view view;

        ChunkView(relief_chunk_view view) { this.view = view; }
        ~ChunkView() { Close(Free); }

        internal static relief_chunk_view Empty()
        {
            var v = new relief_chunk_view();
            v.struct_size = (uint)Marshal.SizeOf(typeof(relief_chunk_view));
            return v;
        }

        internal static ChunkView From(uint status, relief_chunk_view view)
        {
            if (status == (uint)ReliefStatus.NotFound)
                return null;
            ReliefException.Check(status);
            return new ChunkView(view);
        }

        void Free() { NativeMethods.relief_collision_release(ref view); }

        public ChunkKey Key { get { return new ChunkKey((int)view.face, view.x, view.z); } }
        /// <summary>Samples along a side.</summary>
        public int Samples { get { return (int)view.samples; } }
        public float MinHeight { get { return view.min_height; } }
        public float MaxHeight { get { return view.max_height; } }
        /// <summary>Metres between samples.</summary>
        public double Spacing { get { return view.spacing; } }
        /// <summary>The chunk's centre and first sample in its plane (x, z), metres.</summary>
        public double CentreX { get { return view.centre_x; } }
        public double CentreZ { get { return view.centre_z; } }
        public double CornerX { get { return view.corner_x; } }
        public double CornerZ { get { return view.corner_z; } }
        public unsafe Double3 Origin { get { fixed (double* p = view.origin) return Double3.From(p); } }
        public unsafe Double3 AxisX { get { fixed (double* p = view.axis_x) return Double3.From(p); } }
        public unsafe Double3 Up { get { fixed (double* p = view.up) return Double3.From(p); } }
        public unsafe Double3 AxisZ { get { fixed (double* p = view.axis_z) return Double3.From(p); } }

        public ViewSpan<float> Heights { get { return new ViewSpan<float>(this, view.heights, (int)(view.samples * view.samples)); } }

        public void Dispose()
        {
            Close(Free);
            GC.SuppressFinalize(this);
        }
    }
}
