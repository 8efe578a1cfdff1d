// Work off the main thread: a job runs on the thread pool, then waits in a queue until the
// main thread finishes it within its frame budget.
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Threading;

namespace Relief
{
    /// <summary>A piece of work that runs on a worker, then finishes on the main thread.</summary>
    abstract class Job
    {
        /// <summary>What went wrong on the worker, or null.</summary>
        internal string Error;
        internal abstract void Work();
        internal abstract void Finish();
    }

    /// <summary>Runs jobs on the thread pool and hands them back in the order they finish.</summary>
    sealed class Workers
    {
        readonly ConcurrentQueue<Job> done = new ConcurrentQueue<Job>();
        static readonly WaitCallback RunCallback = Run;
        int inFlight;

        /// <summary>Jobs started and not yet finished on the main thread.</summary>
        internal int InFlight { get { return Volatile.Read(ref inFlight); } }

        internal void Start(Job job)
        {
            Interlocked.Increment(ref inFlight);
            ThreadPool.QueueUserWorkItem(RunCallback, new Pair(this, job));
        }

        sealed class Pair
        {
            internal readonly Workers Owner;
            internal readonly Job Job;
            internal Pair(Workers owner, Job job) { Owner = owner; Job = job; }
        }

        static void Run(object state)
        {
            var p = (Pair)state;
            try { p.Job.Work(); }
            catch (Exception e) { p.Job.Error = e.Message; }
            p.Owner.done.Enqueue(p.Job);
        }

        /// <summary>The next job whose work is done, if any.</summary>
        internal bool TryTake(out Job job)
        {
            if (!done.TryDequeue(out job))
                return false;
            Interlocked.Decrement(ref inFlight);
            return true;
        }

        /// <summary>Waits (for tests and shutdown) until every started job's work is done.</summary>
        internal bool WaitIdle(int timeoutMs)
        {
            var clock = System.Diagnostics.Stopwatch.StartNew();
            while (done.Count < Volatile.Read(ref inFlight))
            {
                if (clock.ElapsedMilliseconds > timeoutMs)
                    return false;
                Thread.Sleep(1);
            }
            return true;
        }
    }

    /// <summary>Arrays of one shape, reused so steady-state streaming allocates nothing.</summary>
    sealed class ArrayPool<T> where T : class
    {
        readonly ConcurrentBag<T> free = new ConcurrentBag<T>();
        readonly Func<T> make;
        internal ArrayPool(Func<T> make) { this.make = make; }
        internal T Take() { T a; return free.TryTake(out a) ? a : make(); }
        internal void Give(T a) { if (a != null) free.Add(a); }
    }

    /// <summary>Engine objects shown by key, plus the hidden ones kept for reuse.</summary>
    sealed class ObjectPool<TKey, T> where T : class
    {
        internal readonly Dictionary<TKey, T> Shown = new Dictionary<TKey, T>();
        internal readonly Stack<T> Hidden = new Stack<T>();
        /// <summary>How many objects the engine was asked to make.</summary>
        internal int Created;
    }
}
