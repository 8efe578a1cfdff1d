// Zero-copy views of relief's memory that can't be read after the memory goes back.
//
// A view (region, tile, chunk; a runtime's levels) is a ViewOwner. Its maps are ViewSpans:
// ref structs that can't be stored on the heap and that enter the owner for every read. The
// owner frees relief's memory once: Dispose (any thread) or the finalizer. Dispose first
// closes the owner, then waits for reads in progress to leave, then frees; a read that
// enters after the close throws ObjectDisposedException. A ViewSpan holds its owner, so the
// finalizer can't run (and free) while a span of it is still in use.
using System;
using System.Threading;

namespace Relief
{
    /// <summary>Reads a view's span in place: <paramref name="span"/> is valid only during the
    /// call (the view can't be released meanwhile).</summary>
    public delegate void SpanReader<T, TState>(ReadOnlySpan<T> span, TState state);

    /// <summary>Something that lends relief's memory to <see cref="ViewSpan{T}"/>s.</summary>
    public abstract class ViewOwner
    {
        int readers;
        int closed;

        /// <summary>Whether the memory is still lent (false once disposed).</summary>
        public bool IsLive { get { return Volatile.Read(ref closed) == 0; } }

        internal void Enter()
        {
            Interlocked.Increment(ref readers);
            if (Volatile.Read(ref closed) != 0)
            {
                Interlocked.Decrement(ref readers);
                throw new ObjectDisposedException(GetType().Name, "the view was disposed: its memory went back to relief");
            }
        }

        internal void Exit() { Interlocked.Decrement(ref readers); }

        /// <summary>Closes the owner to new reads, waits for reads in progress, then runs
        /// <paramref name="free"/>, once; false if it was closed already.</summary>
        internal bool Close(Action free)
        {
            if (Interlocked.Exchange(ref closed, 1) != 0)
                return false;
            var spin = new SpinWait();
            while (Volatile.Read(ref readers) != 0)
                spin.SpinOnce();
            free();
            return true;
        }
    }

    /// <summary>A read-only span of relief's memory that checks, on every read, that its
    /// view is still live. Index it, copy it out, or <see cref="Read"/> it in place.</summary>
    public readonly ref struct ViewSpan<T> where T : struct
    {
        readonly ViewOwner owner;
        readonly IntPtr data;
        readonly int length;

        /// <summary>A span of a live owner's memory; throws ObjectDisposedException once the
        /// owner is closed (its pointers are gone).</summary>
        internal ViewSpan(ViewOwner owner, IntPtr data, int length)
        {
            if (!owner.IsLive)
                throw new ObjectDisposedException(owner.GetType().Name, "the view was disposed: its memory went back to relief");
            this.owner = owner;
            this.data = data;
            this.length = data == IntPtr.Zero ? 0 : length;
        }

        /// <summary>Elements (0 for a map the world doesn't have).</summary>
        public int Length { get { return length; } }
        public bool IsEmpty { get { return length == 0; } }

        /// <summary>Element <paramref name="index"/>; throws ObjectDisposedException once the
        /// view is disposed.</summary>
        public unsafe T this[int index]
        {
            get
            {
                owner.Enter();
                try
                {
                    if ((uint)index >= (uint)length)
                        throw new IndexOutOfRangeException();
                    return new ReadOnlySpan<T>((void*)data, length)[index];
                }
                finally { owner.Exit(); }
            }
        }

        /// <summary>Copies every element into <paramref name="destination"/> (at least
        /// <see cref="Length"/> long).</summary>
        public unsafe void CopyTo(Span<T> destination)
        {
            owner.Enter();
            try
            {
                if (destination.Length < length)
                    throw new ArgumentException("destination holds " + destination.Length + " elements, the view " + length, "destination");
                new ReadOnlySpan<T>((void*)data, length).CopyTo(destination);
            }
            finally { owner.Exit(); }
        }

        /// <summary>A managed copy.</summary>
        public T[] ToArray()
        {
            var a = new T[length];
            CopyTo(a);
            return a;
        }

        /// <summary>Calls <paramref name="reader"/> with the memory itself (no copy); the view
        /// can't be released until it returns.</summary>
        public unsafe void Read<TState>(TState state, SpanReader<T, TState> reader)
        {
            owner.Enter();
            try { reader(new ReadOnlySpan<T>((void*)data, length), state); }
            finally { owner.Exit(); }
        }
    }
}
